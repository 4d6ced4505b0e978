import { randomUUID } from 'node:crypto';
import { testEnvelope } from '@sleepweave/bus/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postMessage } from '../memberships/commands.ts';
import { addUser, createThread, deleteUser, startCommunity, type Community } from '../test/helpers.ts';
import { startDirectThread } from '../threads/commands.ts';
import { communityStats } from './queries.ts';

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
});
