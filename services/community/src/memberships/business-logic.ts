import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type MemberRole, type MembershipEvent, type MembershipState } from './membership.ts';

/** What the decider needs to know of the thread (read in the same transaction). */
export interface ThreadFacts {
  isDirect: boolean;
}

/** She opens a thread: a public one makes her a member; a direct one only lets members in. */
export type JoinThread = {
  type: 'JoinThread';
  /** `thread`: null when there is no such thread. */
  data: { threadId: string; userId: string; thread: ThreadFacts | null; now: Date };
};
/** Membership given when a thread is created (its creator; the members of a direct thread). */
export type AddMember = {
  type: 'AddMember';
  data: { threadId: string; userId: string; role: MemberRole; now: Date };
};
/** She writes in a thread; in a public thread writing also makes her a member. */
export type PostMessage = {
  type: 'PostMessage';
  data: { threadId: string; userId: string; thread: ThreadFacts | null; messageId: string; body: string; now: Date };
};
export type MembershipCommand = JoinThread | AddMember | PostMessage;

/** No such thread. */
export class ThreadNotFound extends Error {
  override name = 'ThreadNotFound';
}
/** Not a member of a direct thread: answered exactly like a missing thread (404). */
export class ThreadAccessDenied extends Error {
  override name = 'ThreadAccessDenied';
}

function joined(threadId: string, userId: string, role: MemberRole, now: Date): MembershipEvent {
  return { type: 'MemberJoined', data: { threadId, userId, role, joinedAt: now.toISOString() } };
}

export function joinThread(command: JoinThread, state: MembershipState): MembershipEvent[] {
  const { threadId, userId, thread, now } = command.data;
  if (!thread) throw new ThreadNotFound('No such thread');
  if (state.status === 'member') return [];
  if (thread.isDirect) throw new ThreadAccessDenied('Only its members may open a direct thread');
  return [joined(threadId, userId, 'member', now)];
}

export function addMember(command: AddMember, state: MembershipState): MembershipEvent[] {
  if (state.status === 'member') return [];
  const { threadId, userId, role, now } = command.data;
  return [joined(threadId, userId, role, now)];
}

export function postMessage(command: PostMessage, state: MembershipState): MembershipEvent[] {
  const { threadId, userId, thread, messageId, body, now } = command.data;
  if (!thread) throw new ThreadNotFound('No such thread');
  const events: MembershipEvent[] = [];
  if (state.status !== 'member') {
    if (thread.isDirect) throw new ThreadAccessDenied('Only its members may write in a direct thread');
    events.push(joined(threadId, userId, 'member', now));
  }
  events.push({ type: 'MessagePosted', data: { messageId, threadId, senderId: userId, body, postedAt: now.toISOString() } });
  return events;
}

export function decide(command: MembershipCommand, state: MembershipState): MembershipEvent[] {
  switch (command.type) {
    case 'JoinThread':
      return joinThread(command, state);
    case 'AddMember':
      return addMember(command, state);
    case 'PostMessage':
      return postMessage(command, state);
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

/**
 * Her state in a thread is her joining alone: her messages change nothing a command
 * decides on. So a command loads only `MemberJoined` (`evolvesOn`), and her 4,000th
 * message costs what her first did (docs/community.md, "Growth").
 */
export const membershipDecider: Decider<MembershipCommand, MembershipState, MembershipEvent> = {
  decide,
  evolve,
  initialState,
  evolvesOn: ['MemberJoined'],
};
