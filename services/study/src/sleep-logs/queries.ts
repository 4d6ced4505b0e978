import { cursorPart, toPage, type Sql } from '@sleepweave/service-kit';
import { z } from 'zod';
import { SLEEP_LOG_SELECT, type SleepLogRow } from './columns.ts';

const columns = (sql: Sql) => sql.unsafe(SLEEP_LOG_SELECT);

/**
 * How many nights a page carries by default: more than the whole study (42 nights and
 * what she logged around it), which the dashboard and the charts show; at most a year.
 */
export const SLEEP_LOG_PAGE_DEFAULT = 100;

/** A sleep-log list cursor: the last night's date (one log a night). */
export const SleepLogCursor = z.tuple([cursorPart.date]);
export type SleepLogCursor = z.infer<typeof SleepLogCursor>;

/**
 * Her nights, newest first: `limit` of them before the cursor's night, one range of the
 * unique (user_id, date) index. The sort names the table's column (`date` alone would be
 * the `date::text` output column, which no index serves).
 */
export async function listSleepLogs(
  sql: Sql,
  userId: string,
  page: { limit: number; cursor?: SleepLogCursor } = { limit: SLEEP_LOG_PAGE_DEFAULT },
): Promise<{ items: SleepLogRow[]; next: string | null }> {
  const rows = await sql<SleepLogRow[]>`
    select ${columns(sql)} from sleep_logs
    where user_id = ${userId} ${page.cursor ? sql`and sleep_logs.date < ${page.cursor[0]}::date` : sql``}
    order by sleep_logs.date desc
    limit ${page.limit + 1}`;
  return toPage(rows, page.limit, (row) => [row.date]);
}

export async function findSleepLogByDate(sql: Sql, userId: string, date: string): Promise<SleepLogRow | undefined> {
  const [row] = await sql<SleepLogRow[]>`select ${columns(sql)} from sleep_logs where user_id = ${userId} and date = ${date}`;
  return row;
}

/** Only her own: another participant's log id finds nothing. */
export async function findSleepLogById(sql: Sql, userId: string, id: string): Promise<SleepLogRow | undefined> {
  const [row] = await sql<SleepLogRow[]>`select ${columns(sql)} from sleep_logs where user_id = ${userId} and id = ${id}`;
  return row;
}
