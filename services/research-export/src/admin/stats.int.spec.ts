/**
 * The dashboard's tiles from the totals migration 007's triggers keep (docs/admin.md,
 * "Statistics"), checked against the count they replace (`counted`, the statement the tiles
 * ran before) after every kind of change the tables see: the consumers' statements (the
 * real ones), a deletion, a bulk insert, a rebuild's TRUNCATE and replay, and the fold.
 * Its own database: every total is what this file made.
 */
import { randomUUID } from 'node:crypto';
import { ACTIVE_USER_DAYS } from '@sleepweave/contracts';
import type { Sql } from '@sleepweave/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../test/helpers.ts';
import { refreshJournalActivity, refreshNightActivity } from './activity.ts';
import { adminStats, compactAdminTallies, foldAdminTallies } from './stats.ts';

let db: Awaited<ReturnType<typeof databaseBeforeMigration>>;
let sql: Sql;

const HOUR = 3_600_000;
const now = new Date('2026-03-10T12:00:00.000Z');
const hoursBefore = (h: number) => new Date(now.getTime() - h * HOUR);

beforeAll(async () => {
  db = await databaseBeforeMigration('admin_stats', '007', 4);
  sql = db.sql;
});
afterAll(async () => {
  await db?.drop();
});

/** The tiles as they were counted before migration 007: every user, night and entry. */
async function counted(at: Date) {
  const since = new Date(at.getTime() - ACTIVE_USER_DAYS * 24 * HOUR);
  const [row] = await sql<{ totalUsers: number; activeUsers: number; totalSleepLogs: number; totalJournalEntries: number }[]>`
    select
      (select count(*)::int from user_directory) as "totalUsers",
      (select count(*)::int from user_directory d
         left join admin_night_activity n on n.user_id = d.user_id
         left join admin_journal_activity j on j.user_id = d.user_id
       where n.last_recorded_at > ${since} or j.last_written_at > ${since}) as "activeUsers",
      (select coalesce(sum(nights), 0)::int from admin_night_activity) as "totalSleepLogs",
      (select coalesce(sum(entries), 0)::int from admin_journal_activity) as "totalJournalEntries"`;
  return { ...row!, activeDays: ACTIVE_USER_DAYS };
}

/** Statements of this database waiting for a lock. */
const waiting = async () =>
  (await sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`).length;

/** The tiles at `now` and at other times of the window's edges agree with the count. */
async function expectTilesCounted() {
  for (const at of [now, hoursBefore(30), hoursBefore(-20), new Date(now.getTime() + 6 * 24 * HOUR)]) {
    expect(await adminStats(sql, at), at.toISOString()).toEqual(await counted(at));
  }
}

async function addUser(userId = randomUUID()) {
  await sql`
    insert into user_directory (user_id, email, first_name, last_name, timezone, role, registered_at)
    values (${userId}, ${`${userId}@example.com`}, 'Ada', 'Tally', 'Europe/London', 'participant', ${now})`;
  return userId;
}

/** A night of hers recorded at `at`, as the nights consumer writes it (its own statements). */
async function recordNight(userId: string, date: string, at: Date) {
  await sql.begin(async (tx) => {
    await tx`
      insert into research_nights (log_id, user_id, date, study_day, phase, recommended_material, recorded_at)
      values (${randomUUID()}, ${userId}, ${date}, 1, 'polyester', '100% Polyester', ${at})`;
    await refreshNightActivity(tx, userId);
  });
}

/**
 * A night of hers as the nights consumer wrote it before migration 007 (the columns of
 * admin_night_activity then: later migrations add some, which today's code writes).
 */
async function recordNightBefore007(userId: string, date: string, at: Date) {
  await sql.begin(async (tx) => {
    await tx`
      insert into research_nights (log_id, user_id, date, study_day, phase, recommended_material, recorded_at)
      values (${randomUUID()}, ${userId}, ${date}, 1, 'polyester', '100% Polyester', ${at})`;
    await tx`
      insert into admin_night_activity
        (user_id, nights, study_nights, last_night_date, last_night_in_study, previous_night_date, previous_night_in_study, last_recorded_at)
      select ${userId}::uuid, count(*)::int, count(*)::int, max(date), true,
        (array_agg(date order by date desc))[2], case when count(*) > 1 then true end, max(recorded_at)
      from research_nights where user_id = ${userId}
      on conflict (user_id) do update set nights = excluded.nights, study_nights = excluded.study_nights,
        last_night_date = excluded.last_night_date, previous_night_date = excluded.previous_night_date,
        previous_night_in_study = excluded.previous_night_in_study, last_recorded_at = excluded.last_recorded_at`;
  });
}

/** An entry of hers written at `at`, as the journal consumer writes it. */
async function writeEntry(userId: string, at: Date, isNew = true) {
  await sql.begin((tx) => refreshJournalActivity(tx, userId, at.toISOString(), isNew));
}

/** Her deletion, as the directory consumer and research-export's onUserDeleted make it. */
async function deleteUser(userId: string) {
  await sql.begin(async (tx) => {
    await tx`delete from user_directory where user_id = ${userId}`;
    await tx`delete from research_nights where user_id = ${userId}`;
    await tx`delete from admin_night_activity where user_id = ${userId}`;
    await tx`delete from admin_journal_activity where user_id = ${userId}`;
  });
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe("the dashboard's tiles", () => {
  it('migration 007 counts what was there before it', async () => {
    const [a, b, c] = [await addUser(), await addUser(), await addUser()];
    await recordNightBefore007(a, '2026-03-01', hoursBefore(9 * 24)); // too long ago to be active
    await recordNightBefore007(a, '2026-03-02', hoursBefore(8 * 24));
    await recordNightBefore007(b, '2026-03-09', hoursBefore(2));
    await writeEntry(c, hoursBefore(7 * 24 - 1)); // within the window by an hour
    await db.migrateRest();
    expect(await counted(now)).toMatchObject({ totalUsers: 3, activeUsers: 2, totalSleepLogs: 3, totalJournalEntries: 1 });
    await expectTilesCounted();
  });

  it('follow every change the consumers and a deletion make, a night and an entry at a time', async () => {
    const next = random(20261129);
    const users = [...(await sql<{ user_id: string }[]>`select user_id from user_directory`).map((r) => r.user_id)];
    for (let step = 0; step < 300; step++) {
      const roll = next();
      // times from 10 days before `now` to a day after it (a clock ahead), so that moves
      // cross the window's first day and days inside it
      const at = hoursBefore(Math.floor(next() * 11 * 24) - 24);
      const someone = users[Math.floor(next() * users.length)];
      if (roll < 0.15 || !someone) users.push(await addUser());
      else if (roll < 0.55) await recordNight(someone, `2026-02-${String(1 + Math.floor(next() * 28)).padStart(2, '0')}`, at);
      else if (roll < 0.9) await writeEntry(someone, at, next() < 0.8);
      else {
        await deleteUser(someone);
        users.splice(users.indexOf(someone), 1);
      }
      if (step % 25 === 24) await expectTilesCounted();
    }
    await expectTilesCounted();
  });

  it('follow a statement that changes many rows at once (a seed, a migration)', async () => {
    await sql`
      insert into user_directory (user_id, email, first_name, last_name, timezone, role, registered_at)
      select gen_random_uuid(), 'bulk' || i || '@example.com', 'Bulk', 'Tally', 'Europe/London', 'participant', ${now}
      from generate_series(1, 500) i`;
    await sql`
      insert into admin_journal_activity (user_id, entries, last_written_at)
      select user_id, 3, ${now}::timestamptz - make_interval(hours => (abs(hashtext(email)) % 300))
      from user_directory where first_name = 'Bulk'`;
    await sql`update admin_journal_activity set entries = entries + 1, last_written_at = last_written_at + interval '1 day'`;
    await expectTilesCounted();
    // a row given to someone else (no code does it; the totals follow all the same)
    const newcomer = await addUser();
    await sql`
      update admin_journal_activity set user_id = ${newcomer}
      where user_id = (select user_id from user_directory where first_name = 'Bulk' limit 1)`;
    await expectTilesCounted();
    await sql`delete from user_directory where first_name = 'Bulk'`;
    await sql`delete from admin_journal_activity a where not exists (select 1 from user_directory d where d.user_id = a.user_id)`;
    await expectTilesCounted();
  });

  it('follow a rebuild: the tables emptied and filled again in one transaction', async () => {
    const expected = await counted(now);
    await sql.begin(async (tx) => {
      const nights = await tx`select * from admin_night_activity`;
      const entries = await tx`select * from admin_journal_activity`;
      await tx`truncate table admin_night_activity`;
      await tx`truncate table admin_journal_activity`;
      for (const row of nights) await tx`insert into admin_night_activity ${tx(row)}`;
      for (const row of entries) await tx`insert into admin_journal_activity ${tx(row)}`;
    });
    expect(await counted(now)).toEqual(expected);
    await expectTilesCounted();
    await sql.begin(async (tx) => {
      const users = await tx`select * from user_directory`;
      await tx`truncate table user_directory`;
      for (const row of users) await tx`insert into user_directory ${tx(row)}`;
    });
    await expectTilesCounted();
  });

  it('are folded into a row a total and a day of the window, and read the same after', async () => {
    // someone last active on each day from 10 days back to tomorrow, early and late in it
    for (let day = -10; day <= 1; day++) {
      for (const hour of [1, 23]) await writeEntry(await addUser(), new Date(Date.UTC(2026, 2, 10 + day, hour)));
    }
    const rowsBefore = (await sql<{ rows: number }[]>`select count(*)::int as rows from admin_tallies`)[0]!.rows;
    expect(rowsBefore).toBeGreaterThan(100);
    const tiles = await adminStats(sql, now);
    expect(await compactAdminTallies(sql, now)).toBe(rowsBefore);
    const kept = await sql<
      { counter: string; day: string | null }[]
    >`select counter, day::text as day from admin_tallies order by counter, day`;
    // the three totals, and a row a day from the one before the window's first (2026-03-03) on
    expect(kept.filter((row) => row.day === null).map((row) => row.counter)).toEqual(['journal_entries', 'sleep_logs', 'users']);
    const days = kept.filter((row) => row.day !== null).map((row) => row.day);
    expect(new Set(days).size).toBe(days.length);
    expect(days[0]).toBe('2026-03-02');
    expect(await adminStats(sql, now)).toEqual(tiles);
    expect(tiles).toEqual(await counted(now));
    await expectTilesCounted();
  });

  it('keep their lookups by key when a statement adds many rows to tables that were small', async () => {
    // as in a new database, or at a rebuild's start: the tables small, and known to be
    await sql`analyze admin_last_activity, admin_night_activity, admin_journal_activity`;
    const rolledBack = new Error('rolled back');
    await sql
      .begin(async (tx) => {
        // the trigger's statements planned on this connection while the tables are small
        const [someone] = await tx<{ user_id: string }[]>`select user_id from admin_journal_activity limit 1`;
        for (let i = 0; i < 8; i++) await refreshJournalActivity(tx, someone!.user_id, hoursBefore(i).toISOString(), false);
        // then 2,000 users' first entries in one statement
        const scans = async () =>
          (
            await tx<{ scans: number }[]>`
              select coalesce(sum(seq_scan), 0)::int as scans from pg_stat_xact_user_tables
              where relname in ('admin_last_activity', 'admin_night_activity', 'admin_journal_activity')`
          )[0]!.scans;
        const before = await scans();
        await tx`
          insert into admin_journal_activity (user_id, entries, last_written_at)
          select gen_random_uuid(), 1, ${now}::timestamptz - make_interval(mins => i) from generate_series(1, 2000) i`;
        // a sequential scan of them for each row added made this some 8,000
        expect((await scans()) - before).toBeLessThan(20);
        throw rolledBack;
      })
      .catch((err: unknown) => {
        if (err !== rolledBack) throw err;
      });
    await expectTilesCounted();
  });

  it("a rebuild's recount of Active Users waits for a fold in progress, and sees what it made", async () => {
    for (let i = 0; i < 5; i++) await writeEntry(await addUser(), hoursBefore(2 + i * 20));
    // a fold, not committed yet
    let release!: () => void;
    let folded!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const foldDone = new Promise<void>((resolve) => (folded = resolve));
    const fold = sql.begin(async (tx) => {
      await foldAdminTallies(tx, now);
      folded();
      await held;
    });
    await foldDone;
    // the rebuild of the journal's activity: its TRUNCATE recounts Active Users
    const rebuild = sql.begin(async (tx) => {
      const entries = await tx`select * from admin_journal_activity`;
      await tx`truncate table admin_journal_activity`;
      for (const row of entries) await tx`insert into admin_journal_activity ${tx(row)}`;
    });
    await expect.poll(waiting, { timeout: 5_000 }).toBe(1);
    release();
    await Promise.all([fold, rebuild]);
    // without the fold's lock, the recount deleted the rows it could see, and the fold's
    // committed after it stayed: every active user twice
    await expectTilesCounted();
  });

  it('are not folded while a rebuild recounts: the round is skipped, not held for the rebuild', async () => {
    let release!: () => void;
    let truncated!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const recounting = new Promise<void>((resolve) => (truncated = resolve));
    const rebuild = sql.begin(async (tx) => {
      const entries = await tx`select * from admin_journal_activity`;
      await tx`truncate table admin_journal_activity`;
      truncated();
      await held;
      for (const row of entries) await tx`insert into admin_journal_activity ${tx(row)}`;
    });
    await recounting;
    expect(await compactAdminTallies(sql, now)).toBe(0);
    expect(await waiting()).toBe(0);
    release();
    await rebuild;
    expect(await compactAdminTallies(sql, now)).toBeGreaterThan(0);
    await expectTilesCounted();
  });

  it('count both of her nights when two are written at once (two instances of the consumer)', async () => {
    const userId = await addUser();
    // the first night's transaction holds her row of admin_night_activity; the second's
    // counted her nights before it waited for it (its statement's snapshot, without the
    // first), so it wrote one night less than she has, unless it counts them again after
    async function atOnce(first: string, second: string) {
      let release!: () => void;
      let written!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const firstWritten = new Promise<void>((resolve) => (written = resolve));
      const one = sql.begin(async (tx) => {
        await tx`
          insert into research_nights (log_id, user_id, date, study_day, phase, recommended_material, recorded_at)
          values (${randomUUID()}, ${userId}, ${first}, 1, 'polyester', '100% Polyester', ${hoursBefore(3)})`;
        await refreshNightActivity(tx, userId);
        written();
        await held;
      });
      await firstWritten;
      const two = recordNight(userId, second, hoursBefore(2));
      await expect.poll(waiting, { timeout: 5_000 }).toBe(1);
      release();
      await Promise.all([one, two]);
      const [row] = await sql<{ nights: number; last: string; previous: string }[]>`
        select nights, last_night_date::text as last, previous_night_date::text as previous
        from admin_night_activity where user_id = ${userId}`;
      return row;
    }
    // her first nights (no row of hers yet), then again with her row there
    expect(await atOnce('2026-03-01', '2026-03-02')).toEqual({ nights: 2, last: '2026-03-02', previous: '2026-03-01' });
    await expectTilesCounted();
    expect(await atOnce('2026-03-04', '2026-03-03')).toEqual({ nights: 4, last: '2026-03-04', previous: '2026-03-03' });
    await expectTilesCounted();
  });

  it('count a user once when her night and her entry are written at once', async () => {
    const userId = await addUser();
    // her night's transaction holds her row of admin_last_activity until it commits; her
    // entry's waits for it and then sees the night (without the lock both counted her, or
    // the entry's left her last activity before the night)
    async function atOnce(date: string, nightAt: Date, entryAt: Date) {
      let entryDone = false;
      let release!: () => void;
      let written!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const nightWritten = new Promise<void>((resolve) => (written = resolve));
      const night = sql.begin(async (tx) => {
        await tx`
          insert into research_nights (log_id, user_id, date, study_day, phase, recommended_material, recorded_at)
          values (${randomUUID()}, ${userId}, ${date}, 1, 'polyester', '100% Polyester', ${nightAt})`;
        await refreshNightActivity(tx, userId);
        written();
        await held;
      });
      await nightWritten;
      expect(await waiting()).toBe(0);
      const entry = writeEntry(userId, entryAt).then(() => (entryDone = true));
      await expect.poll(waiting, { timeout: 5_000 }).toBe(1);
      expect(entryDone).toBe(false);
      release();
      await Promise.all([night, entry]);
      const [row] = await sql<{ at: Date }[]>`select at from admin_last_activity where user_id = ${userId}`;
      return row!.at;
    }
    // her first activity (no row of hers yet): the entry is the later
    expect(await atOnce('2026-03-08', hoursBefore(50), hoursBefore(49))).toEqual(hoursBefore(49));
    await expectTilesCounted();
    // and again, her row there: the night is the later, on another day
    expect(await atOnce('2026-03-09', hoursBefore(2), hoursBefore(30))).toEqual(hoursBefore(2));
    await expectTilesCounted();
  });
});
