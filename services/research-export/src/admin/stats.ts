import { ACTIVE_USER_DAYS, type AdminStats } from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';

const DAY_MS = 86_400_000;

/**
 * The four tiles, from the totals the triggers of migration 007 keep (docs/admin.md,
 * "Statistics"): the sum of admin_tallies' rows (a row a total and day once folded, and
 * the changes of the last minute), never a count of the users, nights or entries. Active
 * Users sums the users of each whole day (UTC) after the one the window starts in, and counts
 * those of that one day whose last activity is after its start (an index range of one day).
 */
export async function adminStats(sql: Sql, now: Date): Promise<AdminStats> {
  const since = new Date(now.getTime() - ACTIVE_USER_DAYS * DAY_MS);
  const [row] = await sql<{ total_users: number; active_users: number; sleep_logs: number; journal_entries: number }[]>`
    with cut as (select ${since}::timestamptz as at, (${since}::timestamptz at time zone 'UTC')::date as day)
    select
      coalesce(sum(delta) filter (where counter = 'users'), 0)::int as total_users,
      coalesce(sum(delta) filter (where counter = 'sleep_logs'), 0)::int as sleep_logs,
      coalesce(sum(delta) filter (where counter = 'journal_entries'), 0)::int as journal_entries,
      (coalesce(sum(delta) filter (where counter = 'active_users' and day > (select day from cut)), 0)
        + (select count(*) from admin_last_activity
            where at > (select at from cut) and at < (((select day from cut) + 1)::timestamp at time zone 'UTC')))::int as active_users
    from admin_tallies`;
  return {
    totalUsers: row!.total_users,
    activeUsers: row!.active_users,
    totalSleepLogs: row!.sleep_logs,
    totalJournalEntries: row!.journal_entries,
    activeDays: ACTIVE_USER_DAYS,
  };
}

/**
 * Folds admin_tallies into one row a total (and, for Active Users, a day), so the tiles
 * read a few dozen rows. Days before the window Active Users can reach are dropped: no
 * tile reads them again. Safe beside writers and another instance folding: the rows a
 * statement deletes are the ones it sums, and a change not yet committed is folded next time.
 * Returns the rows folded.
 */
export async function compactAdminTallies(sql: Sql, now: Date): Promise<number> {
  try {
    return (await sql.begin((tx) => foldAdminTallies(tx, now))) as number;
  } catch (err) {
    // a rebuild is recounting: its end folds them (the service's afterRebuild)
    if ((err as { code?: string }).code === LOCK_NOT_AVAILABLE) return 0;
    throw err;
  }
}

/** PostgreSQL's error of a lock taken `nowait` that another transaction holds. */
const LOCK_NOT_AVAILABLE = '55P03';

/** compactAdminTallies in the caller's transaction. */
export async function foldAdminTallies(tx: Tx, now: Date): Promise<number> {
  const oldest = new Date(now.getTime() - (ACTIVE_USER_DAYS + 1) * DAY_MS);
  // Never beside a recount of Active Users (after a rebuild's TRUNCATE, migration 007),
  // which locks the table `exclusive`: that recount would not see the rows this fold makes,
  // and they would count twice. Writers' locks (row share, row exclusive) do not conflict
  // with this one: they do not wait for the fold, nor it for them. Not waiting for a
  // rebuild either (its transaction can last minutes): the fold is skipped (55P03).
  await tx`lock table admin_last_activity in row share mode nowait`;
  const [row] = await tx<{ folded: number }[]>`
    with folded as (delete from admin_tallies returning counter, day, delta),
    kept as (
      insert into admin_tallies (counter, day, delta)
      select counter, day, sum(delta) from folded
      where day is null or day >= (${oldest}::timestamptz at time zone 'UTC')::date
      group by counter, day
      having sum(delta) <> 0
    )
    select count(*)::int as folded from folded`;
  return row!.folded;
}
