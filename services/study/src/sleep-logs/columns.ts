import { SLEEP_LOG_FIELD_LIST, type SleepLog, type SleepLogValues } from '@sleepweave/contracts';

/** The select list of a night as `toSleepLog` reads it. */
export const SLEEP_LOG_SELECT = [
  'id',
  'user_id',
  'date::text as date',
  'study_day',
  'phase',
  'recommended_material',
  // the fields' columns, in the field list's order
  ...SLEEP_LOG_FIELD_LIST.map((spec) => spec.column),
  'created_at',
  'updated_at',
].join(', ');

export type SleepLogRow = {
  id: string;
  user_id: string;
  date: string;
  study_day: number;
  phase: SleepLog['phase'];
  recommended_material: SleepLog['recommendedMaterial'];
  created_at: Date;
  updated_at: Date;
} & Record<string, unknown>;

/** The field values as columns, for an insert or update. */
export function toColumns(values: SleepLogValues): Record<string, unknown> {
  return Object.fromEntries(SLEEP_LOG_FIELD_LIST.map((spec) => [spec.column, values[spec.key] ?? null]));
}

/** A row as the API's SleepLog (built field by field: it runs for every night of every answer). */
export function toSleepLog(row: SleepLogRow): SleepLog {
  const log: Record<string, unknown> = {
    id: row.id,
    userId: row.user_id,
    date: row.date,
    studyDay: row.study_day,
    phase: row.phase,
    recommendedMaterial: row.recommended_material,
  };
  for (const spec of SLEEP_LOG_FIELD_LIST) log[spec.key] = row[spec.column] ?? null;
  log.createdAt = row.created_at.toISOString();
  log.updatedAt = row.updated_at.toISOString();
  return log as SleepLog;
}
