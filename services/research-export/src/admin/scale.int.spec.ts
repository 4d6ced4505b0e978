/**
 * The admin list at 10,000 users with 42 days of nights each (420,000 nights): every
 * search, sort, filter and page answers from one row per user, not from the nights.
 * The rows are written straight into the read models (what the consumers would have
 * written), with generate_series: the events would take minutes to replay and are tested
 * elsewhere. Prints the time of each call (the median of 5).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startResearchExport, type ResearchExport } from '../test/helpers.ts';

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
  // A night for most study days so far (up to 42), one in seven missed.
  await sql`
    insert into research_nights (log_id, user_id, date, study_day, phase, recommended_material, sleep_score, recorded_at)
    select gen_random_uuid(), p.user_id, p.study_start_date + d - 1, d,
      case when d <= 14 then 'polyester' when d <= 28 then 'washout' else 'linen' end, '100% Cotton', 70, now() - (42 - d) * interval '1 day'
    from research_participants p
    cross join lateral generate_series(1, least(42, (now() at time zone 'UTC')::date - p.study_start_date)) d
    where (hashtext(p.user_id::text) + d) % 7 <> 0`;
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
  await sql`analyze`;
  const [counted] = await sql<{ nights: number }[]>`select count(*)::int as nights from research_nights`;
  console.log(`seeded ${USERS} users and ${counted!.nights} nights in ${Date.now() - started} ms`);
}, 180_000);

afterAll(async () => {
  await service?.cleanup();
});

const admin = bearer(randomUUID(), 'admin');

async function timed(url: string): Promise<{ ms: number; body: { total?: number; items?: unknown[] } }> {
  const times: number[] = [];
  let body = {};
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const response = await service.app.inject({ method: 'GET', url, headers: admin });
    times.push(performance.now() - started);
    expect(response.statusCode, response.body).toBe(200);
    body = response.json();
  }
  const ms = times.sort((a, b) => a - b)[2]!;
  console.log(`${url.padEnd(70)} ${ms.toFixed(1).padStart(7)} ms`);
  return { ms, body };
}

describe(`the admin list at ${USERS.toLocaleString('en')} users`, () => {
  it.each([
    '/api/admin/stats',
    '/api/admin/users',
    '/api/admin/users?page=200&pageSize=50',
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
    if (url.startsWith('/api/admin/users?q=user7777')) expect(body.total).toBe(1);
    if (url === '/api/admin/users') expect(body.total).toBe(USERS);
  });

  it('a detail of one of them', async () => {
    const [participant] = await service.deps.sql<{ user_id: string }[]>`select user_id from research_participants limit 1`;
    const { ms } = await timed(`/api/admin/user/${participant!.user_id}`);
    expect(ms).toBeLessThan(LIMIT_MS);
  });
});
