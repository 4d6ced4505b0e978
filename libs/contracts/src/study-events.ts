import { z } from 'zod';
import { CalendarDate, Uuid } from './common.ts';
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
  breathingRegularity: z.string().nullable(),
  lowestHr: z.number().nullable(),
  avgHrv: z.number().nullable(),
  sleepQuality110: z.number().nullable(),
  restfulnessSelf: z.number().nullable(),
  morningMood: z.string().nullable(),
  dreamRecall: z.boolean().nullable(),
  fabricComfort: z.string().nullable(),
  emotionalCalm: z.number().nullable(),
  heatWave: z.boolean().nullable(),
  heatWakeups: z.number().nullable(),
  comments: z.string().nullable(),
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
