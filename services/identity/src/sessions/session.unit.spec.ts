import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, expect, it } from 'vitest';
import { SessionAlreadyStarted, SessionNotActive, sessionDecider } from './business-logic.ts';
import type { Recorded } from '@sleepweave/event-store';
import { sessionTailCovers, type SessionEvent } from './session.ts';

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

describe('refresh-token rotation', () => {
  const sessionId = '3f0c2b1a-9d8e-4f7a-b6c5-d4e3f2a1b0c9';
  const userId = '9b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e6f';
  const at = (iso: string) => new Date(iso);
  const started: SessionEvent = {
    type: 'SessionStarted',
    data: { sessionId, userId, refreshTokenHash: 'h1', startedAt: '2026-11-01T00:00:00.000Z', expiresAt: '2026-12-01T00:00:00.000Z' },
  };
  const rotated: SessionEvent = {
    type: 'SessionRefreshed',
    data: { sessionId, userId, refreshTokenHash: 'h2', retiredTokenHash: 'h1', refreshedAt: '2026-11-02T10:00:00.000Z' },
  };
  const refresh = (presentedHash: string, now: string, newRefreshTokenHash: string | null = 'hN') =>
    ({ type: 'RefreshSession', data: { sessionId, presentedHash, newRefreshTokenHash, now: at(now) } }) as const;
  const spec = deciderSpec(sessionDecider);

  it('replaces the current token, and retires it', () => {
    spec
      .given([started])
      .when(refresh('h1', '2026-11-02T10:00:00.000Z', 'h2'))
      .then([rotated]);
  });

  it('keeps the token when no rotation is asked for', () => {
    spec
      .given([started])
      .when(refresh('h1', '2026-11-02T10:00:00.000Z', null))
      .then([]);
  });

  it('takes a token retired within the grace period without a new one, and ends the session after it once its successor was used', () => {
    spec.given([started, rotated]).when(refresh('h1', '2026-11-02T10:00:20.000Z')).then([]);
    // h2 was presented (and replaced by h3): h1 now is a copy in other hands
    const rotatedAgain: SessionEvent = {
      type: 'SessionRefreshed',
      data: { sessionId, userId, refreshTokenHash: 'h3', retiredTokenHash: 'h2', refreshedAt: '2026-11-02T10:00:40.000Z' },
    };
    spec
      .given([started, rotated, rotatedAgain])
      .when(refresh('h1', '2026-11-02T10:01:00.000Z'))
      .then([
        {
          type: 'SessionRevoked',
          data: { sessionId, userId, reason: 'refresh_token_reused', revokedAt: '2026-11-02T10:01:00.000Z' },
        },
      ]);
  });

  it('replaces again the token before the current one while the current one was never presented (its answer lost), giving the current one up', () => {
    const relost: SessionEvent = {
      type: 'SessionRefreshed',
      data: {
        sessionId,
        userId,
        refreshTokenHash: 'hN',
        retiredTokenHash: 'h1',
        refreshedAt: '2026-11-02T10:10:00.000Z',
        abandonedTokenHash: 'h2',
      },
    };
    spec.given([started, rotated]).when(refresh('h1', '2026-11-02T10:10:00.000Z')).then([relost]);
    // no rotation asked (a WebSocket's renewal): an access token only
    spec
      .given([started, rotated])
      .when(refresh('h1', '2026-11-02T10:10:00.000Z', null))
      .then([]);
    // the one given up, if it comes after all (a copy was in other hands): within the grace nothing new, after it the end
    spec.given([started, rotated, relost]).when(refresh('h2', '2026-11-02T10:10:10.000Z')).then([]);
    spec
      .given([started, rotated, relost])
      .when(refresh('h2', '2026-11-02T10:15:00.000Z'))
      .then([
        { type: 'SessionRevoked', data: { sessionId, userId, reason: 'refresh_token_reused', revokedAt: '2026-11-02T10:15:00.000Z' } },
      ]);
    // and h1, whose successor is lost again, is taken again
    spec
      .given([started, rotated, relost])
      .when(refresh('h1', '2026-11-02T10:20:00.000Z', 'hM'))
      .then([
        {
          type: 'SessionRefreshed',
          data: {
            sessionId,
            userId,
            refreshTokenHash: 'hM',
            retiredTokenHash: 'h1',
            refreshedAt: '2026-11-02T10:20:00.000Z',
            abandonedTokenHash: 'hN',
          },
        },
      ]);
  });

  it('takes the token before the current one again only within 15 minutes of the renewal: later it is a copy in other hands, and the session ends', () => {
    const reused = (at: string): SessionEvent => ({
      type: 'SessionRevoked',
      data: { sessionId, userId, reason: 'refresh_token_reused', revokedAt: at },
    });
    // rotated at 10:00; she has been away since, and a copy of h1 comes
    spec
      .given([started, rotated])
      .when(refresh('h1', '2026-11-02T10:15:01.000Z'))
      .then([reused('2026-11-02T10:15:01.000Z')]);
    // a WebSocket's renewal (no rotation) as well: no access token for it
    spec
      .given([started, rotated])
      .when(refresh('h1', '2026-11-02T13:00:00.000Z', null))
      .then([reused('2026-11-02T13:00:00.000Z')]);
  });

  it('ends the session for a token it never had, and refuses a revoked or expired one', () => {
    spec
      .given([started])
      .when(refresh('forged', '2026-11-02T10:00:00.000Z'))
      .then([
        { type: 'SessionRevoked', data: { sessionId, userId, reason: 'refresh_token_reused', revokedAt: '2026-11-02T10:00:00.000Z' } },
      ]);
    const revoked: SessionEvent = {
      type: 'SessionRevoked',
      data: { sessionId, userId, reason: 'logout', revokedAt: '2026-11-03T00:00:00.000Z' },
    };
    spec.given([started, revoked]).when(refresh('h1', '2026-11-04T00:00:00.000Z')).thenThrows(SessionNotActive);
    spec.given([started]).when(refresh('h1', '2026-12-02T00:00:00.000Z')).thenThrows(SessionNotActive);
  });

  it('keeps only the tokens retired lately: after four weeks of a refresh a minute, a refresh folds a few tokens, not 40,000', () => {
    // a refresh a minute for four weeks, and two in the last 10 s (tabs refreshing together)
    const events: SessionEvent[] = [started];
    const t0 = Date.parse('2026-11-01T00:00:00.000Z');
    const refreshedAt = (ms: number) => new Date(t0 + ms).toISOString();
    for (let i = 1; i <= 40_000; i++) {
      events.push({
        type: 'SessionRefreshed',
        data: { sessionId, userId, refreshTokenHash: `h${i + 1}`, retiredTokenHash: `h${i}`, refreshedAt: refreshedAt(i * 60_000) },
      });
    }
    const last = 40_000 * 60_000;
    events.push({
      type: 'SessionRefreshed',
      data: { sessionId, userId, refreshTokenHash: 'hB', retiredTokenHash: 'h40001', refreshedAt: refreshedAt(last + 5_000) },
    });
    events.push({
      type: 'SessionRefreshed',
      data: { sessionId, userId, refreshTokenHash: 'hC', retiredTokenHash: 'hB', refreshedAt: refreshedAt(last + 10_000) },
    });
    const state = events.reduce(sessionDecider.evolve, sessionDecider.initialState());
    expect(state.status === 'active' && [...state.retired.keys()]).toEqual(['h40000', 'h40001', 'hB']);
    // both tokens of the last 30 s still taken, an older one is reuse
    spec
      .given(events)
      .when(refresh('h40001', refreshedAt(last + 20_000)))
      .then([]);
    spec
      .given(events)
      .when(refresh('hB', refreshedAt(last + 20_000)))
      .then([]);
    spec
      .given(events)
      .when(refresh('h39999', refreshedAt(last + 20_000)))
      .then([
        {
          type: 'SessionRevoked',
          data: { sessionId, userId, reason: 'refresh_token_reused', revokedAt: refreshedAt(last + 20_000) },
        },
      ]);
  });
});

describe('a long session folds from its tail (sessionTailCovers)', () => {
  /** A recorded event at a stream position (the store's fields the fold does not read are left out). */
  const recorded = (event: SessionEvent, position: number) => ({ ...event, streamPosition: position }) as unknown as Recorded<SessionEvent>;
  const fold = (events: readonly SessionEvent[]) => events.reduce(sessionDecider.evolve, sessionDecider.initialState());

  it('gives the state the whole stream gives, wherever the tail it accepts begins', () => {
    // a month of renewals every 15 minutes, then bursts a second apart (a page's requests at once), and quiet again
    const events: SessionEvent[] = [started];
    let t = now.getTime();
    let token = 'abc';
    const renew = (ms: number, abandoned = false) => {
      t += ms;
      const next = `t${events.length}`;
      const data = { sessionId, userId, refreshTokenHash: next, retiredTokenHash: token, refreshedAt: new Date(t).toISOString() };
      events.push({ type: 'SessionRefreshed', data: abandoned ? { ...data, abandonedTokenHash: `lost${events.length}` } : data });
      token = next;
    };
    for (let i = 0; i < 300; i++) renew(15 * 60_000);
    for (let i = 0; i < 40; i++) renew(1_000, i % 7 === 0);
    for (let i = 0; i < 3; i++) renew(20_000);
    const whole = fold(events);
    const newest = recorded(events.at(-1)!, events.length);
    let accepted = 0;
    for (let from = 2; from < events.length; from++) {
      if (!sessionTailCovers(recorded(events[from - 1]!, from), newest)) continue;
      accepted += 1;
      expect(fold([events[0]!, ...events.slice(from - 1)]), `tail from position ${from}`).toEqual(whole);
    }
    // the tails it accepts start more than two minutes before the newest event: all but the last few
    expect(accepted).toBeGreaterThan(290);
    expect(sessionTailCovers(recorded(events.at(-3)!, events.length - 2), newest)).toBe(false);
    // and the state keeps the tokens retired in the last minute, a few, not the month's 343
    expect(whole.status === 'active' && whole.retired.size).toBe(4);
  });
});
