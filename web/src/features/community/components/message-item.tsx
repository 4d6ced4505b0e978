import { STUDY_TEAM_ID, type Message } from '@sleepweave/contracts';
import { memo, useState } from 'react';
import { cn } from '../../../lib/utils';
import { initialOf, senderName } from '../utils/display';

function Avatar({ name, imageUrl }: { name: string; imageUrl: string | null }) {
  const [broken, setBroken] = useState(false);
  if (imageUrl && !broken) {
    return <img src={imageUrl} alt="" onError={() => setBroken(true)} className="size-9 shrink-0 rounded-full object-cover" />;
  }
  return (
    <span
      aria-hidden="true"
      className="grid size-9 shrink-0 place-items-center rounded-full bg-lavender-200 text-base font-semibold text-night-800"
    >
      {initialOf(name)}
    </span>
  );
}

/**
 * One message. Her own sit on the right, labelled You; others show avatar and name.
 * The body is a text node (React escapes it): a message is never interpreted as HTML.
 * No aria-label on the item: a screen reader reads name, time and text as they are.
 * `when` is its time as shown ("5m ago"): given as text, so that when the clock moves on
 * only the messages whose text changed are drawn again, not the whole conversation.
 */
export const MessageItem = memo(function MessageItem({ message, own, when }: { message: Message; own: boolean; when: string }) {
  const name = own ? 'You' : senderName(message.sender);
  const time = (
    <time dateTime={message.createdAt} className="text-sm text-night-500">
      {when}
    </time>
  );
  return (
    <li className={cn('flex gap-3', own ? 'justify-end' : 'justify-start')}>
      {own ? null : <Avatar name={name} imageUrl={message.sender.profileImageUrl} />}
      <div className={cn('grid max-w-[85%] min-w-0 gap-1 sm:max-w-[75%]', own ? 'justify-items-end' : 'justify-items-start')}>
        <div className="flex items-baseline gap-2">
          <span className="text-sm font-semibold text-night-800">{name}</span>
          {/* by the sender's id, which no member has: a name alone can be anyone's */}
          {message.senderId === STUDY_TEAM_ID ? (
            <span className="rounded-full bg-night-700 px-2 py-0.5 text-xs font-semibold text-white">Study team</span>
          ) : null}
          {time}
        </div>
        <p
          dir="auto"
          className={cn(
            'rounded-2xl px-4 py-2.5 text-base [overflow-wrap:anywhere] whitespace-pre-wrap',
            own ? 'rounded-tr-md bg-night-700 text-white' : 'rounded-tl-md border border-night-100 bg-white text-night-950',
          )}
        >
          {message.body}
        </p>
      </div>
    </li>
  );
});
