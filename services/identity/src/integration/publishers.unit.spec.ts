import type { RecordedEvent } from '@sleepweave/event-store';
import { describe, expect, it } from 'vitest';
import { toIntegration } from './publishers.ts';

const userId = '6f1c2a52-3c1e-4a53-9a0e-0a7c7c1d2f11';
const recorded = (type: string, data: Record<string, unknown>, streamId = `user:${userId}`): RecordedEvent => ({
  id: 'b8e0f7a4-2f57-4c47-9a61-9d5d1f1e2a10',
  streamId,
  streamPosition: 2,
  globalPosition: '7',
  transactionId: '700',
  type,
  data,
  metadata: { correlationId: 'c-1' },
  createdAt: new Date('2026-11-21T10:00:00.000Z'),
});

describe('toIntegration', () => {
  it('publishes the whole profile on ProfileUpdated', () => {
    const data = {
      userId,
      firstName: 'Maya',
      lastName: 'Berg',
      dateOfBirth: '1972-04-18',
      timezone: 'Europe/Paris',
      hormonalStage: 'Post menopause',
      profileImageUrl: null,
      updatedAt: '2026-11-21T10:00:00.000Z',
    };
    expect(toIntegration(recorded('ProfileUpdated', data))).toMatchObject({ type: 'identity.user.profile_updated', data });
  });

  it('publishes a deletion with ids and the time only: by the admin who asked (its actor), or by herself', () => {
    const adminId = '0b5a3f0e-8d1c-4a6e-9f2b-3c4d5e6f7a81';
    const deletion = (deletedBy: 'self' | 'admin', actor: string | null) =>
      toIntegration({
        ...recorded('UserDeleted', { userId, deletedBy, deletedAt: '2026-11-21T10:00:00.000Z' }, `account_deletion:${userId}`),
        metadata: { correlationId: 'c-1', userId: actor },
      });
    const byAdmin = deletion('admin', adminId);
    expect(byAdmin).toMatchObject({ type: 'identity.user.deleted', subject: `account_deletion:${userId}` });
    expect(byAdmin!.data).toEqual({ userId, deletedAt: '2026-11-21T10:00:00.000Z', via: 'admin', deletedBy: adminId });
    // the admin since deleted: her id was cleared from the metadata
    expect(deletion('admin', null)!.data).toEqual({ userId, deletedAt: '2026-11-21T10:00:00.000Z', via: 'admin', deletedBy: null });
    // herself: her own id is not repeated as the one who deleted
    expect(deletion('self', userId)!.data).toEqual({ userId, deletedAt: '2026-11-21T10:00:00.000Z', via: 'self', deletedBy: null });
  });

  it('keeps password changes and reset links private', () => {
    expect(toIntegration(recorded('PasswordChanged', { userId, passwordHash: 'h', changedAt: 'x' }))).toBeNull();
    expect(
      toIntegration(recorded('PasswordResetRequested', { userId, tokenId: 't', tokenHash: 'h', requestedAt: 'x', expiresAt: 'y' })),
    ).toBeNull();
    expect(toIntegration(recorded('PasswordReset', { userId, tokenId: 't', passwordHash: 'h', resetAt: 'x' }))).toBeNull();
  });
});
