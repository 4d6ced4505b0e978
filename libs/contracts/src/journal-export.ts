import { z } from 'zod';

/**
 * Her journal, to take with her: `GET /api/journal/export?format=pdf|md` (the journal
 * screen's Export buttons). Every entry she wrote, oldest first.
 */
export const JournalExportFormat = z.enum(['pdf', 'md'], { error: 'Format must be pdf or md.' });
export type JournalExportFormat = z.infer<typeof JournalExportFormat>;

export const JournalExportQuery = z.object({ format: JournalExportFormat });
export type JournalExportQuery = z.infer<typeof JournalExportQuery>;

/** The answer (404) when there is nothing to export: said on the screen, never an empty file. */
export const NO_JOURNAL_ENTRIES_MESSAGE = 'You have no journal entries to export yet.';

/** `sleepweave-journal-2025-03-14.md`: dated with the day she exported it (her calendar day). */
export function journalExportFileName(format: JournalExportFormat, today: string): string {
  return `sleepweave-journal-${today}.${format}`;
}
