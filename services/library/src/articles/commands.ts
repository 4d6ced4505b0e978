import type { EventMetadata, Tx } from '@sleepweave/event-store';
import { accountDeleted, badRequest, execute, notFound, type DomainErrors } from '@sleepweave/service-kit';
import type { LibraryContext } from '../context.ts';
import { articleStreamId } from './article.ts';
import {
  ArticleBodyEmpty,
  ArticleBodyTooDeep,
  ArticleNotFound,
  articleDecider,
  type PublishArticle,
  type ReviseArticle,
} from './business-logic.ts';

export const ARTICLE_NOT_FOUND = "Sorry, we couldn't find the article you're looking for.";

const errors: DomainErrors = [
  [ArticleNotFound, () => notFound(ARTICLE_NOT_FOUND)],
  [ArticleBodyEmpty, (err) => badRequest(`bodyHtml: ${err.message}`)],
  [ArticleBodyTooDeep, (err) => badRequest(`bodyHtml: ${err.message}`)],
];

/**
 * The admin who writes, still here: her row of `library_authors` (made at her first write)
 * share-locked until the write commits; 401 for one deleted (her token outlives her for up
 * to an hour). Her deletion takes the row exclusively (users/user-deleted.ts), so it waits
 * for a write of hers under way and then clears her id from it.
 */
async function authorHere(tx: Tx, by: string): Promise<void> {
  await tx`insert into library_authors (user_id) values (${by}) on conflict do nothing`;
  const [author] = await tx<{ deleted_at: Date | null }[]>`select deleted_at from library_authors where user_id = ${by} for share`;
  if (author?.deleted_at) throw accountDeleted();
}

/** An admin's new article: its id was made for this request, so its stream is new (nothing to read). */
export async function publishArticle(ctx: LibraryContext, input: PublishArticle['data'], metadata: EventMetadata): Promise<void> {
  await execute(ctx, { metadata, errors }, async ({ tx, handle }) => {
    await authorHere(tx, input.by);
    await handle(
      articleStreamId(input.articleId),
      articleDecider,
      { type: 'PublishArticle', data: input },
      { expectedVersion: 'no_stream' },
    );
  });
}

/**
 * An admin's edit: the whole article after it. Two admins saving the same article at once
 * take turns (commands on one stream are serialised): the later save replaces the earlier.
 */
export async function reviseArticle(ctx: LibraryContext, input: ReviseArticle['data'], metadata: EventMetadata): Promise<void> {
  await execute(ctx, { metadata, errors }, async ({ tx, handle }) => {
    await authorHere(tx, input.by);
    await handle(articleStreamId(input.articleId), articleDecider, { type: 'ReviseArticle', data: input });
  });
}
