import type { SleepLog } from '@sleepweave/contracts';
import { findDirectoryUser, type Sql } from '@sleepweave/service-kit';
import { SLEEP_LOG_SELECT, toSleepLog, type SleepLogRow } from '../sleep-logs/columns.ts';

/** How many nights one database round trip brings: a page of the cursor. */
export const NIGHTS_PAGE = 64;

/** How many nights she logged from `start` to `end` (both included). */
export async function countNights(sql: Sql, userId: string, start: string, end: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from sleep_logs where user_id = ${userId} and date between ${start} and ${end}`;
  return row?.n ?? 0;
}

/**
 * Her nights from `start` to `end`, oldest first, a page at a time through a cursor: the
 * export never holds more than one page of nights.
 */
export async function* readNights(sql: Sql, userId: string, start: string, end: string): AsyncGenerator<SleepLog> {
  const columns = sql.unsafe(SLEEP_LOG_SELECT);
  const cursor = sql<SleepLogRow[]>`
    select ${columns} from sleep_logs
    where user_id = ${userId} and date between ${start} and ${end}
    order by sleep_logs.date`.cursor(NIGHTS_PAGE);
  for await (const rows of cursor) for (const row of rows) yield toSleepLog(row);
}

/** Who the export is for: her name, her timezone and the first day of her study (null without consent). */
export interface ExportSubject {
  userId: string;
  name: string;
  timezone: string;
  studyStartDate: string | null;
  consentVersion: string | null;
}

export async function findExportSubject(sql: Sql, userId: string): Promise<ExportSubject | undefined> {
  const user = await findDirectoryUser(sql, userId);
  if (!user) return undefined;
  const [consent] = await sql<{ study_start_date: string; consent_version: string }[]>`
    select study_start_date::text as study_start_date, consent_version from consents where user_id = ${userId}`;
  return {
    userId,
    name: `${user.firstName} ${user.lastName}`.trim(),
    timezone: user.timezone,
    studyStartDate: consent?.study_start_date ?? null,
    consentVersion: consent?.consent_version ?? null,
  };
}
