import type { Sql } from '@sleepweave/service-kit';
import { FIELD_COLUMNS, type SleepLogRow } from './columns.ts';

const columns = (sql: Sql) =>
  sql.unsafe(
    [
      'id',
      'user_id',
      'date::text as date',
      'study_day',
      'phase',
      'recommended_material',
      ...FIELD_COLUMNS,
      'created_at',
      'updated_at',
    ].join(', '),
  );

/** Her nights, newest first. */
export async function listSleepLogs(sql: Sql, userId: string): Promise<SleepLogRow[]> {
  return sql<SleepLogRow[]>`select ${columns(sql)} from sleep_logs where user_id = ${userId} order by date desc`;
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
