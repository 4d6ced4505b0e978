import type { DomainEvent } from '@sleepweave/event-store';

/**
 * One member in one thread: her joining and everything she wrote there. The user id
 * comes first so that deleting a user is one prefix (`member:<userId>:`).
 */
export const membershipStreamId = (userId: string, threadId: string) => `member:${userId}:${threadId}`;
export const membershipStreamPrefix = (userId: string) => `member:${userId}:`;

export type MemberRole = 'creator' | 'member';

export type MemberJoined = DomainEvent<'MemberJoined', { threadId: string; userId: string; role: MemberRole; joinedAt: string }>;
/** The body is plain text as she typed it (trimmed); it is never interpreted as HTML. */
export type MessagePosted = DomainEvent<
  'MessagePosted',
  { messageId: string; threadId: string; senderId: string; body: string; postedAt: string }
>;

export type MembershipEvent = MemberJoined | MessagePosted;

export type MembershipState = { status: 'none' } | { status: 'member'; threadId: string; userId: string; role: MemberRole };

export const initialState = (): MembershipState => ({ status: 'none' });

export function evolve(state: MembershipState, event: MembershipEvent): MembershipState {
  switch (event.type) {
    case 'MemberJoined':
      return { status: 'member', threadId: event.data.threadId, userId: event.data.userId, role: event.data.role };
    default:
      return state;
  }
}
