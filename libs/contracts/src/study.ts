import { z } from 'zod';
import { CalendarDate, Uuid } from './common.ts';
import { MAX_DURATION_MINUTES } from './durations.ts';
import { ConsentVersion, SleepwearMaterial, StudyPhase } from './study-protocol.ts';

/**
 * HTTP payloads of the study service (/api/sleep/*). Ranges: section 5, and the
 * plausibility limits documented in docs/study-protocol.md.
 */

/** Section 3 enumeration mood. */
export const Mood = z.enum(['Refreshed', 'Groggy', 'Energetic', 'Tired']);
export type Mood = z.infer<typeof Mood>;
/** Section 3 enumeration fabric_comfort. */
export const FabricComfort = z.enum(['Very Comfortable', 'Comfortable', 'Neutral', 'Uncomfortable']);
export type FabricComfort = z.infer<typeof FabricComfort>;
/** The ring's breathing-regularity reading, as a label (docs/study-protocol.md). */
export const BreathingRegularity = z.enum(['Optimal', 'Good', 'Fair', 'Pay attention']);
export type BreathingRegularity = z.infer<typeof BreathingRegularity>;

/** Section 5: the sleep quality slider, 1-10, default 7, with its labels. */
export const SLEEP_QUALITY_DEFAULT = 7;
export function sleepQualityLabel(value: number): 'Excellent' | 'Good' | 'Fair' | 'Poor' {
  if (value >= 8) return 'Excellent';
  if (value >= 6) return 'Good';
  if (value >= 4) return 'Fair';
  return 'Poor';
}

/** Plausibility limits the server enforces (and the form shows). */
export const SLEEP_LOG_LIMITS = {
  heartRate: { min: 20, max: 250 },
  spo2: { min: 50, max: 100 },
  hrv: { min: 0, max: 300 },
  heatWakeups: { max: 50 },
  comments: { max: 2000 },
} as const;

const between = (label: string, min: number, max: number, unit?: string) =>
  `${label} must be between ${min} and ${max}${unit ? ` ${unit}` : ''}`;

const wholeNumber = (label: string, min: number, max: number, unit?: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, between(label, min, max, unit))
    .max(max, between(label, min, max, unit))
    .nullish();

const decimal = (label: string, min: number, max: number, unit?: string) =>
  z
    .number({ error: `${label} must be a number` })
    .min(min, between(label, min, max, unit))
    .max(max, between(label, min, max, unit))
    .nullish();

const duration = (label: string) =>
  z
    .number({ error: `${label} must be a number of minutes` })
    .int(`${label} must be whole minutes`)
    .min(0, `${label} cannot be negative`)
    .max(MAX_DURATION_MINUTES, `${label} can be at most 24h`)
    .nullish();

const { heartRate, spo2, hrv } = SLEEP_LOG_LIMITS;

/** Every sleep-log field of section 3 except id, userId, date and createdAt; all optional. */
export const SleepLogFields = z.object({
  sleepwearMaterial: SleepwearMaterial.nullish(),
  sleepScore: wholeNumber('Sleep score', 0, 100),
  totalSleepMinutes: duration('Total sleep'),
  sleepEfficiency: decimal('Sleep efficiency', 0, 100, '%'),
  timeInBedMinutes: duration('Time in bed'),
  restingHr: wholeNumber('Resting heart rate', heartRate.min, heartRate.max, 'bpm'),
  restfulness: wholeNumber('Restfulness', 0, 100),
  remMinutes: duration('REM sleep'),
  deepMinutes: duration('Deep sleep'),
  latencyMinutes: duration('Time to fall asleep'),
  timingScore: wholeNumber('Timing', 0, 100),
  avgSpo2: decimal('Average SpO2', spo2.min, spo2.max, '%'),
  breathingRegularity: BreathingRegularity.nullish(),
  lowestHr: wholeNumber('Lowest heart rate', heartRate.min, heartRate.max, 'bpm'),
  avgHrv: decimal('Average HRV', hrv.min, hrv.max, 'ms'),
  sleepQuality110: wholeNumber('Sleep quality', 1, 10),
  restfulnessSelf: wholeNumber('How rested you feel', 1, 10),
  morningMood: Mood.nullish(),
  dreamRecall: z.boolean({ error: 'Dream recall must be yes or no' }).nullish(),
  fabricComfort: FabricComfort.nullish(),
  emotionalCalm: wholeNumber('Emotional calm', 1, 10),
  heatWave: z.boolean({ error: 'Heat wave must be yes or no' }).nullish(),
  heatWakeups: wholeNumber('Heat wake-ups', 0, SLEEP_LOG_LIMITS.heatWakeups.max),
  comments: z
    .string({ error: 'Comments must be text' })
    .trim()
    .max(SLEEP_LOG_LIMITS.comments.max, `Comments must be at most ${SLEEP_LOG_LIMITS.comments.max} characters`)
    .nullish(),
});
export type SleepLogFieldsInput = z.infer<typeof SleepLogFields>;
export const SLEEP_LOG_FIELDS = Object.keys(SleepLogFields.shape) as (keyof SleepLogFieldsInput)[];

/** Every field present, `null` when not recorded (how the service stores a night). */
export type SleepLogValues = { [K in keyof SleepLogFieldsInput]-?: Exclude<SleepLogFieldsInput[K], undefined> };

/** Missing fields become null; empty comments too. */
export function toSleepLogValues(input: SleepLogFieldsInput): SleepLogValues {
  const values = {} as Record<string, unknown>;
  for (const key of SLEEP_LOG_FIELDS) {
    const value = input[key];
    values[key] = value === undefined || value === '' ? null : value;
  }
  return values as SleepLogValues;
}

/** The night a log is for: a real calendar date. */
export const SleepLogDate = z.string({ error: 'Date is required' }).min(1, 'Date is required').pipe(CalendarDate);

/** POST /api/sleep/log and PUT /api/sleep/log/{id}: the fields plus the date. */
export const SleepLogInput = SleepLogFields.extend({ date: SleepLogDate });
export type SleepLogInput = z.infer<typeof SleepLogInput>;

/** A stored sleep log: every field (null when not recorded) and the night's study day and phase. */
export const SleepLog = z.object({
  id: Uuid,
  userId: Uuid,
  date: CalendarDate,
  studyDay: z.number().int(),
  phase: StudyPhase,
  recommendedMaterial: SleepwearMaterial,
  sleepwearMaterial: SleepwearMaterial.nullable(),
  sleepScore: z.number().nullable(),
  totalSleepMinutes: z.number().nullable(),
  sleepEfficiency: z.number().nullable(),
  timeInBedMinutes: z.number().nullable(),
  restingHr: z.number().nullable(),
  restfulness: z.number().nullable(),
  remMinutes: z.number().nullable(),
  deepMinutes: z.number().nullable(),
  latencyMinutes: z.number().nullable(),
  timingScore: z.number().nullable(),
  avgSpo2: z.number().nullable(),
  breathingRegularity: BreathingRegularity.nullable(),
  lowestHr: z.number().nullable(),
  avgHrv: z.number().nullable(),
  sleepQuality110: z.number().nullable(),
  restfulnessSelf: z.number().nullable(),
  morningMood: Mood.nullable(),
  dreamRecall: z.boolean().nullable(),
  fabricComfort: FabricComfort.nullable(),
  emotionalCalm: z.number().nullable(),
  heatWave: z.boolean().nullable(),
  heatWakeups: z.number().nullable(),
  comments: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SleepLog = z.infer<typeof SleepLog>;
/** GET /api/sleep/logs: newest night first. */
export const SleepLogList = z.array(SleepLog);
export type SleepLogList = z.infer<typeof SleepLogList>;

/** GET /api/sleep/log/{date} */
export const SleepLogDateParams = z.object({ date: CalendarDate });
/** PUT /api/sleep/log/{id} */
export const SleepLogIdParams = z.object({ id: Uuid });

/** POST /api/sleep/consent: an empty body records the current version. */
export const ConsentRequest = z.object({ consentVersion: ConsentVersion.optional() });
export type ConsentRequest = z.infer<typeof ConsentRequest>;

/** GET/POST /api/sleep/consent (section 3: consent status has hasConsent). */
export const ConsentStatus = z.object({
  hasConsent: z.boolean(),
  consentVersion: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  /** Day 1 of her study: the day of consent in her timezone. */
  studyStartDate: CalendarDate.nullable(),
});
export type ConsentStatus = z.infer<typeof ConsentStatus>;
