import { defineConsumer, lockDirectoryRowForEvent, userOrderKey } from '@sleepweave/service-kit';
import { JOURNAL_ACTIVITY_TABLE, refreshJournalActivity } from '../admin/activity.ts';

/** journal.entry.written -> `research_journal_entries`: that she wrote on a day (never what). */
export const journalEntries = () =>
  defineConsumer({
    name: 'research-export-journal-entries',
    types: ['journal.entry.written'],
    // and her count and last entry for the admin dashboard
    tables: ['research_journal_entries', JOURNAL_ACTIVITY_TABLE],
    // her rows only, which the directory's and the other research consumers lock too (her last
    // activity, her place in the admin list): all take users in one order
    orderKey: (envelope) => userOrderKey(envelope.data.userId),
    async handle(tx, envelope) {
      const { entryId, userId, date, writtenAt } = envelope.data;
      if (!(await lockDirectoryRowForEvent(tx, userId))) return;
      const inserted = await tx`
        insert into research_journal_entries (entry_id, user_id, date) values (${entryId}, ${userId}, ${date})
        on conflict (entry_id) do nothing returning entry_id`;
      await refreshJournalActivity(tx, userId, writtenAt, inserted.length > 0);
    },
  });
