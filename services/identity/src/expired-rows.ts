import type { Tx } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';

/** The windowed tables of the request limits, each with its time column (indexed by it). */
const WINDOWED = { login_failures: 'failed_at', password_reset_requests: 'requested_at' } as const;

/** Rows past their window removed by one request at most: never one request's wait for a burst's worth. */
const PRUNED_AT_ONCE = 100;

/** The rows of `table` from `since` back, as many as one request removes (an index range of its time). */
export function expiredRows(sql: Sql | Tx, table: keyof typeof WINDOWED, since: Date) {
  const q = sql as Sql;
  return q`select ctid from ${q(table)} where ${q(WINDOWED[table])} <= ${since} limit ${PRUNED_AT_ONCE} for update skip locked`;
}

/**
 * Removes rows of a limit's table past its window, of any e-mail (those of an address
 * never typed again would stay for good), a few at a time: those another request is
 * removing are passed over, not waited for.
 */
export async function pruneExpiredRows(tx: Tx, table: keyof typeof WINDOWED, since: Date): Promise<void> {
  await tx`delete from ${tx(table)} where ctid in (${expiredRows(tx, table, since)})`;
}

/** Ended things (sessions, reset links) removed by one transaction at most, each with its stream. */
export const REMOVED_AT_ONCE = 50;

/**
 * Runs `batch` (which removes at most {@link REMOVED_AT_ONCE} ended things and says how many)
 * in transactions of its own until one removes fewer; returns how many went in all. Each
 * first takes the events' table, as a rebuild does before it empties a read model: the
 * other way round (a read model's rows, then the events) the two deadlocked.
 */
export async function removeInBatches(sql: Sql, batch: (tx: Tx) => Promise<number>): Promise<number> {
  let removed = 0;
  for (;;) {
    const count = (await sql.begin(async (tx) => {
      await tx`lock table events in row exclusive mode`;
      return batch(tx);
    })) as number;
    removed += count;
    if (count < REMOVED_AT_ONCE) return removed;
  }
}
