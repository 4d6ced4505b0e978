import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, expect, it } from 'vitest';
import type { AccountDeletionEvent } from './account-deletion.ts';
import { AccountAlreadyDeleted, accountDeletionDecider } from './business-logic.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const userId = '6f1c2a52-3c1e-4a53-9a0e-0a7c7c1d2f11';
const sessions = ['b8e0f7a4-2f57-4c47-9a61-9d5d1f1e2a10', 'c1d2e3f4-2f57-4c47-9a61-9d5d1f1e2a11'];
const spec = deciderSpec(accountDeletionDecider);

const deleteAccount = (activeSessionIds: string[]) => ({
  type: 'DeleteAccount' as const,
  data: { userId, activeSessionIds, deletedBy: 'self' as const, now },
});
const deleted: AccountDeletionEvent = { type: 'UserDeleted', data: { userId, deletedBy: 'self', deletedAt: now.toISOString() } };

describe('account deletion decider', () => {
  it('revokes every active session, then deletes the user', () => {
    spec
      .given([])
      .when(deleteAccount(sessions))
      .then([
        { type: 'SessionRevoked', data: { sessionId: sessions[0]!, userId, reason: 'account_deleted', revokedAt: now.toISOString() } },
        { type: 'SessionRevoked', data: { sessionId: sessions[1]!, userId, reason: 'account_deleted', revokedAt: now.toISOString() } },
        deleted,
      ]);
  });

  it('deletes a user without active sessions', () => {
    spec.given([]).when(deleteAccount([])).then([deleted]);
  });

  it('keeps no personal data in what it records', () => {
    const events = accountDeletionDecider.decide(deleteAccount(sessions), accountDeletionDecider.initialState());
    const keys = events.flatMap((event) => Object.keys(event.data)).sort();
    expect([...new Set(keys)]).toEqual(['deletedAt', 'deletedBy', 'reason', 'revokedAt', 'sessionId', 'userId']);
  });

  it('refuses to delete the same account twice', () => {
    spec.given([deleted]).when(deleteAccount([])).thenThrows(AccountAlreadyDeleted);
  });
});
