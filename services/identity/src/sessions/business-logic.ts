import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type RevokeReason, type SessionEvent, type SessionState } from './session.ts';

export type StartSession = {
  type: 'StartSession';
  data: { sessionId: string; userId: string; refreshTokenHash: string; now: Date; ttlDays: number };
};
export type RevokeSession = { type: 'RevokeSession'; data: { sessionId: string; reason: RevokeReason; now: Date } };
export type SessionCommand = StartSession | RevokeSession;

export class SessionAlreadyStarted extends Error {
  override name = 'SessionAlreadyStarted';
}

export function start(command: StartSession, state: SessionState): SessionEvent[] {
  if (state.status !== 'none') throw new SessionAlreadyStarted('This session already exists');
  const { sessionId, userId, refreshTokenHash, now, ttlDays } = command.data;
  const expiresAt = new Date(now.getTime() + ttlDays * 86_400_000).toISOString();
  return [{ type: 'SessionStarted', data: { sessionId, userId, refreshTokenHash, startedAt: now.toISOString(), expiresAt } }];
}

/** Revoking is idempotent: an unknown or already revoked session yields nothing. */
export function revoke(command: RevokeSession, state: SessionState): SessionEvent[] {
  if (state.status !== 'active') return [];
  const { reason, now } = command.data;
  return [{ type: 'SessionRevoked', data: { sessionId: state.sessionId, userId: state.userId, reason, revokedAt: now.toISOString() } }];
}

export function decide(command: SessionCommand, state: SessionState): SessionEvent[] {
  switch (command.type) {
    case 'StartSession':
      return start(command, state);
    case 'RevokeSession':
      return revoke(command, state);
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

export const sessionDecider: Decider<SessionCommand, SessionState, SessionEvent> = { decide, evolve, initialState };
