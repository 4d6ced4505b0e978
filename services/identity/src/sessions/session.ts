import type { DomainEvent } from '@sleepweave/event-store';

export const sessionStreamId = (sessionId: string) => `session:${sessionId}`;

export type RevokeReason = 'logout' | 'password_reset' | 'password_changed' | 'account_deleted' | 'admin';

export type SessionStarted = DomainEvent<
  'SessionStarted',
  { sessionId: string; userId: string; refreshTokenHash: string; startedAt: string; expiresAt: string }
>;
export type SessionRevoked = DomainEvent<'SessionRevoked', { sessionId: string; userId: string; reason: RevokeReason; revokedAt: string }>;
export type SessionEvent = SessionStarted | SessionRevoked;

export type SessionState =
  | { status: 'none' }
  | { status: 'active'; sessionId: string; userId: string; expiresAt: string }
  | { status: 'revoked'; sessionId: string; userId: string };

export const initialState = (): SessionState => ({ status: 'none' });

export function evolve(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'SessionStarted':
      return { status: 'active', sessionId: event.data.sessionId, userId: event.data.userId, expiresAt: event.data.expiresAt };
    case 'SessionRevoked':
      return state.status === 'none' ? state : { status: 'revoked', sessionId: state.sessionId, userId: state.userId };
    default:
      return state;
  }
}
