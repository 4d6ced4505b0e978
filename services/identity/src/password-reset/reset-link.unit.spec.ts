import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, expect, it } from 'vitest';
import type { PasswordResetRequested } from '../users/user.ts';
import { linkOf, ResetLinkExists, resetLinkDecider, resetLinkStreamId } from './reset-link.ts';

const now = new Date('2026-12-06T10:00:00.000Z');
const userId = '6f1c2a52-3c1e-4a53-9a0e-0a7c7c1d2f11';
const tokenId = 'a1b2c3d4-0000-4000-8000-00000000000a';
const request = {
  type: 'RequestPasswordReset' as const,
  data: { userId, tokenId, tokenHash: 'hash-a', ttlMinutes: 60, passwordVersion: 3, now },
};
const requested: PasswordResetRequested = {
  type: 'PasswordResetRequested',
  data: { userId, tokenId, tokenHash: 'hash-a', requestedAt: now.toISOString(), expiresAt: '2026-12-06T11:00:00.000Z', passwordVersion: 3 },
};
const spec = deciderSpec(resetLinkDecider);

describe('reset link decider', () => {
  it('records a link valid for 60 minutes, by hash only, under her password version, in a stream of its own', () => {
    const state = spec.given([]).when(request).then([requested]);
    expect(linkOf(state)).toEqual({ userId, tokenId, tokenHash: 'hash-a', expiresAt: '2026-12-06T11:00:00.000Z', passwordVersion: 3 });
    expect(resetLinkStreamId(tokenId)).toBe(`password_reset:${tokenId}`);
  });

  it('records a link once', () => {
    spec.given([requested]).when(request).thenThrows(ResetLinkExists);
  });

  it('has no link before one is recorded', () => {
    expect(linkOf(resetLinkDecider.initialState())).toBeNull();
  });
});
