import type { LibraryArticleContent } from '@sleepweave/contracts';
import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type ArticleContent, type ArticleEvent, type ArticleState } from './article.ts';
import { htmlToText, MAX_ARTICLE_DEPTH, nestsTooDeep, sanitizeArticleHtml } from './sanitize.ts';

/** `content` as validated by LibraryArticleInput; the body is sanitized here, before any event. */
export type PublishArticle = {
  type: 'PublishArticle';
  data: { articleId: string; content: LibraryArticleContent; by: string; now: Date };
};
export type ReviseArticle = {
  type: 'ReviseArticle';
  data: { articleId: string; content: LibraryArticleContent; by: string; now: Date };
};
/** A seed article: published by the system unless it already exists (then nothing). */
export type SeedArticle = {
  type: 'SeedArticle';
  data: { articleId: string; content: LibraryArticleContent; now: Date };
};
export type ArticleCommand = PublishArticle | ReviseArticle | SeedArticle;

export class ArticleAlreadyPublished extends Error {
  override name = 'ArticleAlreadyPublished';
}
export class ArticleNotFound extends Error {
  override name = 'ArticleNotFound';
}
export class ArticleBodyEmpty extends Error {
  override name = 'ArticleBodyEmpty';
}
export class ArticleBodyTooDeep extends Error {
  override name = 'ArticleBodyTooDeep';
}

/** The content as it is stored: the body through the allow-list, and it must still say something. */
export function storedContent(content: LibraryArticleContent): ArticleContent {
  if (nestsTooDeep(content.bodyHtml)) throw new ArticleBodyTooDeep(`The body nests its tags more than ${MAX_ARTICLE_DEPTH} levels deep`);
  const bodyHtml = sanitizeArticleHtml(content.bodyHtml);
  if (htmlToText(bodyHtml) === '') throw new ArticleBodyEmpty('The body has no text left once unsafe HTML is removed');
  const { category, title, summary, imagePath, tags } = content;
  return { category, title, summary, bodyHtml, imagePath, tags: [...tags] };
}

function sameContent(a: ArticleContent, b: ArticleContent): boolean {
  return (
    a.category === b.category &&
    a.title === b.title &&
    a.summary === b.summary &&
    a.bodyHtml === b.bodyHtml &&
    a.imagePath === b.imagePath &&
    a.tags.length === b.tags.length &&
    a.tags.every((tag, i) => tag === b.tags[i])
  );
}

export function publish(command: PublishArticle, state: ArticleState): ArticleEvent[] {
  if (state.status !== 'none') throw new ArticleAlreadyPublished('This article already exists');
  const { articleId, content, by, now } = command.data;
  return [{ type: 'ArticlePublished', data: { articleId, ...storedContent(content), publishedAt: now.toISOString(), publishedBy: by } }];
}

/** A revision that changes nothing decides nothing. */
export function revise(command: ReviseArticle, state: ArticleState): ArticleEvent[] {
  if (state.status !== 'published') throw new ArticleNotFound('No such article');
  const { articleId, content, by, now } = command.data;
  const next = storedContent(content);
  if (sameContent(state.content, next)) return [];
  return [{ type: 'ArticleRevised', data: { articleId, ...next, revisedAt: now.toISOString(), revisedBy: by } }];
}

/** Seeding is idempotent: an article that exists (perhaps revised by an admin since) is left alone. */
export function seed(command: SeedArticle, state: ArticleState): ArticleEvent[] {
  if (state.status !== 'none') return [];
  const { articleId, content, now } = command.data;
  return [{ type: 'ArticlePublished', data: { articleId, ...storedContent(content), publishedAt: now.toISOString(), publishedBy: null } }];
}

export function decide(command: ArticleCommand, state: ArticleState): ArticleEvent[] {
  switch (command.type) {
    case 'PublishArticle':
      return publish(command, state);
    case 'ReviseArticle':
      return revise(command, state);
    case 'SeedArticle':
      return seed(command, state);
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

export const articleDecider: Decider<ArticleCommand, ArticleState, ArticleEvent> = { decide, evolve, initialState };
