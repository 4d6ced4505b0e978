import type { SleepLog, SleepLogValues } from '@sleepweave/contracts';

/** Each sleep-log field and its column in the `sleep_logs` read model. */
export const FIELD_COLUMNS = {
  sleepwearMaterial: 'sleepwear_material',
  sleepScore: 'sleep_score',
  totalSleepMinutes: 'total_sleep_minutes',
  sleepEfficiency: 'sleep_efficiency',
  timeInBedMinutes: 'time_in_bed_minutes',
  restingHr: 'resting_hr',
  restfulness: 'restfulness',
  remMinutes: 'rem_minutes',
  deepMinutes: 'deep_minutes',
  latencyMinutes: 'latency_minutes',
  timingScore: 'timing_score',
  avgSpo2: 'avg_spo2',
  breathingRegularity: 'breathing_regularity',
  lowestHr: 'lowest_hr',
  avgHrv: 'avg_hrv',
  sleepQuality110: 'sleep_quality_1_10',
  restfulnessSelf: 'restfulness_self',
  morningMood: 'morning_mood',
  dreamRecall: 'dream_recall',
  fabricComfort: 'fabric_comfort',
  emotionalCalm: 'emotional_calm',
  heatWave: 'heat_wave',
  heatWakeups: 'heat_wakeups',
  comments: 'comments',
} as const satisfies Record<keyof SleepLogValues, string>;

type FieldKey = keyof typeof FIELD_COLUMNS;

export type SleepLogRow = {
  id: string;
  user_id: string;
  date: string;
  study_day: number;
  phase: SleepLog['phase'];
  recommended_material: SleepLog['recommendedMaterial'];
  created_at: Date;
  updated_at: Date;
} & Record<(typeof FIELD_COLUMNS)[FieldKey], unknown>;

/** The field values as columns, for an insert or update. */
export function toColumns(values: SleepLogValues): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(FIELD_COLUMNS)) row[column] = values[field as FieldKey];
  return row;
}

export function toSleepLog(row: SleepLogRow): SleepLog {
  const fields: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(FIELD_COLUMNS)) fields[field] = row[column as keyof SleepLogRow] ?? null;
  return {
    id: row.id,
    userId: row.user_id,
    date: row.date,
    studyDay: row.study_day,
    phase: row.phase,
    recommendedMaterial: row.recommended_material,
    ...(fields as SleepLogValues),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
