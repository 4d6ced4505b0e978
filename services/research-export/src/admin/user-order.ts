import { studyLength, Timezone } from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';
import type { Sql, SqlFragment } from '@sleepweave/service-kit';
import { tonightIn, usersQuery } from './users-query.ts';

/**
 * `admin_user_order` (migrations/003_admin_paging.sql): her last night's date (for one in the
 * study who has logged none, the eve of her start: "longest since last log" counts her from
 * there, as the follow-up does, not among those never enrolled), and her study
 * compliance, phase and follow-up for her current night, in one row per user, so that the list
 * sorted by either key, or filtered by phase or follow-up, reads an index. Derived from her
 * rows in user_directory, research_participants and admin_night_activity, with the very
 * statement the list shows her figures from.
 */
export const USER_ORDER_TABLE = 'admin_user_order';

/** The keys of the users `where` picks (conditions on `d`), as of `now`. */
function orderKeys(sql: Sql | Tx, now: Date, where: SqlFragment) {
  const q = sql as Sql;
  return usersQuery(sql, now, {
    where,
    select: q`s.user_id, s.timezone, coalesce(s.last_night_date, s.study_start_date - 1) as last_night_date,
      s.nights_logged::float8 / nullif(s.elapsed, 0) as compliance, s.phase, s.follow_up,
      -- her current night while a night of the study is yet to come due; none once it cannot change without an event
      case when s.study_start_date is not null and s.tonight < s.study_start_date + ${studyLength()}::int then s.tonight end as compliance_on`,
  });
}

function updateFrom(sql: Sql | Tx, keys: SqlFragment) {
  return (sql as Sql)`
    update admin_user_order o set timezone = k.timezone, last_night_date = k.last_night_date,
      compliance = k.compliance, phase = k.phase, follow_up = k.follow_up, compliance_on = k.compliance_on
    from (${keys}) k
    where o.user_id = k.user_id`;
}

/**
 * Her row, from her rows as they are now: every writer of them (her registration or a change
 * of her time zone, her enrolment, her nights) calls it in its transaction, after its
 * write. Her row is locked first, and her keys computed after, by another statement: a
 * concurrent writer of another of her rows waits for our commit and then computes from
 * what we wrote, so the last to commit sees every write. Nothing for a user not (or no
 * longer) in the directory.
 */
export async function refreshUserOrder(tx: Tx, userId: string, now: Date = new Date()): Promise<void> {
  await tx`
    insert into admin_user_order (user_id, timezone)
    select user_id, timezone from user_directory where user_id = ${userId}
    on conflict (user_id) do update set timezone = excluded.timezone`;
  await updateFrom(tx, orderKeys(tx, now, tx`and d.user_id = ${userId}`));
}

/**
 * Brings up to date, for `now`, every compliance, phase and follow-up kept for another date
 * than her current night (time zone by time zone, two ranges of the `admin_user_order_due`
 * index each): before a page that sorts or filters by them, so that it orders by tonight's
 * figures. Usually none; after 04:00 in a time zone (when a night ends and one more is
 * due), its participants still in the study, once.
 * Rows a writer holds are left to it (it computes them itself). Returns how many were
 * brought up to date.
 */
export async function refreshDueCompliance(sql: Sql, now: Date): Promise<number> {
  return sql.begin(async (tx) => {
    // the current night in each time zone, as the list computes it; then one range of the index on each side of it
    const zones = await tx<{ timezone: string; tonight: string }[]>`
      select z.timezone, ${tonightIn(tx, now, tx`z.timezone`)}::text as tonight
      from unnest(${Timezone.options}::text[]) as z(timezone)`;
    const stale = zones
      .map(
        ({ timezone, tonight }) =>
          tx`(o.timezone = ${timezone} and (o.compliance_on < ${tonight}::text::date or o.compliance_on > ${tonight}::text::date))`,
      )
      .reduce((a, b) => tx`${a} or ${b}`);
    const due = await tx<{ user_id: string }[]>`
      select o.user_id from admin_user_order o
      where o.compliance_on is not null and (${stale})
      for update of o skip locked`;
    if (due.length === 0) return 0;
    const ids = due.map((row) => row.user_id);
    await updateFrom(tx, orderKeys(tx, now, tx`and d.user_id = any(${ids}::uuid[])`));
    return ids.length;
  });
}
