import type { DomainEvent } from '@sleepweave/event-store';

export const threadStreamId = (threadId: string) => `thread:${threadId}`;

/**
 * A thread's own stream holds its creation and what the study team posted in it (the
 * welcome message): who created it is recorded in her membership stream
 * (memberships/membership.ts), so deleting her streams leaves nothing of hers here
 * (docs/community.md, "Deleting a user"). The team is no member: its messages belong to
 * the thread.
 */
export type ThreadCreated = DomainEvent<
  'ThreadCreated',
  { threadId: string; name: string; isDirect: boolean; pinned: boolean; createdAt: string }
>;
/** A message of the study team (STUDY_TEAM_ID); plain text like every message. */
export type TeamMessagePosted = DomainEvent<
  'TeamMessagePosted',
  { messageId: string; threadId: string; senderId: string; body: string; postedAt: string }
>;

export type ThreadEvent = ThreadCreated | TeamMessagePosted;

export type ThreadState =
  | { status: 'none' }
  | { status: 'open'; threadId: string; name: string; isDirect: boolean; pinned: boolean; teamMessageIds: readonly string[] };

export const initialState = (): ThreadState => ({ status: 'none' });

export function evolve(state: ThreadState, event: ThreadEvent): ThreadState {
  switch (event.type) {
    case 'ThreadCreated': {
      const { threadId, name, isDirect, pinned } = event.data;
      return { status: 'open', threadId, name, isDirect, pinned, teamMessageIds: [] };
    }
    case 'TeamMessagePosted':
      return state.status === 'open' ? { ...state, teamMessageIds: [...state.teamMessageIds, event.data.messageId] } : state;
    default:
      return state;
  }
}
