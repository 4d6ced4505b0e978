import { z } from 'zod';
import { CalendarDate, Uuid } from './common.ts';

/**
 * Events the journal service publishes. The reflections themselves never leave the
 * journal service: other contexts (admin statistics, research) only need that she wrote.
 */
export const journalEvents = {
  'journal.entry.written': z.object({
    entryId: Uuid,
    userId: Uuid,
    /** Her calendar day (in her timezone) when she wrote it. */
    date: CalendarDate,
    writtenAt: z.string(),
  }),
} as const;
