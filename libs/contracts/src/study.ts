import { z } from 'zod';
import { CalendarDate, textError, Uuid } from './common.ts';
import { SLEEP_LOG_FIELDS, sleepLogInputShape, sleepLogStoredShape } from './sleep-log-fields.ts';
import { ConsentVersion, SleepwearMaterial, StudyPhase } from './study-protocol.ts';

/**
 * HTTP payloads of the study service (/api/sleep/*). Ranges: docs/product.md §5, and the
 * plausibility limits documented in docs/study-protocol.md.
 */

/** docs/product.md §5: the sleep quality slider's labels. */
export function sleepQualityLabel(value: number): 'Excellent' | 'Good' | 'Fair' | 'Poor' {
  if (value >= 8) return 'Excellent';
  if (value >= 6) return 'Good';
  if (value >= 4) return 'Fair';
  return 'Poor';
}

/** Every sleep-log field of docs/product.md §3 except id, userId, date and createdAt; all optional. */
export const SleepLogFields = z.object(sleepLogInputShape);
export type SleepLogFieldsInput = z.infer<typeof SleepLogFields>;

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
export const SleepLogDate = z
  .string({ error: textError('Date is required', 'Date') })
  .min(1, 'Date is required')
  .pipe(CalendarDate);

/** POST /api/sleep/log and PUT /api/sleep/log/{id}: the fields plus the date. */
export const SleepLogInput = SleepLogFields.extend({ date: SleepLogDate });
export type SleepLogInput = z.infer<typeof SleepLogInput>;
/**
 * PUT /api/sleep/log/{id}: the same body, and optionally the `updatedAt` of the night as the
 * form was filled from it. The night saved since (another tab, another device) answers 409
 * `changed_meanwhile` instead of replacing that save unseen; without it the later save
 * replaces the earlier, as before.
 */
export const SleepLogUpdate = SleepLogInput.extend({
  expectedUpdatedAt: z.iso.datetime({ message: "Must be the night's updatedAt as it was loaded" }).optional(),
});
export type SleepLogUpdate = z.infer<typeof SleepLogUpdate>;

/** A stored sleep log: every field (null when not recorded) and the night's study day and phase. */
export const SleepLog = z.object({
  id: Uuid,
  userId: Uuid,
  date: CalendarDate,
  studyDay: z.number().int(),
  phase: StudyPhase,
  recommendedMaterial: SleepwearMaterial,
  ...sleepLogStoredShape,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SleepLog = z.infer<typeof SleepLog>;
/** GET /api/sleep/logs: newest night first. */
export const SleepLogList = z.array(SleepLog);
/** The most nights a page of GET /api/sleep/logs carries (`?limit=`): a year. */
export const SLEEP_LOG_PAGE_MAX = 366;
export type SleepLogList = z.infer<typeof SleepLogList>;

/** GET /api/sleep/log/{date} */
export const SleepLogDateParams = z.object({ date: CalendarDate });
/** PUT /api/sleep/log/{id} */
export const SleepLogIdParams = z.object({ id: Uuid });

/** POST /api/sleep/consent: an empty body records the current version. */
export const ConsentRequest = z.object({ consentVersion: ConsentVersion.optional() });
export type ConsentRequest = z.infer<typeof ConsentRequest>;

/** GET/POST /api/sleep/consent (docs/product.md §3: consent status has hasConsent). */
export const ConsentStatus = z.object({
  hasConsent: z.boolean(),
  consentVersion: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  /** Day 1 of her study: the day of consent in her timezone. */
  studyStartDate: CalendarDate.nullable(),
});
export type ConsentStatus = z.infer<typeof ConsentStatus>;
