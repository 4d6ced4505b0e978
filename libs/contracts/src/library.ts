import { z } from 'zod';
import { groupThousands, textError, Uuid } from './common.ts';

/** docs/product.md §3 enumeration library_category, in the order the library lists them. */
export const LibraryCategory = z.enum(['Fabric info', 'Sleep tips', 'Research Studies'], {
  error: 'Choose one of Fabric info, Sleep tips, Research Studies',
});
export type LibraryCategory = z.infer<typeof LibraryCategory>;
export const LIBRARY_CATEGORIES = LibraryCategory.options;

export const LIBRARY_LIMITS = {
  title: 200,
  summary: 600,
  /** Characters of HTML as sent (before sanitizing). */
  bodyHtml: 100_000,
  tags: 12,
  tag: 40,
  imagePath: 300,
  search: 200,
} as const;

/**
 * An image of the library's own (`/api/library/images/x.svg`, the files it ships): never
 * another host (the Content-Security-Policy allows images from 'self' only), and no other
 * path of this one, since every reader's browser fetches it with her session: an image at
 * /api/admin/export/users made every admin who opened the library export all users, in
 * her name in the audit trail.
 */
export const LIBRARY_IMAGE_PATH = /^\/api\/library\/images\/[a-z0-9][a-z0-9-]*\.svg$/;

const text = (label: string, max: number) =>
  z
    .string({ error: textError(`${label} is required`, label) })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${groupThousands(max)} characters`);

/** Tags: trimmed, blanks dropped, duplicates (in any letter case) removed, order kept. */
const Tags = z
  .array(
    z
      .string({ error: 'Each tag must be text' })
      .trim()
      .max(LIBRARY_LIMITS.tag, `Each tag must be at most ${LIBRARY_LIMITS.tag} characters`),
    { error: 'tags must be a list of words' },
  )
  .transform((tags) => {
    const seen = new Set<string>();
    return tags.filter((tag) => {
      const key = tag.toLowerCase();
      if (tag === '' || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  })
  .pipe(z.array(z.string()).max(LIBRARY_LIMITS.tags, `At most ${LIBRARY_LIMITS.tags} tags`));

/**
 * POST /api/library/cards and PUT /api/library/card/{id} (admins only): the whole article.
 * `bodyHtml` is sanitized with an allow-list by the library service before it is stored.
 */
export const LibraryArticleInput = z.object({
  category: LibraryCategory,
  title: text('Title', LIBRARY_LIMITS.title),
  summary: text('Summary', LIBRARY_LIMITS.summary),
  bodyHtml: text('Body', LIBRARY_LIMITS.bodyHtml),
  imagePath: z
    .string({ error: textError('Image path is required', 'Image path') })
    .trim()
    .max(LIBRARY_LIMITS.imagePath, `Image path must be at most ${LIBRARY_LIMITS.imagePath} characters`)
    .regex(LIBRARY_IMAGE_PATH, "Image path must be one of the library's images, such as /api/library/images/linen.svg"),
  tags: Tags.default([]),
});
export type LibraryArticleInput = z.input<typeof LibraryArticleInput>;
export type LibraryArticleContent = z.output<typeof LibraryArticleInput>;

/** A card of the library grid (docs/product.md §3, "Library card"), without the body. */
export const LibraryCard = z.object({
  id: Uuid,
  category: LibraryCategory,
  title: z.string(),
  summary: z.string(),
  imagePath: z.string(),
  tags: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type LibraryCard = z.infer<typeof LibraryCard>;

/** GET /api/library/cards: ranked by relevance when searching, newest first otherwise. */
export const LibraryCardList = z.array(LibraryCard);
export type LibraryCardList = z.infer<typeof LibraryCardList>;

/** GET /api/library/card/{id}: the card with its (sanitized) body. */
export const LibraryArticle = LibraryCard.extend({ bodyHtml: z.string() });
export type LibraryArticle = z.infer<typeof LibraryArticle>;

/** GET /api/library/cards?search=: free text, matched by word prefixes as she types. */
export const LibrarySearchQuery = z.object({
  search: z.string().max(LIBRARY_LIMITS.search, `search must be at most ${LIBRARY_LIMITS.search} characters`).optional(),
});
export type LibrarySearchQuery = z.infer<typeof LibrarySearchQuery>;
