import {
  ADMIN_EXPORT_ACTIONS,
  Uuid,
  type AdminAuditEntry,
  type AdminPhaseFilter,
  type AdminSleepLogSummary,
  type AdminUserDetail,
  type AdminUserListItem,
  type AdminUserSort,
  type AuditPerson,
  type MyDataAccessEntry,
  type SleepwearMaterial,
  type Timezone,
} from '@sleepweave/contracts';
import { badRequest, cursorPart, decodeCursor, INVALID_CURSOR_MESSAGE, toPage, type Sql, type SqlFragment } from '@sleepweave/service-kit';
import { z } from 'zod';
import { ageOn, specCompliancePercent, studyProgress } from './compliance.ts';
import { refreshDueCompliance } from './user-order.ts';
import { userColumns, userKeysQuery, usersQuery, type UserRow } from './users-query.ts';

export interface UserListOptions {
  q?: string | undefined;
  sort: AdminUserSort;
  order: 'asc' | 'desc';
  phase?: AdminPhaseFilter | undefined;
  notLogged?: boolean | undefined;
  limit: number;
  /** Where the page starts (what the last page's `next` was), checked against the sort. */
  cursor?: string | undefined;
}

/** `%`, `_` and `\` typed in a search are letters, not patterns. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * How each sort orders the list, as expressions on `s` that PostgreSQL sees through to the
 * columns of an index (migrations 002 and 003), so a page is one range of it: the sort key,
 * then her id between equal keys. A cursor is the key of the last row given, with the sort
 * and direction it belongs to (a cursor of another sort is refused). Those with no key
 * (not enrolled, or no night due; never logged) come last either way: their key is a value
 * past every other, on the side the direction ends with.
 */
interface SortKey {
  /** The key's expressions, in order. */
  key: (sql: Sql, order: 'asc' | 'desc') => SqlFragment[];
  /** Her id, from the table whose index holds the key (so that the cursor's comparison is one range of it). */
  id: 's.user_id' | 's.order_user_id';
  /** The key's values as the cursor holds them, then cast back for the comparison. */
  values: z.ZodType<(string | number)[]>;
  casts: (sql: Sql, values: (string | number)[]) => SqlFragment[];
}

const Timestamp = cursorPart.instant;
const SORT_KEYS: Record<AdminUserSort, SortKey> = {
  joined: {
    key: (sql) => [sql`s.registered_at`],
    id: 's.user_id',
    values: z.tuple([Timestamp]),
    casts: (sql, [at]) => [sql`${at!}::text::timestamptz`],
  },
  name: {
    key: (sql) => [sql`lower(s.first_name)`, sql`lower(s.last_name)`],
    id: 's.user_id',
    values: z.tuple([z.string().max(400), z.string().max(400)]),
    casts: (sql, [first, last]) => [sql`${first!}::text`, sql`${last!}::text`],
  },
  compliance: {
    // nights logged ÷ due lies in [0, 1]: -1 is past every key going down, 2 going up
    key: (sql, order) => [order === 'desc' ? sql`coalesce(s.order_compliance, -1)` : sql`coalesce(s.order_compliance, 2)`],
    id: 's.order_user_id',
    values: z.tuple([z.number().min(-1).max(2)]),
    casts: (sql, [ratio]) => [sql`${ratio!}::float8`],
  },
  lastLog: {
    key: (sql, order) => [
      order === 'desc' ? sql`coalesce(s.order_last_night, '-infinity'::date)` : sql`coalesce(s.order_last_night, 'infinity'::date)`,
    ],
    id: 's.order_user_id',
    values: z.tuple([z.union([cursorPart.date, z.enum(['infinity', '-infinity'])])]),
    casts: (sql, [date]) => [sql`${date!}::text::date`],
  },
};

const join = (sql: Sql, parts: SqlFragment[]) => parts.reduce((a, b) => sql`${a}, ${b}`);

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
    study: row.study_start_date === null ? null : studyProgress(row.study_start_date, row.tonight, row.nights_logged ?? 0),
    lastLogDate: row.last_night_date,
    daysSinceLastLog: row.days_since_last_log,
    followUp: row.follow_up,
  };
}

type PageRow = UserRow & { sort_key: (string | number)[] };

/**
 * The statement of a page of the user list, not yet run (listUsers runs it; a test explains
 * it): searched, filtered and sorted in the database, `limit + 1` users after the cursor,
 * one range of the sort's index whatever the depth. A cursor this sort did not give is a 400.
 * A filter (phase, follow-up: columns of admin_user_order) is checked along that range, so
 * a page reads as many users as it takes to find `limit` matches; a search of three letters
 * or more reads its matches through the trigram indexes and sorts them (migration 003), by
 * their keys alone. What the list shows is read for the page's users only, once chosen.
 */
export function usersPageQuery(sql: Sql, now: Date, options: UserListOptions) {
  const { sort, order, limit } = options;
  const tag = `${sort}:${order}`;
  const sortKey = SORT_KEYS[sort];
  const key = sortKey.key(sql, order);
  let keyset = sql``;
  if (options.cursor !== undefined) {
    const raw = decodeCursor(options.cursor, z.array(z.unknown()));
    const values = sortKey.values.safeParse(raw.slice(1, -1));
    const id = Uuid.safeParse(raw.at(-1));
    // a cursor of another sort or direction is no place in this order
    if (raw[0] !== tag || !values.success || !id.success) throw badRequest(INVALID_CURSOR_MESSAGE);
    const cmp = order === 'asc' ? sql`>` : sql`<`;
    keyset = sql`and (${join(sql, key)}, ${sql.unsafe(sortKey.id)}) ${cmp} (${join(sql, sortKey.casts(sql, values.data))}, ${id.data}::uuid)`;
  }
  const dir = order === 'asc' ? sql`asc` : sql`desc`;
  const search = options.q
    ? sql`and ((d.first_name || ' ' || d.last_name) ilike ${likePattern(options.q)} or d.email ilike ${likePattern(options.q)})`
    : sql``;
  const orderBy = sql`order by ${join(
    sql,
    key.map((k) => sql`${k} ${dir}`),
  )}, ${sql.unsafe(sortKey.id)} ${dir}`;
  // The page's users are chosen first, from the keys alone; what the list shows is read for
  // them only (an array: as `in (...)`, PostgreSQL read every user to match the 51). A search
  // matches many (800 of 100,000 users for "last99"), and reading four more tables for each
  // match before keeping 51 was most of its time.
  const page = sql`
    ${userKeysQuery(sql, { where: search })}
    where true
      ${options.phase ? sql`and s.order_phase = ${options.phase}` : sql``}
      ${options.notLogged ? sql`and s.order_follow_up` : sql``}
      ${keyset}
    ${orderBy}
    limit ${limit + 1}`;
  const select = sql`${userColumns(sql)}, json_build_array(${join(sql, key)}) as sort_key`;
  const statement = sql<PageRow[]>`
    ${usersQuery(sql, now, { where: sql`and d.user_id = any(array(${page}))`, withOrder: true, select })}
    ${orderBy}`;
  return { statement, tag };
}

/**
 * A page of the user list (usersPageQuery) and the cursor of the next page (null on the
 * last). A sort by compliance, or a filter by phase or follow-up, first brings up to date
 * those kept for another night than her current one (refreshDueCompliance).
 */
export async function listUsers(
  sql: Sql,
  now: Date,
  options: UserListOptions,
): Promise<{ items: AdminUserListItem[]; next: string | null }> {
  // (made first: a cursor this sort did not give is a 400 before anything runs)
  const { statement, tag } = usersPageQuery(sql, now, options);
  if (options.sort === 'compliance' || options.phase || options.notLogged) await refreshDueCompliance(sql, now);
  // A search is planned for its own words. The statement is prepared once per connection,
  // and from its sixth run PostgreSQL may keep a plan made for any search: it walked the
  // list's order testing every user (26–31 ms at 10,000 users, against 4–9 ms planned for
  // the words, through the trigram indexes).
  const rows = options.q
    ? await sql.begin(async (tx) => {
        await tx`set local plan_cache_mode = force_custom_plan`;
        return await usersPageQuery(tx as unknown as Sql, now, options).statement;
      })
    : await statement;
  const page = toPage(rows, options.limit, (row) => [tag, ...row.sort_key, row.user_id]);
  return { items: page.items.map((row) => toListItem(row, now)), next: page.next };
}

export type ExportedUser = AdminUserListItem & { timezone: Timezone; consentedAt: string | null };

/** Every user, a batch at a time, for users-*.csv (joined order, oldest first). */
export async function* readAllUsers(sql: Sql, now: Date, batchSize = 500): AsyncGenerator<ExportedUser[]> {
  const cursor = sql<UserRow[]>`
    ${usersQuery(sql, now, { select: userColumns(sql) })} order by s.registered_at asc, s.user_id asc`.cursor(batchSize);
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
  const [row] = await sql<UserRow[]>`${usersQuery(sql, now, { where: sql`and d.user_id = ${userId}`, select: userColumns(sql) })}`;
  if (!row) return null;
  const nights = await sql<NightSummaryRow[]>`
    select log_id, date::text as date, sleepwear_material, sleep_quality_1_10, fabric_comfort
    from research_nights where user_id = ${userId} order by research_nights.date desc limit 5`;
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
  /** `at` to the microsecond, for the cursor. */
  at_key: string;
  actor_id: string | null;
  by_command_line: boolean;
  actor_first: string | null;
  actor_last: string | null;
  actor_email: string | null;
  subject_id: string | null;
  subject_first: string | null;
  subject_last: string | null;
  subject_email: string | null;
  run_file_name: string | null;
}

/** Where a page of an audit list starts: the last entry's (at, id) (keyset, newest first). */
export const AuditCursor = z.tuple([Timestamp, Uuid]);
export type AuditCursor = z.infer<typeof AuditCursor>;
const auditKey = (row: { at_key: string; id: string }) => [row.at_key, row.id];

const person = (id: string | null, first: string | null, last: string | null, email: string | null): AuditPerson => ({
  id,
  name: first === null ? null : `${first} ${last ?? ''}`.trim() || null,
  email,
});

/** GET /api/admin/audit: newest first, `limit` at a time after `cursor` (the `admin_audit_newest` index). */
export async function listAudit(
  sql: Sql,
  options: { cursor?: AuditCursor | undefined; limit: number },
): Promise<{ items: AdminAuditEntry[]; next: string | null }> {
  const { cursor, limit } = options;
  const rows = await sql<AuditRow[]>`
    select a.id, a.action, a.at, to_json(a.at) #>> '{}' as at_key, a.actor_id, a.by_command_line, a.run_file_name,
      ad.first_name as actor_first, ad.last_name as actor_last, ad.email as actor_email,
      a.subject_id, sd.first_name as subject_first, sd.last_name as subject_last, sd.email as subject_email
    from admin_audit a
    left join user_directory ad on ad.user_id = a.actor_id
    left join user_directory sd on sd.user_id = a.subject_id
    ${cursor ? sql`where (a.at, a.id) < (${cursor[0]}::text::timestamptz, ${cursor[1]}::uuid)` : sql``}
    order by a.at desc, a.id desc
    limit ${limit + 1}`;
  const page = toPage(rows, limit, auditKey);
  return {
    items: page.items.map((row) => ({
      id: row.id,
      action: row.action,
      at: row.at.toISOString(),
      // a role granted from the command line has no actor; an admin since deleted is a person with no name
      actor: row.by_command_line ? null : person(row.actor_id, row.actor_first, row.actor_last, row.actor_email),
      // an export is of everyone; any other entry without a subject is about someone no
      // longer here (an account deleted, or deleted since: her id went with her)
      subject:
        row.subject_id !== null
          ? person(row.subject_id, row.subject_first, row.subject_last, row.subject_email)
          : ADMIN_EXPORT_ACTIONS.has(row.action)
            ? null
            : person(null, null, null, null),
      fileName: row.run_file_name,
    })),
    next: page.next,
  };
}

/**
 * GET /api/research/audit/me: what admins did with her data, newest first: reads of her
 * detail, and the exports that held her data (users-*.csv while she had an account; a
 * sleep-*.csv, or a research zip downloaded, once she had logged a night). Each part is one range of an index
 * (`admin_audit_subject`, `admin_audit_exports`), `limit` after `cursor`.
 */
export async function listMyDataAccess(
  sql: Sql,
  userId: string,
  options: { cursor?: AuditCursor | undefined; limit: number },
): Promise<{ items: MyDataAccessEntry[]; next: string | null }> {
  const { cursor, limit } = options;
  const after = () => (cursor ? sql`and (a.at, a.id) < (${cursor[0]}::text::timestamptz, ${cursor[1]}::uuid)` : sql``);
  const rows = await sql<
    {
      id: string;
      action: MyDataAccessEntry['action'];
      at: Date;
      at_key: string;
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
         -- the range of the index no older than her account (nor than her first night)
         and a.at >= least(me.registered_at, coalesce(me.first_night_at, me.registered_at))
         and ((a.action = 'users_exported' and a.at >= me.registered_at)
           or (a.action = 'sleep_exported' and a.at >= me.first_night_at)
           -- a research zip holds the nights recorded before its run finished (one downloaded
           -- before this was recorded: when it was downloaded)
           or (a.action = 'research_downloaded' and coalesce(a.run_finished_at, a.at) >= me.first_night_at))
       order by a.at desc, a.id desc limit ${limit + 1})
    )
    select m.id, m.action, m.at, to_json(m.at) #>> '{}' as at_key, d.first_name as first, d.last_name as last
    from mine m left join user_directory d on d.user_id = m.actor_id
    order by m.at desc, m.id desc
    limit ${limit + 1}`;
  const page = toPage(rows, limit, auditKey);
  return {
    items: page.items.map((row) => ({
      id: row.id,
      action: row.action,
      at: row.at.toISOString(),
      by: row.first === null ? null : `${row.first} ${row.last ?? ''}`.trim(),
    })),
    next: page.next,
  };
}
