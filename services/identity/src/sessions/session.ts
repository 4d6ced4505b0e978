import type { DomainEvent, Recorded } from '@sleepweave/event-store';

export const sessionStreamId = (sessionId: string) => `session:${sessionId}`;

/**
 * A retired refresh token is still taken for this long after it was replaced: requests the
 * browser sent at the same moment with the same cookie (no new refresh token for them).
 */
export const REFRESH_GRACE_MS = 30_000;
/**
 * A retired token is kept in the state this long after the session's last refresh (twice
 * the grace: clocks of two instances a little apart); one retired before can no longer be
 * taken, and is refused as one never seen would be. The state stays a few tokens however
 * long the session: it held every token the session ever had, each refresh copying them all.
 */
const RETIRED_KEPT_MS = 2 * REFRESH_GRACE_MS;
/**
 * How long after a renewal the token it replaced is taken again while the new one was
 * never presented (its answer lost: a request she left, a time-out): her next request
 * renews at once (the access token was lost too), so minutes. Longer, it would hand the
 * session to whoever copied that token before, for as long as she stays away (30 days).
 */
export const LOST_ANSWER_WINDOW_MS = 15 * 60_000;

/**
 * An access token given for a retired refresh token (within the grace) lives this long at
 * most. Her browser may still hold that retired token (the answer that carried its
 * replacement was lost), and its next renewal must come within LOST_ANSWER_WINDOW_MS, where
 * the token is replaced, not taken for a stolen copy: with a whole access token's 15 minutes
 * it came after the window, and her session ended as stolen. A browser that got the
 * replacement renews with that one, a minute later than it would have.
 */
export const RETIRED_TOKEN_ACCESS_MS = 60_000;

export type RevokeReason =
  | 'logout'
  | 'password_reset'
  | 'password_changed'
  | 'account_deleted'
  | 'admin'
  | 'refresh_token_reused'
  /** Her oldest session, when a sign-in made one more than MAX_SESSIONS_PER_USER. */
  | 'session_limit';

/**
 * Sessions of one user at once, at most: a sign-in past it ends her oldest. What touches
 * all of them in one transaction (a password change or reset, her account's deletion, each
 * session's stream locked) stays bounded; scripted sign-ins made thousands.
 */
export const MAX_SESSIONS_PER_USER = 100;

export type SessionStarted = DomainEvent<
  'SessionStarted',
  { sessionId: string; userId: string; refreshTokenHash: string; startedAt: string; expiresAt: string }
>;
/**
 * Her refresh token was used: a new one replaces it (the old one is retired).
 * `abandonedTokenHash`: the session's current token, given up because the one before it
 * was presented again before it ever was (the answer that carried it never reached her).
 */
export type SessionRefreshed = DomainEvent<
  'SessionRefreshed',
  {
    sessionId: string;
    userId: string;
    refreshTokenHash: string;
    retiredTokenHash: string;
    refreshedAt: string;
    abandonedTokenHash?: string;
  }
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
      /**
       * The token the current one replaced (null before the first renewal). Presented while
       * the current one never was, within LOST_ANSWER_WINDOW_MS, it is taken again: the
       * answer that carried the current one was lost (docs/decisions.md).
       */
      previousTokenHash: string | null;
      /** When the current token replaced the previous one (null before the first renewal). */
      refreshedAt: string | null;
      /** Retired hashes and when each was retired. */
      retired: ReadonlyMap<string, string>;
    }
  | { status: 'revoked'; sessionId: string; userId: string };

export const initialState = (): SessionState => ({ status: 'none' });

/** When a session event happened, by its own stamp. */
function happenedAt(event: Recorded<SessionEvent>): number {
  switch (event.type) {
    case 'SessionStarted':
      return Date.parse(event.data.startedAt);
    case 'SessionRefreshed':
      return Date.parse(event.data.refreshedAt);
    case 'SessionRevoked':
      return Date.parse(event.data.revokedAt);
  }
}

/** Clocks of two identity instances may be this far apart (stamps are each instance's). */
const CLOCK_SKEW_MS = 60_000;

/**
 * The end of a session's stream holds all its state depends on (Decider.tailCovers) when
 * its oldest event read is older than what the newest renewal keeps: the state is its first
 * event (SessionStarted), its last renewal (the current and previous tokens) and the tokens
 * retired within RETIRED_KEPT_MS of that renewal, or a revocation, its last event. Every
 * renewal read and folded the whole stream: a session renewed every 15 minutes holds 2,880
 * events after its 30 days, and one renewed in a loop (a client that never keeps its access
 * token) made each renewal slower than the one before, without bound.
 */
export function sessionTailCovers(oldest: Recorded<SessionEvent>, newest: Recorded<SessionEvent>): boolean {
  return happenedAt(newest) - happenedAt(oldest) > RETIRED_KEPT_MS + CLOCK_SKEW_MS;
}

export function evolve(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'SessionStarted': {
      const { sessionId, userId, expiresAt, refreshTokenHash } = event.data;
      return {
        status: 'active',
        sessionId,
        userId,
        expiresAt,
        refreshTokenHash,
        previousTokenHash: null,
        refreshedAt: null,
        retired: new Map(),
      };
    }
    case 'SessionRefreshed': {
      if (state.status !== 'active') return state;
      const { refreshTokenHash, retiredTokenHash, refreshedAt, abandonedTokenHash } = event.data;
      const keptFrom = Date.parse(refreshedAt) - RETIRED_KEPT_MS;
      const retired = new Map([...state.retired].filter(([, at]) => Date.parse(at) >= keptFrom));
      retired.set(retiredTokenHash, refreshedAt);
      if (abandonedTokenHash) retired.set(abandonedTokenHash, refreshedAt);
      return { ...state, refreshTokenHash, previousTokenHash: retiredTokenHash, refreshedAt, retired };
    }
    case 'SessionRevoked':
      return state.status === 'none' ? state : { status: 'revoked', sessionId: state.sessionId, userId: state.userId };
    default:
      return state;
  }
}
