import { z } from 'zod';
import { CalendarDate, Uuid } from './common.ts';

/** Events the study service publishes. */
export const studyEvents = {
  /** The study starts on the day of consent, in the participant's timezone. */
  'study.consent.given': z.object({
    userId: Uuid,
    consentVersion: z.string(),
    acceptedAt: z.string(),
    studyStartDate: CalendarDate,
  }),
} as const;
