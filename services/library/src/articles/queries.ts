import { LIBRARY_CATEGORIES, type LibraryArticle, type LibraryCard, type LibraryCategory } from '@sleepweave/contracts';
import type { Sql } from '@sleepweave/service-kit';
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
    imagePath: row.image_path,
    tags: row.tags,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * The cards for the library grid. With words to search: those matching every word as a
 * prefix (stemmed English or as typed), best match first (ts_rank with the weights of the
 * generated `search` column: title A, tags and category B, summary C, body D). Without:
 * all cards, newest first, then by category and title.
 */
export async function listCards(sql: Sql, search: string | undefined): Promise<LibraryCard[]> {
  const tsquery = search === undefined ? null : buildPrefixTsQuery(search);
  if (tsquery === null) {
    const rows = await sql<CardRow[]>`
      select ${cardColumns(sql)} from library_cards
      order by created_at desc, array_position(${sql.array([...LIBRARY_CATEGORIES])}::text[], category), title, id`;
    return rows.map(toCard);
  }
  const rows = await sql<CardRow[]>`
    with q as (select to_tsquery('english', ${tsquery}) || to_tsquery('simple', ${tsquery}) as query)
    select ${cardColumns(sql)} from library_cards, q
    where search @@ q.query
    order by ts_rank(search, q.query) desc, created_at desc, title, id`;
  return rows.map(toCard);
}

export async function findArticle(sql: Sql, id: string): Promise<LibraryArticle | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await sql<ArticleRow[]>`select ${cardColumns(sql)}, body_html from library_cards where id = ${id}`;
  return row ? { ...toCard(row), bodyHtml: row.body_html } : undefined;
}
