import type { EventMetadata } from '@sleepweave/event-store';
import { badRequest, notFound, runCommand, type DomainErrors } from '@sleepweave/service-kit';
import type { LibraryContext } from '../context.ts';
import { articleStreamId } from './article.ts';
import { ArticleBodyEmpty, ArticleNotFound, articleDecider, type PublishArticle, type ReviseArticle } from './business-logic.ts';

export const ARTICLE_NOT_FOUND = "Sorry, we couldn't find the article you're looking for.";

const errors: DomainErrors = [
  [ArticleNotFound, () => notFound(ARTICLE_NOT_FOUND)],
  [ArticleBodyEmpty, (err) => badRequest(`bodyHtml: ${err.message}`)],
];

/** An admin's new article: its id was made for this request, so its stream is new (nothing to read). */
export async function publishArticle(ctx: LibraryContext, input: PublishArticle['data'], metadata: EventMetadata): Promise<void> {
  await runCommand(
    ctx,
    articleStreamId(input.articleId),
    articleDecider,
    { type: 'PublishArticle', data: input },
    { metadata, errors, expectedVersion: 'no_stream' },
  );
}

/**
 * An admin's edit: the whole article after it. Two admins saving the same article at once
 * take turns (commands on one stream are serialised): the later save replaces the earlier.
 */
export async function reviseArticle(ctx: LibraryContext, input: ReviseArticle['data'], metadata: EventMetadata): Promise<void> {
  await runCommand(ctx, articleStreamId(input.articleId), articleDecider, { type: 'ReviseArticle', data: input }, { metadata, errors });
}
