import type { LibraryCategory } from '@sleepweave/contracts';
import type { DomainEvent } from '@sleepweave/event-store';

export const articleStreamId = (articleId: string) => `article:${articleId}`;

/** What an article says, as stored: `bodyHtml` is already sanitized. */
export type ArticleContent = {
  category: LibraryCategory;
  title: string;
  summary: string;
  bodyHtml: string;
  imagePath: string;
  tags: string[];
};

/** `publishedBy` / `revisedBy`: the admin's user id; null for the system (seed) or once she is deleted. */
export type ArticlePublished = DomainEvent<
  'ArticlePublished',
  { articleId: string } & ArticleContent & { publishedAt: string; publishedBy: string | null }
>;
/** The whole article after the change (a later reader needs no earlier event to show it). */
export type ArticleRevised = DomainEvent<
  'ArticleRevised',
  { articleId: string } & ArticleContent & { revisedAt: string; revisedBy: string | null }
>;

export type ArticleEvent = ArticlePublished | ArticleRevised;

export type ArticleState = { status: 'none' } | { status: 'published'; articleId: string; content: ArticleContent };

export const initialState = (): ArticleState => ({ status: 'none' });

export function contentOf(data: ArticleContent): ArticleContent {
  const { category, title, summary, bodyHtml, imagePath, tags } = data;
  return { category, title, summary, bodyHtml, imagePath, tags: [...tags] };
}

export function evolve(state: ArticleState, event: ArticleEvent): ArticleState {
  switch (event.type) {
    case 'ArticlePublished':
      return { status: 'published', articleId: event.data.articleId, content: contentOf(event.data) };
    case 'ArticleRevised':
      return state.status === 'published' ? { ...state, content: contentOf(event.data) } : state;
    default:
      return state;
  }
}
