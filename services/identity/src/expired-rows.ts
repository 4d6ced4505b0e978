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
