import { z } from 'zod';
import { Uuid } from './common.ts';
import { LibraryCategory } from './library.ts';

/** What other contexts learn of an article: the card, never the body or who edited it. */
const Card = {
  articleId: Uuid,
  category: LibraryCategory,
  title: z.string(),
  summary: z.string(),
  imagePath: z.string(),
  tags: z.array(z.string()),
};

/** Events the library service publishes. */
export const libraryEvents = {
  /** A new article (an admin's, or one of the seed articles on the first start). */
  'library.article.published': z.object({
    ...Card,
    publishedAt: z.string(),
  }),
  /** An admin changed an article; the card as it is now. */
  'library.article.revised': z.object({
    ...Card,
    revisedAt: z.string(),
  }),
} as const;
