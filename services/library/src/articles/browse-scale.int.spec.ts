/**
 * Browsing a library of 5,000 cards (issue #16, growth): a page deep in the list reads what
 * the first does, one range of library_cards_browse, and sorts nothing; the pages, walked
 * from the first, give every card once, in the list's order, cards of one instant included.
 * The cards are written straight into the read model (what the projection would write).
 */
import { LIBRARY_CATEGORIES } from '@sleepweave/contracts';
import { explainAnalyze, rowsRead } from '@sleepweave/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLibrary, type Library } from '../test/helpers.ts';
import { browseCardsQuery, listCards } from './queries.ts';

const CARDS = 5_000;
const PAGE = 100;

let library: Library;
beforeAll(async () => {
  library = await startLibrary();
  const { sql } = library.deps;
  // three cards an instant (ties broken by category, title and id), every category
  await sql`
    insert into library_cards (id, category, title, summary, body_html, body_text, image_path, tags, created_at, updated_at)
    select gen_random_uuid(), (${sql.array([...LIBRARY_CATEGORIES])}::text[])[1 + i % 3], 'Card ' || (i % 17), 'Summary', '<p>Body</p>', 'Body',
      '/library/fabric.svg', '{}', timestamptz '2026-01-01' + (i / 3) * interval '1 minute', now()
    from generate_series(1, ${CARDS}) i`;
  await sql`analyze library_cards`;
}, 60_000);
afterAll(async () => {
  await library?.cleanup();
});

describe('browsing the library', () => {
  it('ranks the categories in the order the library lists them', async () => {
    const rows = await library.deps.sql<{ category: string; category_rank: number }[]>`
      select distinct category, category_rank from library_cards order by category_rank`;
    expect(rows.map((r) => r.category)).toEqual([...LIBRARY_CATEGORIES]);
    expect(rows.map((r) => r.category_rank)).toEqual([1, 2, 3]);
  });

  it('gives every card once, in order, page by page', async () => {
    const { sql } = library.deps;
    const all = await sql<{ id: string }[]>`select id from library_cards order by created_at desc, category_rank, title, id`;
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listCards(sql, undefined, { limit: PAGE, cursor });
      walked.push(...page.items.map((card) => card.id));
      cursor = page.next ?? undefined;
    } while (cursor);
    expect(walked).toEqual(all.map((r) => r.id));
  });

  it('reads one page of the index for a page deep in the list, and sorts nothing', async () => {
    const { sql } = library.deps;
    let cursor: string | undefined;
    for (let page = 0; page < 40; page++) cursor = (await listCards(sql, undefined, { limit: PAGE, cursor })).next ?? undefined;
    expect(cursor).toBeDefined();
    const plan = await explainAnalyze(sql, browseCardsQuery(sql, PAGE, cursor));
    expect(plan.filter((node) => node['Node Type'].includes('Sort'))).toEqual([]);
    expect(plan.filter((node) => node['Relation Name'] === 'library_cards').map((node) => node['Node Type'])).toEqual(['Index Scan']);
    // read: the page and the next one's first, and the cards of the cursor's instant before
    // it (three an instant), which the filter passes over
    const read = rowsRead(plan);
    expect(read.map(([table]) => table)).toEqual(['library_cards']);
    expect(read[0]![1]).toBeLessThanOrEqual(PAGE + 1 + 3);
  });
});
