import { defineProjection } from '@sleepweave/event-store';
import type { JournalEntryEvent } from './journal-entry.ts';

/** The `journal_entries` read model (GET /api/journal/entries). */
export const journalEntriesProjection = defineProjection<JournalEntryEvent>({
  name: 'journal_entries',
  tables: ['journal_entries'],
  handles: ['JournalEntryWritten'],
  async apply(tx, event) {
    switch (event.type) {
      case 'JournalEntryWritten': {
        const d = event.data;
        await tx`
          insert into journal_entries (id, user_id, date, affirmation, gratitude, forgiveness, created_at)
          values (${d.entryId}, ${d.userId}, ${d.date}, ${d.affirmation}, ${d.gratitude}, ${d.forgiveness}, ${d.writtenAt})`;
        return;
      }
    }
  },
});
