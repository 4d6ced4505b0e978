import { randomUUID } from 'node:crypto';
import { testEnvelope } from '@sleepweave/bus/testing';
import type { Tx } from '@sleepweave/event-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postMessage } from '../memberships/commands.ts';
import { addUser, createThread, deleteUser, startCommunity, type Community } from '../test/helpers.ts';
import { startDirectThread } from '../threads/commands.ts';
import { untilBlocked } from '@sleepweave/service-kit/testing';
import { membershipsProjection } from '../memberships/projections.ts';
import { communityStats } from './queries.ts';
import { countStudyStart, moveActiveMember } from './rollups.ts';
import { onUserDeleted } from '../users/user-deleted.ts';

// This file has its own database: every number below is exactly what it made.
let community: Community;
beforeAll(async () => {
  community = await startCommunity();
});
afterAll(async () => {
  await community?.cleanup();
});

const now = new Date('2026-03-10T12:00:00.000Z');
const hoursBefore = (h: number) => new Date(now.getTime() - h * 3_600_000);
const daysBefore = (d: number) => hoursBefore(d * 24);

async function postAt(userId: string, threadId: string, at: Date) {
  await postMessage(community.context, { threadId, userId, messageId: randomUUID(), body: 'Slept better in linen', now: at }, {});
}

async function consent(userId: string, studyStartDate: string) {
  const envelope = testEnvelope('study.consent.given', {
    userId,
    consentVersion: '1.0',
    acceptedAt: new Date().toISOString(),
    studyStartDate,
  });
  await community.producers.publish(envelope);
  await expect
    .poll(async () => (await community.deps.sql`select 1 from inbox where event_id = ${envelope.id}`).length, { timeout: 5_000 })
    .toBe(1);
}

describe('Community Stats', () => {
  it('are computed from the data, with "today" in the viewer\'s timezone', async () => {
    const [a, b, c, d] = await Promise.all([addUser(community), addUser(community), addUser(community), addUser(community)]);
    const morning = await createThread(community, a, 'Morning light');
    const evening = await createThread(community, a, 'Evening routines');
    const direct = randomUUID();
    await startDirectThread(
      community.context,
      {
        threadId: direct,
        name: 'Private',
        creatorId: a.id,
        memberIds: [d.id],
        now: daysBefore(40),
      },
      {},
    );

    await postAt(a.id, morning.id, hoursBefore(1)); // today everywhere
    await postAt(b.id, evening.id, new Date('2026-03-10T03:00:00.000Z')); // today in London, yesterday in New York (UTC-4)
    await postAt(c.id, morning.id, daysBefore(29)); // active, not today
    await postAt(d.id, direct, daysBefore(31)); // too long ago to be active
    await postAt(d.id, direct, hoursBefore(2)); // a direct thread is no public discussion

    expect(await communityStats(community.deps.sql, { now, timezone: 'Europe/London' })).toEqual({
      activeMembers: 4,
      discussionsToday: 2,
      sleepStudiesShared: 0,
      timezone: 'Europe/London',
    });
    expect((await communityStats(community.deps.sql, { now, timezone: 'America/New_York' })).discussionsToday).toBe(1);
    // 29 days later c's message (then 58 days old) no longer counts; a's, b's and d's recent ones do
    expect((await communityStats(community.deps.sql, { now: daysBefore(-29), timezone: 'Europe/London' })).activeMembers).toBe(3);

    // The study: 42 days from the start date; day start + 42 is the first day after it.
    await consent(a.id, '2026-01-27'); // 2026-01-27 + 42 days = 2026-03-10: complete
    await consent(b.id, '2026-01-28'); // its last day is today: not yet complete
    await consent(c.id, '2025-06-01'); // long complete
    await consent(c.id, '2026-03-01'); // a second consent does not move her start
    // someone community does not know (yet): not counted; her consent waits for her registration
    await community.producers.publish(
      testEnvelope('study.consent.given', {
        userId: randomUUID(),
        consentVersion: '1.0',
        acceptedAt: new Date().toISOString(),
        studyStartDate: '2025-01-01',
      }),
    );
    expect((await communityStats(community.deps.sql, { now, timezone: 'Europe/London' })).sleepStudiesShared).toBe(2);
  });

  it("GET /api/community/stats answers the card in the viewer's timezone", async () => {
    const viewer = await addUser(community, { timezone: 'America/Denver' });
    const response = await community.app.inject({ method: 'GET', url: '/api/community/stats', headers: viewer.headers });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.timezone).toBe('America/Denver');
    expect(body).toEqual({ ...(await communityStats(community.deps.sql, { now: new Date(), timezone: 'America/Denver' })) });
    expect((await community.app.inject({ method: 'GET', url: '/api/community/stats' })).statusCode).toBe(401);
  });

  it('reads per-day rollups that always equal counting the members and participants themselves', async () => {
    const sql = community.deps.sql;
    /** The tiles counted from the rows themselves (what the rollups stand for). */
    const counted = async (at: Date, timezone: string) => {
      const [row] = await sql<{ active: number; shared: number }[]>`
        select
          (select count(*)::int from member_activity where last_posted_at > ${at}::timestamptz - interval '30 days') as active,
          (select count(*)::int from study_participants
            where study_start_date <= (${at}::timestamptz at time zone ${timezone})::date - 42) as shared`;
      return row!;
    };
    const expectEqual = async () => {
      for (const at of [now, daysBefore(-1), daysBefore(-29), new Date('2026-03-10T23:59:59.999Z'), hoursBefore(13)]) {
        for (const timezone of ['Europe/London', 'Europe/Paris', 'America/Los_Angeles'] as const) {
          const stats = await communityStats(sql, { now: at, timezone });
          const expected = await counted(at, timezone);
          expect([at.toISOString(), timezone, stats.activeMembers, stats.sleepStudiesShared]).toEqual([
            at.toISOString(),
            timezone,
            expected.active,
            expected.shared,
          ]);
        }
      }
    };
    const [e, f, g, h] = await Promise.all([addUser(community), addUser(community), addUser(community), addUser(community)]);
    const thread = await createThread(community, e, 'Cut-off day');
    // The day 30 days back (2026-02-08 UTC), cut at 12:00: before, after, at the day's last instant.
    await postAt(e.id, thread.id, new Date('2026-02-08T11:59:59.999Z'));
    await postAt(f.id, thread.id, new Date('2026-02-08T12:00:00.001Z'));
    await postAt(g.id, thread.id, new Date('2026-02-08T23:59:59.999Z'));
    await postAt(h.id, thread.id, new Date('2026-02-09T00:00:00.000Z'));
    await expectEqual();
    // A later post moves her to its day; an older one (a late event) does not move her back.
    await postAt(e.id, thread.id, hoursBefore(3));
    await postAt(f.id, thread.id, daysBefore(45));
    await consent(e.id, '2026-01-27');
    await consent(f.id, '2026-01-27');
    await consent(g.id, '2026-01-20');
    await expectEqual();
    const [ePosted] = await sql<{ day: string }[]>`
      select (last_posted_at at time zone 'UTC')::date::text as day from member_activity where user_id = ${e.id}`;
    expect(ePosted!.day).toBe('2026-03-10');

    // A deleted member leaves both rollups.
    await deleteUser(community, f.id);
    await expectEqual();
    // Every day row counts at least one (a day that reaches 0 goes), and they add up to the rows.
    const [sums] = await sql<{ members: number; activity: number; participants: number; starts: number; empty: number }[]>`
      select
        (select sum(members)::int from member_activity_days) as members,
        (select count(*)::int from member_activity) as activity,
        (select sum(participants)::int from study_start_days) as participants,
        (select count(*)::int from study_participants) as starts,
        (select count(*)::int from member_activity_days where members < 1)
          + (select count(*)::int from study_start_days where participants < 1) as empty`;
    expect(sums).toEqual({ members: sums!.activity, activity: sums!.activity, participants: sums!.starts, starts: sums!.starts, empty: 0 });
  });

  /** Runs `first` in a transaction held open until `second` waits for it, then lets both finish. */
  async function atOnce(first: (tx: Tx) => Promise<unknown>, second: () => Promise<unknown>) {
    const sql = community.deps.sql;
    let release!: () => void;
    let written!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const firstWritten = new Promise<void>((resolve) => (written = resolve));
    const one = sql.begin(async (tx) => {
      await first(tx as unknown as Tx);
      written();
      await held;
    });
    await firstWritten;
    const two = second();
    await untilBlocked(sql);
    release();
    await Promise.all([one, two]);
  }

  it('count a member once when her first two posts, in two threads, are written at once', async () => {
    const sql = community.deps.sql;
    const [her, other] = await Promise.all([addUser(community), addUser(community)]);
    const [one, two] = [await createThread(community, other, 'First of two'), await createThread(community, other, 'Second of two')];
    const membersOn = async (day: string) =>
      (await sql<{ members: number }[]>`select members from member_activity_days where day = ${day}`)[0]?.members ?? 0;
    const before = await membersOn('2026-03-10');
    // her first post's read models written and not committed, when her second arrives
    await atOnce(
      (tx) =>
        membershipsProjection.apply(tx, {
          type: 'MessagePosted',
          data: { threadId: one.id, senderId: her.id, messageId: randomUUID(), body: 'First', postedAt: hoursBefore(2).toISOString() },
        } as unknown as Parameters<typeof membershipsProjection.apply>[1]),
      () => postAt(her.id, two.id, hoursBefore(1)),
    );
    expect(await membersOn('2026-03-10')).toBe(before + 1);
    const [sums] = await sql<{ members: number; activity: number }[]>`
      select (select sum(members)::int from member_activity_days) as members, (select count(*)::int from member_activity) as activity`;
    expect(sums!.members).toBe(sums!.activity);
  });

  it("remove a day's row when its last two go at once", async () => {
    const sql = community.deps.sql;
    await sql`insert into member_activity_days (day, members) values ('2025-01-02', 2)`;
    await atOnce(
      (tx) => moveActiveMember(tx, '2025-01-02', null),
      () => sql.begin((tx) => moveActiveMember(tx as unknown as Tx, '2025-01-02', null)),
    );
    expect(await sql`select members from member_activity_days where day = '2025-01-02'`).toEqual([]);

    await sql`insert into study_start_days (start_date, participants) values ('2025-01-02', 2)`;
    await atOnce(
      (tx) => countStudyStart(tx, '2025-01-02', -1),
      () => sql.begin((tx) => countStudyStart(tx as unknown as Tx, '2025-01-02', -1)),
    );
    expect(await sql`select participants from study_start_days where start_date = '2025-01-02'`).toEqual([]);
  });

  it("runs a member's deletion and a post in a thread she was in at once, without a deadlock", async () => {
    const sql = community.deps.sql;
    const [her, poster] = await Promise.all([addUser(community), addUser(community)]);
    const thread = await createThread(community, poster, 'Shared by both');
    await postAt(her.id, thread.id, hoursBefore(1)); // her last post is today's: her deletion leaves today's row
    // a post in that thread has its turn (the thread's row); its read models come next
    let release!: () => void;
    let locked!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const threadLocked = new Promise<void>((resolve) => (locked = resolve));
    const post = sql.begin(async (tx) => {
      await tx`select id from message_threads where id = ${thread.id} for no key update`;
      locked();
      await held;
      await moveActiveMember(tx as unknown as Tx, null, '2026-03-10'); // its author's first post today
    });
    await threadLocked;
    // before, the deletion held today's row and then waited for the thread's, which the post
    // held while it waited for today's: PostgreSQL ended one of them as a deadlock
    const deletion = sql.begin((tx) => onUserDeleted(community.context, tx as unknown as Tx, her.id));
    await untilBlocked(sql);
    release();
    await Promise.all([post, deletion]);
    await sql.begin((tx) => moveActiveMember(tx as unknown as Tx, '2026-03-10', null)); // the post above had no author
  });
});
