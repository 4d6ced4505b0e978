import type { JournalEntry } from '@sleepweave/contracts';
import type { Sql, Tx } from '@sleepweave/event-store';

interface EntryRow {
  id: string;
  date: string;
  affirmation: string;
  gratitude: string;
  forgiveness: string;
  created_at: Date;
}

const toEntry = (row: EntryRow): JournalEntry => ({
  id: row.id,
  date: row.date,
  affirmation: row.affirmation,
  gratitude: row.gratitude,
  forgiveness: row.forgiveness,
  createdAt: row.created_at.toISOString(),
});

/** How many entries the list carries: a year of daily entries (docs/decisions.md, Journal). */
export const JOURNAL_LIST_LIMIT = 365;

/**
 * Her newest JOURNAL_LIST_LIMIT entries, newest first (latest day first; within a day,
 * the latest written first).
 */
export async function listEntriesOf(sql: Sql, userId: string): Promise<JournalEntry[]> {
  const rows = await sql<EntryRow[]>`
    select id, date::text as date, affirmation, gratitude, forgiveness, created_at
    from journal_entries
    where user_id = ${userId}
    order by date desc, created_at desc, id desc
    limit ${JOURNAL_LIST_LIMIT}`;
  return rows.map(toEntry);
}

export async function findEntry(sql: Sql | Tx, userId: string, entryId: string): Promise<JournalEntry | undefined> {
  const [row] = await (sql as Sql)<EntryRow[]>`
    select id, date::text as date, affirmation, gratitude, forgiveness, created_at
    from journal_entries
    where user_id = ${userId} and id = ${entryId}`;
  return row ? toEntry(row) : undefined;
}
