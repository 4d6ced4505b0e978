/**
 * Ended sessions go a day after their end, with their streams and retired tokens
 * (retention.ts): the tables and the event store no longer grow with every renewal ever made.
 */
import { internalHeaders } from '@sleepweave/service-kit';
import { explainAnalyze, holdStreamLock, totalRowsRead, untilBlocked } from '@sleepweave/service-kit/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { register, startIdentity, type Identity } from '../test/helpers.ts';
import { deleteUser } from '../account-deletion/commands.ts';
import { openSession, refreshSession, revokeSession } from './commands.ts';
import { startRetention } from '../retention.ts';
import { ENDED_SESSION_KEPT_MS, endedSessions, removeEndedSessions } from './retention.ts';
import { sessionStreamId } from './session.ts';
import { sessionsProjection } from './projections.ts';
import { rebuildProjection } from '@sleepweave/event-store';

const DAY_MS = 24 * 60 * 60_000;
let identity: Identity;
beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(async () => {
  await identity?.cleanup();
});

/** A session of hers started `daysAgo` days ago and renewed `renewals` times an hour apart; its current refresh token. */
async function oldSession(userId: string, daysAgo: number, renewals: number): Promise<{ sessionId: string; token: string }> {
  const started = new Date(Date.now() - daysAgo * DAY_MS);
  const session = await openSession(identity.context, { id: userId, role: 'participant' }, {}, started);
  let token = session.refreshToken;
  for (let i = 1; i <= renewals; i += 1) {
    const outcome = await refreshSession(identity.context, token, {}, { rotate: true, now: new Date(started.getTime() + i * 3_600_000) });
    if (outcome.kind !== 'rotated') throw new Error(`renewal ${i}: ${outcome.kind}`);
    token = outcome.refreshToken;
  }
  return { sessionId: session.sessionId, token };
}

/** What identity holds of a session: its events, its row, its retired tokens. */
async function held(sessionId: string) {
  const { sql } = identity.deps;
  const [row] = await sql<{ events: number; rows: number; retired: number }[]>`
    select (select count(*)::int from events where stream_id = ${sessionStreamId(sessionId)}) as events,
           (select count(*)::int from sessions where id = ${sessionId}) as rows,
           (select count(*)::int from session_retired_tokens where session_id = ${sessionId}) as retired`;
  return row!;
}

/**
 * The removal of ended sessions, started and stopped at the stream of `sessionId` (its lock
 * held by the test), holding that session's row; `release` lets it go on.
 */
async function removalHeldAt(sessionId: string) {
  const stream = await holdStreamLock(identity.deps.sql, sessionStreamId(sessionId));
  const removal = removeEndedSessions(identity.context, new Date());
  await untilBlocked(identity.deps.sql);
  return { removal, release: () => stream.release() };
}

const refresh = (refreshToken: string) =>
  identity.app.inject({
    method: 'POST',
    url: '/internal/session/refresh',
    payload: { refreshToken },
    headers: internalHeaders(identity.deps.config.INTERNAL_TOKEN),
  });

it('removes a session a day after it expired or was revoked, with its stream and retired tokens; a live one stays', async () => {
  const { user, refresh: live } = await register(identity);
  // expired 10 days ago (30-day sessions), after 3 renewals
  const expired = await oldSession(user.id, 40, 3);
  // revoked now, and revoked 2 days ago
  const revokedNow = await oldSession(user.id, 5, 1);
  await revokeSession(identity.context, revokedNow.sessionId, 'logout', {});
  const revokedBefore = await oldSession(user.id, 6, 2);
  await revokeSession(identity.context, revokedBefore.sessionId, 'logout', {}, new Date(Date.now() - 2 * DAY_MS));
  expect(await held(expired.sessionId)).toEqual({ events: 4, rows: 1, retired: 3 });

  expect(await removeEndedSessions(identity.context, new Date())).toBeGreaterThanOrEqual(2);
  expect(await held(expired.sessionId)).toEqual({ events: 0, rows: 0, retired: 0 });
  expect(await held(revokedBefore.sessionId)).toEqual({ events: 0, rows: 0, retired: 0 });
  // within its day
  expect(await held(revokedNow.sessionId)).toEqual({ events: 3, rows: 1, retired: 1 });
  // its tokens are refused as before
  expect((await refresh(expired.token)).statusCode).toBe(401);
  expect((await refresh(revokedNow.token)).statusCode).toBe(401);

  await removeEndedSessions(identity.context, new Date(Date.now() + ENDED_SESSION_KEPT_MS + 60_000));
  expect(await held(revokedNow.sessionId)).toEqual({ events: 0, rows: 0, retired: 0 });
  expect((await refresh(revokedNow.token)).statusCode).toBe(401);
  // her live session is untouched and renews
  expect((await refresh(live)).statusCode).toBe(200);
});

it('finds the ended sessions along their index, not among the live ones', async () => {
  const { sql } = identity.deps;
  await sql`
    insert into sessions (id, user_id, refresh_token_hash, started_at, expires_at)
    select gen_random_uuid(), gen_random_uuid(), 'live-' || i, now(), now() + interval '30 days'
    from generate_series(1, 3000) i`;
  await sql`analyze sessions`;
  try {
    const plan = await explainAnalyze(sql, endedSessions(sql, new Date(Date.now() - ENDED_SESSION_KEPT_MS)));
    expect(totalRowsRead(plan)).toBeLessThanOrEqual(50);
  } finally {
    await sql`delete from sessions where refresh_token_hash like 'live-%'`;
  }
});

it('removes them in the background, round after round', async () => {
  const { user } = await register(identity);
  const expired = await oldSession(user.id, 35, 1);
  const retention = startRetention(identity.context, { everyMs: 50 });
  try {
    await expect.poll(async () => (await held(expired.sessionId)).rows, { timeout: 5_000 }).toBe(0);
    const later = await oldSession(user.id, 33, 0);
    await expect.poll(async () => (await held(later.sessionId)).events, { timeout: 5_000 }).toBe(0);
  } finally {
    await retention.stop();
  }
});

it("takes turns with her account's deletion without a deadlock: the sessions' rows, then their tokens, in both", async () => {
  const { user } = await register(identity);
  const ended = await oldSession(user.id, 40, 2);
  const { removal, release } = await removalHeldAt(ended.sessionId);
  // her deletion now waits for that row (a deletion that took her tokens' rows first was
  // then waited for by the removal: PostgreSQL failed the deletion, which ran again)
  const { store } = identity.context;
  const transaction = store.transaction;
  let attempts = 0;
  store.transaction = (work) => {
    attempts += 1;
    return transaction(work);
  };
  try {
    const deletion = deleteUser(identity.context, user.id, 'self', {});
    await untilBlocked(identity.deps.sql, { waiting: 2 });
    await release();
    expect(await deletion).toBe('deleted');
    expect(await removal).toBeGreaterThanOrEqual(1);
  } finally {
    store.transaction = transaction;
  }
  expect(attempts).toBe(1);
  expect(await held(ended.sessionId)).toEqual({ events: 0, rows: 0, retired: 0 });
});

it('takes turns with a rebuild of the sessions without a deadlock: the events table first, in both', async () => {
  const { sql } = identity.deps;
  const { user } = await register(identity);
  const ended = await oldSession(user.id, 40, 1);
  const { removal, release } = await removalHeldAt(ended.sessionId);
  // the rebuild waits for the removal (one that took the events table's lock before the
  // removal deleted its streams, and then waited to empty `sessions`, deadlocked with it)
  const rebuild = rebuildProjection(sql, sessionsProjection);
  await untilBlocked(sql, { waiting: 2 });
  await release();
  expect(await removal).toBeGreaterThanOrEqual(1);
  expect(await rebuild).toBeGreaterThan(0);
  expect(await held(ended.sessionId)).toEqual({ events: 0, rows: 0, retired: 0 });
});

it("deletes an account's revoked sessions without a lock each (scripted sign-ins past her limit leave many for a day)", async () => {
  const { sql } = identity.deps;
  const { user } = await register(identity);
  // 150 sign-ins: the limit of 100 revoked her 51 oldest (the registration's among them)
  for (let i = 0; i < 150; i++) await openSession(identity.context, { id: user.id, role: 'participant' }, {});
  const [counts] = await sql<{ revoked: number; open: number }[]>`
    select count(*) filter (where revoked_at is not null)::int as revoked, count(*) filter (where revoked_at is null)::int as open
    from sessions where user_id = ${user.id}`;
  expect(counts).toEqual({ revoked: 51, open: 100 });
  // the deletion stops at its last step (her address's counters), holding all its locks
  const email = (await sql<{ email: string }[]>`select email from users where id = ${user.id}`)[0]!.email;
  await sql`insert into login_failures (email, client, failed_at) values (${email}, 'test', now())`;
  let letGo!: () => void;
  const held = new Promise<void>((resolve) => (letGo = resolve));
  let holding!: () => void;
  const isHeld = new Promise<void>((resolve) => (holding = resolve));
  const holder = sql.begin(async (tx) => {
    await tx`select 1 from login_failures where email = ${email} for update`;
    holding();
    await held;
  });
  await isHeld;
  const deletion = deleteUser(identity.context, user.id, 'self', {});
  try {
    await untilBlocked(sql);
    const [locks] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_locks l
      where l.locktype = 'advisory' and l.granted
        and l.pid = (select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' limit 1)`;
    // her open sessions' streams, her user stream and the deletion's own: not the revoked ones
    expect(locks!.n).toBeGreaterThanOrEqual(100);
    expect(locks!.n).toBeLessThan(110);
  } finally {
    letGo();
    await holder;
  }
  expect(await deletion).toBe('deleted');
  const [left] = await sql<{ n: number }[]>`select count(*)::int as n from sessions where user_id = ${user.id}`;
  expect(left!.n).toBe(0);
});
