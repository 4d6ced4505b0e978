import type { Decider } from '@sleepweave/event-store';
import {
  evolve,
  initialState,
  sessionTailCovers,
  LOST_ANSWER_WINDOW_MS,
  REFRESH_GRACE_MS,
  type RevokeReason,
  type SessionEvent,
  type SessionState,
} from './session.ts';

export type StartSession = {
  type: 'StartSession';
  data: { sessionId: string; userId: string; refreshTokenHash: string; now: Date; ttlDays: number };
};
export type RevokeSession = { type: 'RevokeSession'; data: { sessionId: string; reason: RevokeReason; now: Date } };
/**
 * She presents a refresh token (its hash) for a new access token; `newRefreshTokenHash`
 * replaces it when it is the session's current one.
 */
export type RefreshSession = {
  type: 'RefreshSession';
  /** `newRefreshTokenHash` null: the current token stays (no rotation). */
  data: { sessionId: string; presentedHash: string; newRefreshTokenHash: string | null; now: Date };
};
export type SessionCommand = StartSession | RevokeSession | RefreshSession;

/** The session is over (revoked, expired, or ended now for a reused token). */
export class SessionNotActive extends Error {
  override name = 'SessionNotActive';
}

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

/**
 * Rotation with reuse detection: the current token is replaced by a new one; a retired
 * token within the grace period gets nothing new (the caller answers with an access token
 * only); the token just before the current one, while the current one was never presented,
 * within LOST_ANSWER_WINDOW_MS of the renewal, is replaced again (the answer that carried the
 * current one was lost: a request she abandoned, a time-out; the current one is given up);
 * any other retired token means a copy is in other hands: the session ends.
 */
export function refresh(command: RefreshSession, state: SessionState): SessionEvent[] {
  if (state.status !== 'active') throw new SessionNotActive('Your session has ended. Please sign in again.');
  const { presentedHash, newRefreshTokenHash, now } = command.data;
  if (state.expiresAt <= now.toISOString()) throw new SessionNotActive('Your session has ended. Please sign in again.');
  /** `presentedHash` replaced by the new token (none asked for: nothing), giving up `abandoned`. */
  const replaced = (abandoned?: string): SessionEvent[] =>
    newRefreshTokenHash === null
      ? []
      : [
          {
            type: 'SessionRefreshed',
            data: {
              sessionId: state.sessionId,
              userId: state.userId,
              refreshTokenHash: newRefreshTokenHash,
              retiredTokenHash: presentedHash,
              refreshedAt: now.toISOString(),
              ...(abandoned ? { abandonedTokenHash: abandoned } : {}),
            },
          },
        ];
  if (presentedHash === state.refreshTokenHash) return replaced();
  const retiredAt = state.retired.get(presentedHash);
  if (retiredAt !== undefined && now.getTime() - Date.parse(retiredAt) <= REFRESH_GRACE_MS) return [];
  const lostAnswer =
    presentedHash === state.previousTokenHash &&
    state.refreshedAt !== null &&
    now.getTime() - Date.parse(state.refreshedAt) <= LOST_ANSWER_WINDOW_MS;
  if (lostAnswer) return replaced(state.refreshTokenHash);
  return [
    {
      type: 'SessionRevoked',
      data: { sessionId: state.sessionId, userId: state.userId, reason: 'refresh_token_reused', revokedAt: now.toISOString() },
    },
  ];
}

export function decide(command: SessionCommand, state: SessionState): SessionEvent[] {
  switch (command.type) {
    case 'StartSession':
      return start(command, state);
    case 'RevokeSession':
      return revoke(command, state);
    case 'RefreshSession':
      return refresh(command, state);
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

export const sessionDecider: Decider<SessionCommand, SessionState, SessionEvent> = {
  decide,
  evolve,
  initialState,
  tailCovers: sessionTailCovers,
};
