import type { DomainEvent } from '@sleepweave/event-store';
import type { SessionRevoked } from '../sessions/session.ts';

/**
 * What stays of a deleted account: this stream, with ids and times only (no e-mail, name,
 * hash or date of birth). Her `user:` and `session:` streams are deleted in the same
 * transaction that appends here; the relay then publishes these events
 * (`identity.session.revoked` for each session that was active, then `identity.user.deleted`).
 */
export const accountDeletionStreamId = (userId: string) => `account_deletion:${userId}`;

export type DeletedBy = 'self' | 'admin';

export type UserDeleted = DomainEvent<'UserDeleted', { userId: string; deletedBy: DeletedBy; deletedAt: string }>;

/** SessionRevoked (reason account_deleted) is the sessions' own event type, recorded here. */
export type AccountDeletionEvent = SessionRevoked | UserDeleted;

export type AccountDeletionState = { status: 'none' } | { status: 'deleted'; userId: string };

export const initialState = (): AccountDeletionState => ({ status: 'none' });

export function evolve(state: AccountDeletionState, event: AccountDeletionEvent): AccountDeletionState {
  switch (event.type) {
    case 'UserDeleted':
      return { status: 'deleted', userId: event.data.userId };
    default:
      return state;
  }
}
