import type { JournalEntry } from '@sleepweave/contracts';
import { findDirectoryUser, type Sql } from '@sleepweave/service-kit';

/** How many entries one database round trip brings. */
export const ENTRIES_PAGE = 64;

export interface JournalSpan {
  entries: number;
  first: string | null;
  last: string | null;
}

export async function journalSpan(sql: Sql, userId: string): Promise<JournalSpan> {
  const [row] = await sql<{ entries: number; first: string | null; last: string | null }[]>`
    select count(*)::int as entries, min(date)::text as first, max(date)::text as last
    from journal_entries where user_id = ${userId}`;
  return row ?? { entries: 0, first: null, last: null };
}

/** Every entry she wrote, oldest first (by day, then as written), a page at a time through a cursor. */
export async function* readEntries(sql: Sql, userId: string): AsyncGenerator<JournalEntry> {
  const cursor = sql<{ id: string; date: string; affirmation: string; gratitude: string; forgiveness: string; created_at: Date }[]>`
    select id, date::text as date, affirmation, gratitude, forgiveness, created_at
    from journal_entries where user_id = ${userId}
    order by journal_entries.date, created_at, id`.cursor(ENTRIES_PAGE);
  for await (const rows of cursor) {
    for (const row of rows) {
      yield {
        id: row.id,
        date: row.date,
        affirmation: row.affirmation,
        gratitude: row.gratitude,
        forgiveness: row.forgiveness,
        createdAt: row.created_at.toISOString(),
      };
    }
  }
}

/** Her name and timezone, from the journal's user directory. */
export async function findAuthor(sql: Sql, userId: string): Promise<{ name: string; timezone: string } | undefined> {
  const user = await findDirectoryUser(sql, userId);
  return user ? { name: `${user.firstName} ${user.lastName}`.trim(), timezone: user.timezone } : undefined;
}
