/**
 * The admin list at 10,000 users with 42 days of nights each (420,000 nights): every
 * search, sort, filter and page answers from one row per user, not from the nights, and a
 * page deep in the list reads what the first does (keyset: one range of the sort's index).
 * The rows are written straight into the read models (what the consumers would have
 * written), with generate_series: the events would take minutes to replay and are tested
 * elsewhere. Prints the time of each call (the median of 5).
 */
import { randomUUID } from 'node:crypto';
import type { AdminUserSort } from '@sleepweave/contracts';
import { connectDatabase, databaseName } from '@sleepweave/service-kit';
import { explainAnalyze, rowsRead, type PlanNode } from '@sleepweave/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startResearchExport, type ResearchExport } from '../test/helpers.ts';
import { listUsers, usersPageQuery } from './queries.ts';
import { refreshDueCompliance } from './user-order.ts';

const USERS = 10_000;
/** Far above what the statements take here (tens of ms on a loaded 2-core machine); far below a read of every night. */
const LIMIT_MS = 750;

let service: ResearchExport;
beforeAll(async () => {
  service = await startResearchExport();
  const { sql } = service.deps;
  const started = Date.now();
  await sql`
    insert into user_directory (user_id, email, first_name, last_name, date_of_birth, timezone, hormonal_stage, role, registered_at, updated_at)
    select gen_random_uuid(), 'user' || i || '@example.com', 'First' || i, 'Last' || (i % 997), date '1960-01-01' + (i % 7000),
      (array['Europe/London', 'Europe/Paris', 'America/New_York'])[1 + i % 3], 'Menopause', 'participant',
      now() - (i % 400) * interval '1 day', now()
    from generate_series(1, ${USERS}) i`;
  // Four in five joined the study, started 1 to 60 days ago.
  await sql`
    insert into research_participants (user_id, research_id, study_start_date, consent_version, consented_at)
    select user_id, 'SW-' || lpad(to_hex(row_number() over ()), 8, '0'), (now() at time zone timezone)::date - (abs(hashtext(email)) % 60), '1.0', now()
    from user_directory where abs(hashtext(email)) % 5 <> 0`;
  // A night for most study days so far (up to 42), one in seven missed; one participant in
  // ten has logged none of the last four (to be followed up while in the study).
  await sql`
    insert into research_nights (log_id, user_id, date, study_day, phase, recommended_material, sleep_score, recorded_at)
    select gen_random_uuid(), p.user_id, p.study_start_date + d - 1, d,
      case when d <= 14 then 'polyester' when d <= 28 then 'washout' else 'linen' end, '100% Cotton', 70, now() - (42 - d) * interval '1 day'
    from research_participants p
    cross join lateral generate_series(1, least(42, (now() at time zone 'UTC')::date - p.study_start_date)) d
    where (hashtext(p.user_id::text) + d) % 7 <> 0
      and not (abs(hashtext(p.research_id)) % 10 = 0 and d > (now() at time zone 'UTC')::date - p.study_start_date - 4)`;
  // as the nights consumer counts them (refreshNightActivity), for everyone at once
  await sql`
    insert into admin_night_activity
      (user_id, nights, study_nights, last_night_date, last_night_in_study, previous_night_date, previous_night_in_study, last_recorded_at)
    select user_id, count(*), count(*) filter (where study_day between 1 and 42),
      max(date), (array_agg(study_day between 1 and 42 order by date desc))[1],
      (array_agg(date order by date desc))[2], (array_agg(study_day between 1 and 42 order by date desc))[2], max(recorded_at)
    from research_nights group by user_id`;
  await sql`
    insert into admin_journal_activity (user_id, entries, last_written_at)
    select user_id, 1 + abs(hashtext(email)) % 30, now() - (abs(hashtext(email)) % 20) * interval '1 day' from user_directory`;
  // as migration 003 fills it for those already there: the compliance of the enrolled is
  // computed by the first sort by it
  await sql`
    insert into admin_user_order (user_id, timezone, last_night_date, compliance_on)
    select d.user_id, d.timezone, n.last_night_date, case when p.user_id is not null then date '1970-01-01' end
    from user_directory d left join research_participants p on p.user_id = d.user_id
    left join admin_night_activity n on n.user_id = d.user_id`;
  const computed = performance.now();
  const refreshed = await refreshDueCompliance(sql, new Date());
  console.log(`compliance of ${refreshed} participants computed in ${(performance.now() - computed).toFixed(0)} ms`);
  await sql`analyze`;
  const [counted] = await sql<{ nights: number }[]>`select count(*)::int as nights from research_nights`;
  console.log(`seeded ${USERS} users and ${counted!.nights} nights in ${Date.now() - started} ms`);
}, 180_000);

afterAll(async () => {
  await service?.cleanup();
});

const admin = bearer(randomUUID(), 'admin');

async function timed(url: string): Promise<{ ms: number; body: unknown[]; next: string | null }> {
  const times: number[] = [];
  let body: unknown[] = [];
  let next: string | null = null;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const response = await service.app.inject({ method: 'GET', url, headers: admin });
    times.push(performance.now() - started);
    expect(response.statusCode, response.body).toBe(200);
    body = response.json();
    const header = response.headers['x-next-cursor'];
    next = typeof header === 'string' ? header : null;
  }
  const ms = times.sort((a, b) => a - b)[2]!;
  console.log(`${url.slice(0, 70).padEnd(70)} ${ms.toFixed(1).padStart(7)} ms`);
  return { ms, body, next };
}

/** The cursor `pages` pages of `limit` into the list (followed from the first page). */
async function cursorAfter(query: string, pages: number, limit = 100): Promise<string> {
  let cursor = '';
  for (let i = 0; i < pages; i++) {
    const response = await service.app.inject({ method: 'GET', url: `/api/admin/users?${query}&limit=${limit}${cursor}`, headers: admin });
    cursor = `&cursor=${response.headers['x-next-cursor'] as string}`;
  }
  return cursor;
}

describe(`the admin list at ${USERS.toLocaleString('en')} users`, () => {
  it.each([
    '/api/admin/stats',
    '/api/admin/users',
    '/api/admin/users?q=last99&sort=name&order=asc',
    '/api/admin/users?q=user7777%40example',
    '/api/admin/users?sort=compliance&order=asc',
    '/api/admin/users?sort=lastLog&order=desc',
    '/api/admin/users?phase=washout&sort=compliance',
    '/api/admin/users?notLogged=true',
    '/api/admin/audit',
  ])('%s', async (url) => {
    const { ms, body } = await timed(url);
    expect(ms).toBeLessThan(LIMIT_MS);
    if (url.startsWith('/api/admin/users?q=user7777')) expect(body).toHaveLength(1);
    if (url === '/api/admin/users') expect(body).toHaveLength(100);
  });

  it.each(['sort=joined&order=desc', 'sort=name&order=asc', 'sort=compliance&order=desc', 'sort=lastLog&order=asc'])(
    '%s: page 91 (users 9,001 to 9,100) answers as the first does',
    async (query) => {
      const first = await timed(`/api/admin/users?${query}&limit=100`);
      const deep = await timed(`/api/admin/users?${query}&limit=100${await cursorAfter(query, 90)}`);
      expect(deep.body).toHaveLength(100);
      expect(deep.ms).toBeLessThan(LIMIT_MS);
      expect(deep.ms).toBeLessThan(first.ms * 3 + 20);
    },
  );

  it('a detail of one of them', async () => {
    const [participant] = await service.deps.sql<{ user_id: string }[]>`select user_id from research_participants limit 1`;
    const { ms } = await timed(`/api/admin/user/${participant!.user_id}`);
    expect(ms).toBeLessThan(LIMIT_MS);
  });
});

/** Sorting the page (51 rows, the page's users once chosen) is no sort of the list. */
const sortsOfMoreThanAPage = (plan: PlanNode[]) => plan.filter((node) => node['Node Type'] === 'Sort' && node['Actual Rows'] > 51);

describe('a page is one range of an index, whatever its depth', () => {
  const sorts = ['joined', 'name', 'compliance', 'lastLog'].flatMap((sort) => [`sort=${sort}&order=desc`, `sort=${sort}&order=asc`]);
  it.each(sorts)('%s, 5,000 users in: no sort of the list, and each table read for the page only', async (query) => {
    const { sql } = service.deps;
    const { sort, order } = Object.fromEntries(new URLSearchParams(query)) as { sort: AdminUserSort; order: 'asc' | 'desc' };
    const now = new Date();
    const cursor = (await cursorAfter(query, 50)).slice('&cursor='.length);
    const { statement } = usersPageQuery(sql, now, { sort, order, limit: 50, cursor });
    const plan = await explainAnalyze(sql, statement);
    expect(sortsOfMoreThanAPage(plan)).toEqual([]);
    const read = rowsRead(plan);
    // 51 rows (the page and one more to know there is a next), one of each table per user
    for (const [table, rows] of read) expect(rows, `${table}: ${JSON.stringify(read)}`).toBeLessThanOrEqual(51);
  });

  // A search's matches are sorted (the trigram indexes give them in no order), from their
  // keys alone: what the list shows is read for the page's users only.
  it.each(['joined', 'name', 'compliance'] as const)(
    'a search matching more than a page, sorted by %s: the rest read for the page only',
    async (sort) => {
      const { sql } = service.deps;
      const [matching] = await sql<{ n: number }[]>`select count(*)::int as n from user_directory where last_name ilike '%last99%'`;
      expect(matching!.n).toBeGreaterThan(51);
      const { statement } = usersPageQuery(sql, new Date(), { sort, order: 'asc', q: 'last99', limit: 50 });
      const read = rowsRead(await explainAnalyze(sql, statement));
      for (const table of ['research_participants', 'admin_night_activity', 'admin_journal_activity']) {
        const rows = read.filter(([name]) => name === table);
        expect(rows, JSON.stringify(read)).not.toEqual([]);
        for (const [, n] of rows) expect(n, `${table}: ${JSON.stringify(read)}`).toBeLessThanOrEqual(51);
      }
    },
  );

  // A statement is prepared once per connection, and from its sixth run PostgreSQL may keep
  // a generic plan: for the search, one that walked the list's order testing every user.
  it("a search is planned for its words every time: none of 10 on one connection walks the list's order", async () => {
    const { sql, config } = service.deps;
    const one = connectDatabase(config.DATABASE_URL, databaseName(config, 'research-export'), { max: 1 });
    const reads = async () => {
      const [row] = await sql<{ walks: number; searches: number }[]>`
        select
          (select idx_scan::int from pg_stat_user_indexes where indexrelname = 'user_directory_registered') as walks,
          (select seq_scan::int from pg_stat_user_tables where relname = 'user_directory')
            + (select sum(idx_scan)::int from pg_stat_user_indexes where indexrelname like 'user_directory_search_%') as searches`;
      return row!;
    };
    try {
      const before = await reads();
      for (let i = 0; i < 10; i++) {
        const { items } = await listUsers(one, new Date(), { sort: 'joined', order: 'desc', q: 'last99', limit: 50 });
        expect(items).toHaveLength(50);
      }
      // that connection's statistics, into the views now (else at most once a second, or later)
      await one`select pg_stat_force_next_flush()`;
      await one`select 1`;
      const after = await reads();
      expect(after.searches - before.searches).toBeGreaterThanOrEqual(10);
      expect(after.walks - before.walks).toBe(0);
    } finally {
      await one.end();
    }
  });

  // Sorted by last log, those who completed the study (never to follow up) come first going
  // up, and those who log every night going down; by compliance, the same going down: along
  // the sort's index the filter read them all before the first match (migration 004).
  it.each(['lastLog', 'compliance'].flatMap((sort) => [`sort=${sort}&order=desc`, `sort=${sort}&order=asc`]))(
    'not logged 3+ days, %s: only the followed-up users are read',
    async (query) => {
      const { sql } = service.deps;
      const { sort, order } = Object.fromEntries(new URLSearchParams(query)) as { sort: AdminUserSort; order: 'asc' | 'desc' };
      const now = new Date();
      await refreshDueCompliance(sql, now);
      const [counted] = await sql<{ followUp: number }[]>`select count(*)::int as "followUp" from admin_user_order where follow_up`;
      expect(counted!.followUp).toBeGreaterThan(51);
      const { statement } = usersPageQuery(sql, now, { sort, order, notLogged: true, limit: 50 });
      const plan = await explainAnalyze(sql, statement);
      expect(sortsOfMoreThanAPage(plan)).toEqual([]);
      const read = rowsRead(plan);
      for (const [table, rows] of read) expect(rows, `${table}: ${JSON.stringify(read)}`).toBeLessThanOrEqual(51);
    },
  );
});
