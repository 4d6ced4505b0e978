import { LIBRARY_IMAGE_PATH, type LibraryArticle, type LibraryCard, type LibraryCategory } from '@sleepweave/contracts';
import { cursorPart, decodeCursor, toPage, type Sql } from '@sleepweave/service-kit';
import { z } from 'zod';
import { sanitizeArticleHtml } from './sanitize.ts';
import { buildPrefixTsQuery } from './search.ts';

interface CardRow {
  id: string;
  category: LibraryCategory;
  title: string;
  summary: string;
  image_path: string;
  tags: string[];
  created_at: Date;
  updated_at: Date;
}
interface ArticleRow extends CardRow {
  body_html: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A string PostgreSQL would accept as a uuid (anything else cannot name an article). */
export const isUuid = (value: string) => UUID.test(value);

const cardColumns = (sql: Sql) => sql`id, category, title, summary, image_path, tags, created_at, updated_at`;

export function toCard(row: CardRow): LibraryCard {
  return {
    id: row.id,
    category: row.category,
    title: row.title,
    summary: row.summary,
    // a path stored before images were limited to the library's own goes as none (the SPA
    // shows its placeholder; a browser fetches nothing for an empty src)
    imagePath: LIBRARY_IMAGE_PATH.test(row.image_path) ? row.image_path : '',
    tags: row.tags,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Cards a page carries by default and at most (docs/architecture.md, Paging). */
export const LIBRARY_PAGE_LIMIT = 100;

/**
 * A library cursor: the last card's sort key. Browsing: (created_at, category rank,
 * title, id); searching: its rank first (float4 as PostgreSQL prints it, which reads back
 * exactly).
 */
// the category's rank is a smallint: a forged one beyond it would be a 500
export const LibraryBrowseCursor = z.tuple([cursorPart.instant, z.number().int().min(-32768).max(32767), z.string(), z.uuid()]);
export const LibrarySearchCursor = z.tuple([cursorPart.real, cursorPart.instant, z.string(), z.uuid()]);
/**
 * A cursor's length at most: it carries a title (200 UTF-16 units, up to 600 bytes of UTF-8
 * in Cyrillic or CJK), some 1,000 characters encoded. The default 500 refused the next page
 * after a title of 150 Cyrillic letters.
 */
export const LIBRARY_CURSOR_MAX = 2_000;

interface RankedRow extends CardRow {
  category_rank: number;
  rank: string;
}

/**
 * Browsing: a page of cards after `cursor`, newest first, then by category and title; one
 * range of library_cards_browse (migration 002): the cards at or before the cursor's
 * instant, less those of that instant up to the cursor (an OR of the two read every card).
 */
export function browseCardsQuery(sql: Sql, limit: number, cursor: string | undefined) {
  const c = cursor === undefined ? undefined : decodeCursor(cursor, LibraryBrowseCursor);
  return sql<RankedRow[]>`
    select ${cardColumns(sql)}, category_rank, '' as rank from library_cards
    ${c ? sql`where created_at <= ${c[0]}::timestamptz and (created_at < ${c[0]}::timestamptz or (category_rank, title, id) > (${c[1]}, ${c[2]}, ${c[3]}::uuid))` : sql``}
    order by created_at desc, category_rank, title, id
    limit ${limit + 1}`;
}

/**
 * The cards for the library grid, `limit` a page after `cursor` (the cursor's shape
 * follows the mode: a browsing cursor is refused in a search and the other way round).
 * With words to search: those matching every word as a prefix (stemmed English or as
 * typed), best match first (ts_rank with the weights of the generated `search` column:
 * title A, tags and category B, summary C, body D). Without: all cards, newest first,
 * then by category and title.
 */
export async function listCards(
  sql: Sql,
  search: string | undefined,
  page: { limit: number; cursor?: string } = { limit: LIBRARY_PAGE_LIMIT },
): Promise<{ items: LibraryCard[]; next: string | null }> {
  const tsquery = search === undefined ? null : buildPrefixTsQuery(search);
  if (tsquery === null) {
    const rows = await browseCardsQuery(sql, page.limit, page.cursor);
    const { items, next } = toPage(rows, page.limit, (r) => [r.created_at.toISOString(), r.category_rank, r.title, r.id]);
    return { items: items.map(toCard), next };
  }
  const c = page.cursor === undefined ? undefined : decodeCursor(page.cursor, LibrarySearchCursor);
  const rows = await sql<RankedRow[]>`
    select * from (
      with q as (select to_tsquery('english', ${tsquery}) || to_tsquery('simple', ${tsquery}) as query)
      select ${cardColumns(sql)}, 0 as category_rank, ts_rank(search, q.query) as rank_value, ts_rank(search, q.query)::text as rank
      from library_cards, q
      where search @@ q.query
    ) found
    ${c ? sql`where rank_value < ${c[0]}::real or (rank_value = ${c[0]}::real and (created_at < ${c[1]}::timestamptz or (created_at = ${c[1]}::timestamptz and (title, id) > (${c[2]}, ${c[3]}::uuid))))` : sql``}
    order by rank_value desc, created_at desc, title, id
    limit ${page.limit + 1}`;
  const { items, next } = toPage(rows, page.limit, (r) => [r.rank, r.created_at.toISOString(), r.title, r.id]);
  return { items: items.map(toCard), next };
}

/**
 * An article with its body. The body was cleaned when it was stored, and is cleaned again
 * here with today's rules (idempotent; 0.3 ms for the longest seed article, 6 ms for the
 * largest body allowed, 100,000 characters): a body stored under older ones, with an image
 * at any path of the site (before 2026-11-29), reaches no reader.
 */
export async function findArticle(sql: Sql, id: string): Promise<LibraryArticle | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await sql<ArticleRow[]>`select ${cardColumns(sql)}, body_html from library_cards where id = ${id}`;
  return row ? { ...toCard(row), bodyHtml: sanitizeArticleHtml(row.body_html) } : undefined;
}
