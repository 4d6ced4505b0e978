import type { DomainEvent } from '@sleepweave/event-store';

export const sessionStreamId = (sessionId: string) => `session:${sessionId}`;

export type RevokeReason = 'logout' | 'password_reset' | 'password_changed' | 'account_deleted' | 'admin' | 'refresh_token_reused';

export type SessionStarted = DomainEvent<
  'SessionStarted',
  { sessionId: string; userId: string; refreshTokenHash: string; startedAt: string; expiresAt: string }
>;
/** Her refresh token was used: a new one replaces it (the old one is retired). */
export type SessionRefreshed = DomainEvent<
  'SessionRefreshed',
  { sessionId: string; userId: string; refreshTokenHash: string; retiredTokenHash: string; refreshedAt: string }
>;
export type SessionRevoked = DomainEvent<'SessionRevoked', { sessionId: string; userId: string; reason: RevokeReason; revokedAt: string }>;
export type SessionEvent = SessionStarted | SessionRefreshed | SessionRevoked;

export type SessionState =
  | { status: 'none' }
  | {
      status: 'active';
      sessionId: string;
      userId: string;
      expiresAt: string;
      refreshTokenHash: string;
      /** Retired hashes and when each was retired. */
      retired: ReadonlyMap<string, string>;
    }
  | { status: 'revoked'; sessionId: string; userId: string };

export const initialState = (): SessionState => ({ status: 'none' });

export function evolve(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'SessionStarted': {
      const { sessionId, userId, expiresAt, refreshTokenHash } = event.data;
      return { status: 'active', sessionId, userId, expiresAt, refreshTokenHash, retired: new Map() };
    }
    case 'SessionRefreshed':
      return state.status !== 'active'
        ? state
        : {
            ...state,
            refreshTokenHash: event.data.refreshTokenHash,
            retired: new Map([...state.retired, [event.data.retiredTokenHash, event.data.refreshedAt]]),
          };
    case 'SessionRevoked':
      return state.status === 'none' ? state : { status: 'revoked', sessionId: state.sessionId, userId: state.userId };
    default:
      return state;
  }
}
