import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, it } from 'vitest';
import { SessionAlreadyStarted, sessionDecider } from './business-logic.ts';
import type { SessionEvent } from './session.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const sessionId = 'b8e0f7a4-2f57-4c47-9a61-9d5d1f1e2a10';
const userId = '6f1c2a52-3c1e-4a53-9a0e-0a7c7c1d2f11';
const start = { type: 'StartSession' as const, data: { sessionId, userId, refreshTokenHash: 'abc', now, ttlDays: 30 } };
const started: SessionEvent = {
  type: 'SessionStarted',
  data: { sessionId, userId, refreshTokenHash: 'abc', startedAt: now.toISOString(), expiresAt: '2026-12-21T10:00:00.000Z' },
};
const revoke = { type: 'RevokeSession' as const, data: { sessionId, reason: 'logout' as const, now } };
const revoked: SessionEvent = { type: 'SessionRevoked', data: { sessionId, userId, reason: 'logout', revokedAt: now.toISOString() } };

const spec = deciderSpec(sessionDecider);

describe('session decider', () => {
  it('starts a session that expires after its lifetime', () => {
    spec.given([]).when(start).then([started]);
  });

  it('refuses to start the same session twice', () => {
    spec.given([started]).when(start).thenThrows(SessionAlreadyStarted);
  });

  it('revokes an active session once; revoking again or an unknown session decides nothing', () => {
    spec.given([started]).when(revoke).then([revoked]);
    spec.given([started, revoked]).when(revoke).then([]);
    spec.given([]).when(revoke).then([]);
  });
});
