import { SLEEP_LOG_FIELD_LIST, type SleepLog, type SleepLogValues } from '@sleepweave/contracts';

/** The `sleep_logs` columns of the fields, in the field list's order. */
export const FIELD_COLUMNS = SLEEP_LOG_FIELD_LIST.map((spec) => spec.column);

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

export function toSleepLog(row: SleepLogRow): SleepLog {
  const fields = Object.fromEntries(SLEEP_LOG_FIELD_LIST.map((spec) => [spec.key, row[spec.column] ?? null])) as SleepLogValues;
  return {
    id: row.id,
    userId: row.user_id,
    date: row.date,
    studyDay: row.study_day,
    phase: row.phase,
    recommendedMaterial: row.recommended_material,
    ...fields,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
