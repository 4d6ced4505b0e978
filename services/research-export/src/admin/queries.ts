import {
  ACTIVE_USER_DAYS,
  NOT_LOGGED_DAYS,
  phaseRanges,
  studyLength,
  type AdminAuditEntry,
  type AdminAuditPage,
  type AdminPhaseFilter,
  type AdminSleepLogSummary,
  type AdminStats,
  type AdminUserDetail,
  type AdminUserListItem,
  type AdminUserPage,
  type AdminUserSort,
  type AuditPerson,
  type HormonalStage,
  type MyDataAccessPage,
  type Role,
  type SleepwearMaterial,
  type Timezone,
} from '@sleepweave/contracts';
import type { Sql } from '@sleepweave/service-kit';
import { ageOn, specCompliancePercent, studyProgress } from './compliance.ts';

const DAY_MS = 86_400_000;

export async function adminStats(sql: Sql, now: Date): Promise<AdminStats> {
  const since = new Date(now.getTime() - ACTIVE_USER_DAYS * DAY_MS);
  const [row] = await sql<{ total_users: number; active_users: number; sleep_logs: number; journal_entries: number }[]>`
    select
      (select count(*)::int from user_directory) as total_users,
      (select count(*)::int from user_directory d
         left join admin_night_activity n on n.user_id = d.user_id
         left join admin_journal_activity j on j.user_id = d.user_id
       where n.last_recorded_at > ${since} or j.last_written_at > ${since}) as active_users,
      (select coalesce(sum(nights), 0)::int from admin_night_activity) as sleep_logs,
      (select coalesce(sum(entries), 0)::int from admin_journal_activity) as journal_entries`;
  return {
    totalUsers: row!.total_users,
    activeUsers: row!.active_users,
    totalSleepLogs: row!.sleep_logs,
    totalJournalEntries: row!.journal_entries,
    activeDays: ACTIVE_USER_DAYS,
  };
}

export interface UserListOptions {
  q?: string | undefined;
  sort: AdminUserSort;
  order: 'asc' | 'desc';
  phase?: AdminPhaseFilter | undefined;
  notLogged?: boolean | undefined;
  page: number;
  pageSize: number;
}

interface UserRow {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  date_of_birth: string | null;
  hormonal_stage: HormonalStage | null;
  role: Role;
  registered_at: Date;
  timezone: Timezone;
  today: string;
  study_start_date: string | null;
  consented_at: Date | null;
  nights: number;
  entries: number;
  last_night_date: string | null;
  days_since_last_log: number | null;
  nights_logged: number | null;
  elapsed: number | null;
  total: number;
}

/** `%`, `_` and `\` typed in a search are letters, not patterns. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Every user with what the list shows, computed in one statement from one row per user
 * (user_directory, research_participants and the two activity tables): no night and no
 * journal entry is read, so a sort or filter over 10,000 users stays in the tens of
 * milliseconds. Her "today" is her calendar date in her time zone at `now`.
 */
function usersQuery(sql: Sql, now: Date, options: Pick<UserListOptions, 'q' | 'phase' | 'notLogged'> & { userId?: string }) {
  const length = studyLength();
  const phaseCase = sql`case when u.study_start_date is null then 'not_enrolled' ${phaseRanges()
    .map(({ phase, last }) => sql`when u.study_day <= ${last} then ${phase.id}`)
    .reduce((a, b) => sql`${a} ${b}`)} else 'completed' end`;
  const search = options.q
    ? sql`and ((d.first_name || ' ' || d.last_name) ilike ${likePattern(options.q)} or d.email ilike ${likePattern(options.q)})`
    : sql``;
  const one = options.userId ? sql`and d.user_id = ${options.userId}` : sql``;
  const filters = [
    options.phase ? sql`and s.phase = ${options.phase}` : sql``,
    // ongoing participants (not completed) whose last night, or the eve of the start, is NOT_LOGGED_DAYS or more ago
    options.notLogged
      ? sql`and s.study_day <= ${length} and s.today - coalesce(s.last_night_date, s.study_start_date - 1) >= ${NOT_LOGGED_DAYS}`
      : sql``,
  ];
  return sql`
    with base as (
      select d.user_id, d.email, d.first_name, d.last_name, d.date_of_birth, d.hormonal_stage, d.role, d.registered_at, d.timezone,
        (${now}::timestamptz at time zone d.timezone)::date as today,
        p.study_start_date, p.consented_at,
        coalesce(n.nights, 0) as nights, coalesce(n.study_nights, 0) as study_nights, n.last_night_date,
        n.last_night_in_study, n.previous_night_date, n.previous_night_in_study, coalesce(j.entries, 0) as entries
      from user_directory d
      left join research_participants p on p.user_id = d.user_id
      left join admin_night_activity n on n.user_id = d.user_id
      left join admin_journal_activity j on j.user_id = d.user_id
      where true ${search} ${one}
    ), u as (
      select b.*, b.today - b.study_start_date + 1 as study_day from base b
    ), e as (
      select u.*, ${phaseCase} as phase,
        case when u.study_start_date is null then null else least(${length}, greatest(0, u.study_day - 1)) end as elapsed
      from u
    ), s as (
      select e.*,
        -- her study nights but those logged ahead of the due ones (only her last two can be:
        -- tonight's and tomorrow's, as study refuses any later night)
        case
          when e.elapsed is null then null
          else greatest(0, e.study_nights
            - (case when e.last_night_date >= e.study_start_date + e.elapsed and e.last_night_in_study then 1 else 0 end)
            - (case when e.previous_night_date >= e.study_start_date + e.elapsed and e.previous_night_in_study then 1 else 0 end))
        end as nights_logged
      from e
    )
    select s.user_id, s.email, s.first_name, s.last_name, s.date_of_birth::text as date_of_birth, s.hormonal_stage, s.role,
      s.registered_at, s.timezone, s.today::text as today, s.study_start_date::text as study_start_date, s.consented_at,
      s.nights, s.entries, s.last_night_date::text as last_night_date, s.today - s.last_night_date as days_since_last_log,
      s.nights_logged, s.elapsed, count(*) over ()::int as total
    from s
    where true ${filters[0]!} ${filters[1]!}`;
}

function orderBy(sql: Sql, sort: AdminUserSort, order: 'asc' | 'desc') {
  const dir = order === 'asc' ? sql`asc` : sql`desc`;
  switch (sort) {
    case 'joined':
      return sql`order by registered_at ${dir}, user_id ${dir}`;
    case 'name':
      return sql`order by lower(first_name) ${dir}, lower(last_name) ${dir}, email ${dir}, user_id ${dir}`;
    case 'compliance':
      // study compliance; not enrolled, or nothing due yet, last either way
      return sql`order by nights_logged::float8 / nullif(elapsed, 0) ${dir} nulls last, nights ${dir}, user_id ${dir}`;
    case 'lastLog':
      return sql`order by last_night_date ${dir} nulls last, user_id ${dir}`;
  }
}

function toListItem(row: UserRow, now: Date): AdminUserListItem {
  return {
    id: row.user_id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    dateOfBirth: row.date_of_birth,
    age: ageOn(row.date_of_birth, row.today),
    hormonalStage: row.hormonal_stage,
    role: row.role,
    createdAt: row.registered_at.toISOString(),
    sleepLogCount: row.nights,
    journalEntryCount: row.entries,
    compliancePercent: specCompliancePercent(row.nights, row.registered_at, now),
    study: row.study_start_date === null ? null : studyProgress(row.study_start_date, row.today, row.nights_logged ?? 0),
    lastLogDate: row.last_night_date,
    daysSinceLastLog: row.days_since_last_log,
  };
}

/** A page of the user list: searched, filtered and sorted in the database. */
export async function listUsers(sql: Sql, now: Date, options: UserListOptions): Promise<AdminUserPage> {
  const { page, pageSize } = options;
  const rows = await sql<UserRow[]>`
    ${usersQuery(sql, now, options)}
    ${orderBy(sql, options.sort, options.order)}
    limit ${pageSize} offset ${(page - 1) * pageSize}`;
  let total = rows[0]?.total;
  if (total === undefined) {
    // past the last page (or nothing matches): the count without the rows
    const [counted] = await sql<{ total: number }[]>`select count(*)::int as total from (${usersQuery(sql, now, options)}) c`;
    total = counted?.total ?? 0;
  }
  return { items: rows.map((row) => toListItem(row, now)), total, page, pageSize };
}

export type ExportedUser = AdminUserListItem & { timezone: Timezone; consentedAt: string | null };

/** Every user, a batch at a time, for users-*.csv (joined order, oldest first). */
export async function* readAllUsers(sql: Sql, now: Date, batchSize = 500): AsyncGenerator<ExportedUser[]> {
  const cursor = sql<UserRow[]>`${usersQuery(sql, now, {})} order by registered_at asc, user_id asc`.cursor(batchSize);
  for await (const batch of cursor) {
    yield batch.map((row) => ({ ...toListItem(row, now), timezone: row.timezone, consentedAt: row.consented_at?.toISOString() ?? null }));
  }
}

interface NightSummaryRow {
  log_id: string;
  date: string;
  sleepwear_material: SleepwearMaterial | null;
  sleep_quality_1_10: number | null;
  fabric_comfort: string | null;
}

/** GET /api/admin/user/{id}: the list item, her time zone and consent, and her five latest nights. */
export async function findUserDetail(sql: Sql, now: Date, userId: string): Promise<AdminUserDetail | null> {
  const [row] = await sql<UserRow[]>`${usersQuery(sql, now, { userId })}`;
  if (!row) return null;
  const nights = await sql<NightSummaryRow[]>`
    select log_id, date::text as date, sleepwear_material, sleep_quality_1_10, fabric_comfort
    from research_nights where user_id = ${userId} order by date desc limit 5`;
  const sleepLogs: AdminSleepLogSummary[] = nights.map((night) => ({
    id: night.log_id,
    date: night.date,
    sleepwearMaterial: night.sleepwear_material,
    sleepQuality110: night.sleep_quality_1_10,
    fabricComfort: night.fabric_comfort,
  }));
  return {
    ...toListItem(row, now),
    timezone: row.timezone,
    consent: row.consented_at !== null,
    consentedAt: row.consented_at?.toISOString() ?? null,
    sleepLogs,
  };
}

// The audit trail

interface AuditRow {
  id: string;
  action: AdminAuditEntry['action'];
  at: Date;
  actor_id: string | null;
  actor_first: string | null;
  actor_last: string | null;
  actor_email: string | null;
  subject_id: string | null;
  subject_first: string | null;
  subject_last: string | null;
  subject_email: string | null;
}

/** `<ISO time>_<id>`: where the next page starts (keyset on (at, id), newest first). */
export const auditCursor = (row: { at: Date; id: string }) => `${row.at.toISOString()}_${row.id}`;

export function parseAuditCursor(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null;
  const split = cursor.lastIndexOf('_');
  const at = new Date(cursor.slice(0, split));
  if (split < 0 || Number.isNaN(at.getTime())) return null;
  return { at, id: cursor.slice(split + 1) };
}

const person = (id: string | null, first: string | null, last: string | null, email: string | null): AuditPerson => ({
  id,
  name: first === null ? null : `${first} ${last ?? ''}`.trim() || null,
  email,
});

/** GET /api/admin/audit: newest first, `limit` at a time after `cursor`. */
export async function listAudit(sql: Sql, options: { cursor: { at: Date; id: string } | null; limit: number }): Promise<AdminAuditPage> {
  const { cursor, limit } = options;
  const rows = await sql<AuditRow[]>`
    select a.id, a.action, a.at, a.actor_id, ad.first_name as actor_first, ad.last_name as actor_last, ad.email as actor_email,
      a.subject_id, sd.first_name as subject_first, sd.last_name as subject_last, sd.email as subject_email
    from admin_audit a
    left join user_directory ad on ad.user_id = a.actor_id
    left join user_directory sd on sd.user_id = a.subject_id
    ${cursor ? sql`where (a.at, a.id) < (${cursor.at}, ${cursor.id}::uuid)` : sql``}
    order by a.at desc, a.id desc
    limit ${limit + 1}`;
  const page = rows.slice(0, limit);
  return {
    items: page.map((row) => ({
      id: row.id,
      action: row.action,
      at: row.at.toISOString(),
      // a role granted from the command line has no actor
      actor:
        row.actor_id === null && row.action.startsWith('role_')
          ? null
          : person(row.actor_id, row.actor_first, row.actor_last, row.actor_email),
      subject: row.subject_id === null ? null : person(row.subject_id, row.subject_first, row.subject_last, row.subject_email),
    })),
    nextCursor: rows.length > limit ? auditCursor(page.at(-1)!) : null,
  };
}

/**
 * GET /api/research/audit/me: what admins did with her data, newest first: reads of her
 * detail, and the exports that held her data (users-*.csv while she had an account; a
 * sleep-*.csv once she had logged a night).
 */
export async function listMyDataAccess(
  sql: Sql,
  userId: string,
  options: { cursor: { at: Date; id: string } | null; limit: number },
): Promise<MyDataAccessPage> {
  const { cursor, limit } = options;
  const after = () => (cursor ? sql`and (a.at, a.id) < (${cursor.at}, ${cursor.id}::uuid)` : sql``);
  const rows = await sql<
    {
      id: string;
      action: 'participant_viewed' | 'users_exported' | 'sleep_exported';
      at: Date;
      first: string | null;
      last: string | null;
    }[]
  >`
    with me as (
      select registered_at,
        (select min(recorded_at) from research_nights where user_id = ${userId}) as first_night_at
      from user_directory where user_id = ${userId}
    ), mine as (
      (select a.id, a.action, a.at, a.actor_id from admin_audit a
       where a.subject_id = ${userId} and a.action = 'participant_viewed' ${after()}
       order by a.at desc, a.id desc limit ${limit + 1})
      union all
      (select a.id, a.action, a.at, a.actor_id from admin_audit a, me
       where a.subject_id is null ${after()}
         and ((a.action = 'users_exported' and a.at >= me.registered_at)
           or (a.action = 'sleep_exported' and a.at >= me.first_night_at))
       order by a.at desc, a.id desc limit ${limit + 1})
    )
    select m.id, m.action, m.at, d.first_name as first, d.last_name as last
    from mine m left join user_directory d on d.user_id = m.actor_id
    order by m.at desc, m.id desc
    limit ${limit + 1}`;
  const page = rows.slice(0, limit);
  return {
    items: page.map((row) => ({
      id: row.id,
      action: row.action,
      at: row.at.toISOString(),
      by: row.first === null ? null : `${row.first} ${row.last ?? ''}`.trim(),
    })),
    nextCursor: rows.length > limit ? auditCursor(page.at(-1)!) : null,
  };
}
