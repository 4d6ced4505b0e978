import { LibraryArticleInput } from '@sleepweave/contracts';
import { execute } from '@sleepweave/service-kit';
import type { LibraryContext } from '../context.ts';
import { articleStreamId } from './article.ts';
import { articleDecider } from './business-logic.ts';
import { SEED_ARTICLES, type SeedArticleSource } from './seed/index.ts';

/** Serialises seeding between instances starting at the same time. */
const SEED_LOCK = 'library_seed';

/**
 * Publishes the seed articles (src/articles/seed/) that do not exist yet, each as an
 * `ArticlePublished` event by the system (no user). Run on every start: the first start
 * publishes them all; later starts, and a second instance starting at the same moment
 * (it waits for the lock, then finds every stream), publish nothing. An article an admin
 * has revised since is never overwritten. A seed article added in a later release is
 * published on the next start. Returns the number of articles published.
 */
export async function seedLibrary(
  ctx: Pick<LibraryContext, 'store' | 'sql'>,
  articles: readonly SeedArticleSource[] = SEED_ARTICLES,
  now: Date = new Date(),
): Promise<number> {
  return execute(ctx, { metadata: { correlationId: 'library-seed', userId: null } }, async ({ tx, handle }) => {
    await tx`select pg_advisory_xact_lock(hashtext(${SEED_LOCK}))`;
    let published = 0;
    for (const [index, article] of articles.entries()) {
      const content = LibraryArticleInput.parse(article.content);
      // The library lists the newest first: one millisecond apart, the seed articles keep
      // the reading order of SEED_ARTICLES (the study first).
      const publishedAt = new Date(now.getTime() - index);
      const result = await handle(articleStreamId(article.id), articleDecider, {
        type: 'SeedArticle',
        data: { articleId: article.id, content, now: publishedAt },
      });
      published += result.events.length;
    }
    return published;
  });
}
