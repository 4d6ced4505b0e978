import type { DomainEvent } from '@sleepweave/event-store';

export const threadStreamId = (threadId: string) => `thread:${threadId}`;

/**
 * A thread's own stream holds only its creation: who created it is recorded in her
 * membership stream (memberships/membership.ts), so deleting her streams leaves nothing
 * of hers here (docs/community.md, "Deleting a user").
 */
export type ThreadCreated = DomainEvent<
  'ThreadCreated',
  { threadId: string; name: string; isDirect: boolean; pinned: boolean; createdAt: string }
>;

export type ThreadEvent = ThreadCreated;

export type ThreadState = { status: 'none' } | { status: 'open'; threadId: string; name: string; isDirect: boolean; pinned: boolean };

export const initialState = (): ThreadState => ({ status: 'none' });

export function evolve(state: ThreadState, event: ThreadEvent): ThreadState {
  switch (event.type) {
    case 'ThreadCreated': {
      const { threadId, name, isDirect, pinned } = event.data;
      return { status: 'open', threadId, name, isDirect, pinned };
    }
    default:
      return state;
  }
}
