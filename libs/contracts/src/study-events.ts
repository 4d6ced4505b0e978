import { z } from 'zod';
import { CalendarDate, Uuid } from './common.ts';
import { sleepLogEventShape } from './sleep-log-fields.ts';
import { SleepwearMaterial, StudyPhase } from './study-protocol.ts';

/**
 * One night as research needs it: who, which night, its study day and phase, what she
 * was asked to wear and what she wore, and every metric (null when not recorded).
 * Loose types on purpose: the service validated the values; a later change of a range
 * must not make old events unreadable.
 */
const SleepLogNight = {
  logId: Uuid,
  userId: Uuid,
  date: CalendarDate,
  studyDay: z.number().int(),
  phase: StudyPhase,
  recommendedMaterial: SleepwearMaterial,
  /**
   * The time zone she was in when she first logged the night: it ended at 04:00 there, and
   * research judges when it was recorded by that clock, whatever her zone later. Absent
   * from nights logged before it was carried (research then uses her zone at the run).
   */
  timezone: z.string().optional(),
  ...sleepLogEventShape,
};

/** Events the study service publishes. */
export const studyEvents = {
  /** The study starts on the day of consent, in the participant's timezone. */
  'study.consent.given': z.object({
    userId: Uuid,
    consentVersion: z.string(),
    acceptedAt: z.string(),
    studyStartDate: CalendarDate,
  }),
  /** A night logged for the first time. */
  'study.sleep_log.recorded': z.object({ ...SleepLogNight, recordedAt: z.string() }),
  /** A logged night changed: the whole night as it is now (a consumer overwrites its copy). */
  'study.sleep_log.revised': z.object({ ...SleepLogNight, revisedAt: z.string() }),
} as const;
