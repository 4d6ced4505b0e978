import { hasSomethingToSee, LAST_MESSAGE_PREVIEW_LENGTH, type MessageSender } from '@sleepweave/contracts';

/**
 * Others are shown by first name, else the part of the e-mail before the at sign, else
 * "User". Community sends only that part ("maya.k"); a whole address is cut the same way.
 */
export function senderName(sender: MessageSender): string {
  // a name of only invisible characters (accepted before names had to show something) shows as nothing: the next one
  const first = sender.firstName?.trim();
  if (first && hasSomethingToSee(first)) return first;
  const local = sender.email?.split('@')[0]?.trim();
  if (local && hasSomethingToSee(local)) return local;
  return 'User';
}

/** The first 100 characters of the last message, with an ellipsis when it goes on. */
export function messagePreview(body: string): string {
  const chars = Array.from(body);
  if (chars.length <= LAST_MESSAGE_PREVIEW_LENGTH) return body;
  return `${chars.slice(0, LAST_MESSAGE_PREVIEW_LENGTH).join('').trimEnd()}...`;
}

/** One letter for the avatar circle. */
export function initialOf(name: string): string {
  return (Array.from(name.trim())[0] ?? 'U').toUpperCase();
}
