import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type AccountDeletionEvent, type AccountDeletionState, type DeletedBy } from './account-deletion.ts';

/** The caller has checked that the user exists and listed her active sessions (in the same transaction). */
export type DeleteAccount = {
  type: 'DeleteAccount';
  data: { userId: string; activeSessionIds: string[]; deletedBy: DeletedBy; now: Date };
};
export type AccountDeletionCommand = DeleteAccount;

export class AccountAlreadyDeleted extends Error {
  override name = 'AccountAlreadyDeleted';
}

/** Every active session is revoked first, then the user is deleted. */
export function deleteAccount(command: DeleteAccount, state: AccountDeletionState): AccountDeletionEvent[] {
  if (state.status === 'deleted') throw new AccountAlreadyDeleted('This account has already been deleted');
  const { userId, activeSessionIds, deletedBy, now } = command.data;
  const at = now.toISOString();
  return [
    ...activeSessionIds.map((sessionId): AccountDeletionEvent => ({
      type: 'SessionRevoked',
      data: { sessionId, userId, reason: 'account_deleted', revokedAt: at },
    })),
    { type: 'UserDeleted', data: { userId, deletedBy, deletedAt: at } },
  ];
}

/** One command so far; a second one gets a switch with an exhaustive check. */
export function decide(command: AccountDeletionCommand, state: AccountDeletionState): AccountDeletionEvent[] {
  return deleteAccount(command, state);
}

export const accountDeletionDecider: Decider<AccountDeletionCommand, AccountDeletionState, AccountDeletionEvent> = {
  decide,
  evolve,
  initialState,
};
