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

/** Her entries only, newest first (latest day first; within a day, the latest written first). */
export async function listEntriesOf(sql: Sql, userId: string): Promise<JournalEntry[]> {
  const rows = await sql<EntryRow[]>`
    select id, date::text as date, affirmation, gratitude, forgiveness, created_at
    from journal_entries
    where user_id = ${userId}
    order by date desc, created_at desc, id desc`;
  return rows.map(toEntry);
}

export async function findEntry(sql: Sql | Tx, userId: string, entryId: string): Promise<JournalEntry | undefined> {
  const [row] = await (sql as Sql)<EntryRow[]>`
    select id, date::text as date, affirmation, gratitude, forgiveness, created_at
    from journal_entries
    where user_id = ${userId} and id = ${entryId}`;
  return row ? toEntry(row) : undefined;
}

/**
 * Her timezone from the user directory, with a share lock held until the transaction
 * ends: a concurrent `identity.user.deleted` (which deletes this row first, then her
 * entries) waits for our append, or we wait for it and find no row. Either way no entry
 * of a deleted user survives.
 */
export async function lockDirectoryTimezone(tx: Tx, userId: string): Promise<string | undefined> {
  const [row] = await tx<{ timezone: string }[]>`
    select timezone from user_directory where user_id = ${userId} for share`;
  return row?.timezone;
}
