import { defineConsumer, lockDirectoryRowForEvent } from '@sleepweave/service-kit';

/** journal.entry.written -> `research_journal_entries`: that she wrote on a day (never what). */
export const journalEntries = () =>
  defineConsumer({
    name: 'research-export-journal-entries',
    types: ['journal.entry.written'],
    tables: ['research_journal_entries'],
    async handle(tx, envelope) {
      const { entryId, userId, date } = envelope.data;
      if (!(await lockDirectoryRowForEvent(tx, userId))) return;
      await tx`
        insert into research_journal_entries (entry_id, user_id, date) values (${entryId}, ${userId}, ${date})
        on conflict (entry_id) do nothing`;
    },
  });
