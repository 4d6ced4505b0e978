import {
  NIGHT_ENDS_AT_HOUR,
  NOT_LOGGED_DAYS,
  phaseRanges,
  studyLength,
  type HormonalStage,
  type Role,
  type Timezone,
} from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';
import type { Sql, SqlFragment } from '@sleepweave/service-kit';

/** One user as the list, the detail and the users export read her. */
export interface UserRow {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  date_of_birth: string | null;
  hormonal_stage: HormonalStage | null;
  role: Role;
  registered_at: Date;
  timezone: Timezone;
  /** Her calendar date at `now` (her age). */
  today: string;
  /** Her current night at `now` (docs/admin.md): the date her study day, compliance and lapse count from. */
  tonight: string;
  study_start_date: string | null;
  consented_at: Date | null;
  nights: number;
  entries: number;
  last_night_date: string | null;
  days_since_last_log: number | null;
  nights_logged: number | null;
  elapsed: number | null;
  follow_up: boolean;
}

/** The columns of a UserRow, read from `s` (the last step of usersQuery). */
export const userColumns = (sql: Sql | Tx) => (sql as Sql)`
  s.user_id, s.email, s.first_name, s.last_name, s.date_of_birth::text as date_of_birth, s.hormonal_stage, s.role,
  s.registered_at, s.timezone, s.today::text as today, s.tonight::text as tonight, s.study_start_date::text as study_start_date, s.consented_at,
  s.nights, s.entries, s.last_night_date::text as last_night_date, s.tonight - s.last_night_date as days_since_last_log,
  s.nights_logged, s.elapsed, s.follow_up`;

export interface UsersQueryOptions {
  /** Conditions on `d` (user_directory): `and ...`. */
  where?: SqlFragment;
  /** Join her admin_user_order row as `o` (its keys order the list): the list only. */
  withOrder?: boolean;
  /** What to select from `s`. */
  select: SqlFragment;
}

/** What orders and filters the list, from her admin_user_order row `o`, as `s` names it. */
const orderColumns = (q: Sql) => q`o.user_id as order_user_id, o.compliance as order_compliance, o.last_night_date as order_last_night,
  o.phase as order_phase, o.follow_up as order_follow_up`;

/**
 * Every user (or those `where` picks) with only what chooses a page of the list (the columns
 * its sorts, filters and cursors read, named as in usersQuery's `s`): user_directory and
 * admin_user_order, nothing joined for what the list shows. The caller adds its conditions
 * on `s`, its order and its limit.
 */
export function userKeysQuery(sql: Sql | Tx, options: { where?: SqlFragment }): SqlFragment {
  const q = sql as Sql;
  return q`
    select s.user_id from (
      select d.user_id, d.registered_at, d.first_name, d.last_name, ${orderColumns(q)}
      from user_directory d
      join admin_user_order o on o.user_id = d.user_id
      where true ${options.where ?? q``}
    ) s`;
}

/**
 * Her current night at `now` in the time zone `zone` (a column or a value): the night she is
 * in or sleeps next, whose evening's date it is until 04:00 her time the next morning
 * (currentNight in libs/contracts). Her wall clock 4 hours back, so a change of the clocks
 * in the small hours counts as her clock shows it.
 */
export function tonightIn(sql: Sql | Tx, now: Date, zone: SqlFragment): SqlFragment {
  return (sql as Sql)`((${now}::timestamptz at time zone ${zone}) - make_interval(hours => ${NIGHT_ENDS_AT_HOUR}::int))::date`;
}

/**
 * Every user (or those `where` picks) with what the list shows and what orders it, from one
 * row per user (user_directory, research_participants, the two activity tables and, for the
 * list, admin_user_order): no night and no journal entry is read. Her study day, the nights
 * due, her compliance and her lapse count from her current night (`tonight`), as her own home
 * page and the research export do: a night is due once it has ended, at 04:00 her time. Her
 * "today", her calendar date, gives her age. The statement ends with `from s`: the caller
 * adds its conditions on `s`, order and limit. The steps are CTEs of the statement itself,
 * which PostgreSQL folds into one query: an order by a column of `d` or `o` with a limit
 * walks that column's index.
 */
export function usersQuery(sql: Sql | Tx, now: Date, options: UsersQueryOptions): SqlFragment {
  const q = sql as Sql;
  const length = studyLength();
  const phaseCase = q`case when u.study_start_date is null then 'not_enrolled' ${phaseRanges()
    .map(({ phase, last }) => q`when u.study_day <= ${last} then ${phase.id}`)
    .reduce((a, b) => q`${a} ${b}`)} else 'completed' end`;
  const order = options.withOrder
    ? { columns: q`, ${orderColumns(q)}`, join: q`join admin_user_order o on o.user_id = d.user_id` }
    : { columns: q``, join: q`` };
  return q`
    with base as (
      select d.user_id, d.email, d.first_name, d.last_name, d.date_of_birth, d.hormonal_stage, d.role, d.registered_at, d.timezone,
        (${now}::timestamptz at time zone d.timezone)::date as today, ${tonightIn(q, now, q`d.timezone`)} as tonight,
        p.study_start_date, p.consented_at,
        coalesce(n.nights, 0) as nights, coalesce(n.study_nights, 0) as study_nights, n.last_night_date,
        n.last_night_in_study, n.previous_night_date, n.previous_night_in_study, n.third_night_date, n.third_night_in_study,
        coalesce(j.entries, 0) as entries
        ${order.columns}
      from user_directory d
      ${order.join}
      left join research_participants p on p.user_id = d.user_id
      left join admin_night_activity n on n.user_id = d.user_id
      left join admin_journal_activity j on j.user_id = d.user_id
      where true ${options.where ?? q``}
    ), u as (
      select b.*, b.tonight - b.study_start_date + 1 as study_day from base b
    ), e as (
      select u.*, ${phaseCase} as phase,
        case when u.study_start_date is null then null else least(${length}, greatest(0, u.study_day - 1)) end as elapsed,
        -- her last logged night that has ended: a night logged ahead (tonight's, or a later
        -- one) says nothing of the nights before it, which may be missing. Only her last three
        -- can be ahead; with all three ahead, the fourth is not known here, and she is taken
        -- to be keeping up.
        case
          when u.last_night_date is null or u.last_night_date < u.tonight then u.last_night_date
          when u.previous_night_date is null or u.previous_night_date < u.tonight then u.previous_night_date
          when u.third_night_date is null or u.third_night_date < u.tonight then u.third_night_date
          else u.tonight - 1
        end as last_ended_night_date
      from u
    ), s as (
      select e.*,
        -- her study nights but those logged ahead of the due ones (only her last three can be:
        -- the current night's, today's and tomorrow's between midnight and 04:00, as study
        -- refuses any later night)
        case
          when e.elapsed is null then null
          else greatest(0, e.study_nights
            - (case when e.last_night_date >= e.study_start_date + e.elapsed and e.last_night_in_study then 1 else 0 end)
            - (case when e.previous_night_date >= e.study_start_date + e.elapsed and e.previous_night_in_study then 1 else 0 end)
            - (case when e.third_night_date >= e.study_start_date + e.elapsed and e.third_night_in_study then 1 else 0 end))
        end as nights_logged,
        -- to follow up: still in the study, and her last ended night logged (or the eve of her
        -- start) NOT_LOGGED_DAYS or more ago
        coalesce(e.study_day <= ${length}
          and e.tonight - coalesce(e.last_ended_night_date, e.study_start_date - 1) >= ${NOT_LOGGED_DAYS}, false) as follow_up
      from e
    )
    select ${options.select} from s`;
}
