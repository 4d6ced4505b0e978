import type { JournalEntry } from '@sleepweave/contracts';
import type { Sql, Tx } from '@sleepweave/event-store';
import { cursorPart, toPage } from '@sleepweave/service-kit';
import { z } from 'zod';

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

/** How many entries a page carries by default and at most: a year of daily entries (docs/decisions.md, Journal). */
export const JOURNAL_LIST_LIMIT = 365;

/** A journal list cursor: the last entry's sort key (day, written at, id). */
export const JournalCursor = z.tuple([cursorPart.date, cursorPart.instant, z.uuid()]);
export type JournalCursor = z.infer<typeof JournalCursor>;

/**
 * Her entries, newest first (latest day first; within a day, the latest written first):
 * `limit` of them after `cursor`, one range of the (user, date, created_at, id) index.
 * The sort names the table's columns: `date` alone would be the `date::text` output
 * column, and sorting by it read and sorted all her rows (issue #16).
 */
export async function listEntriesOf(
  sql: Sql,
  userId: string,
  page: { limit: number; cursor?: JournalCursor } = { limit: JOURNAL_LIST_LIMIT },
): Promise<{ items: JournalEntry[]; next: string | null }> {
  const c = page.cursor;
  const rows = await sql<EntryRow[]>`
    select e.id, e.date::text as date, e.affirmation, e.gratitude, e.forgiveness, e.created_at
    from journal_entries e
    where e.user_id = ${userId}
      ${c ? sql`and (e.date, e.created_at, e.id) < (${c[0]}::date, ${c[1]}::timestamptz, ${c[2]}::uuid)` : sql``}
    order by e.date desc, e.created_at desc, e.id desc
    limit ${page.limit + 1}`;
  const { items, next } = toPage(rows, page.limit, (row) => [row.date, row.created_at.toISOString(), row.id]);
  return { items: items.map(toEntry), next };
}

export async function findEntry(sql: Sql | Tx, userId: string, entryId: string): Promise<JournalEntry | undefined> {
  const [row] = await (sql as Sql)<EntryRow[]>`
    select id, date::text as date, affirmation, gratitude, forgiveness, created_at
    from journal_entries
    where user_id = ${userId} and id = ${entryId}`;
  return row ? toEntry(row) : undefined;
}
