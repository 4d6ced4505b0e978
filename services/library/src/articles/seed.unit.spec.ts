import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LibraryArticleInput } from '@sleepweave/contracts';
import { describe, expect, it } from 'vitest';
import { IMAGES_DIR, IMAGES_PATH } from './images.ts';
import { htmlToText, sanitizeArticleHtml } from './sanitize.ts';
import { SEED_ARTICLES } from './seed/index.ts';

const words = (html: string) => htmlToText(html).split(' ').filter(Boolean).length;

describe('seed articles', () => {
  it('are at least twelve, with unique ids and titles, in every category', () => {
    expect(SEED_ARTICLES.length).toBeGreaterThanOrEqual(12);
    expect(new Set(SEED_ARTICLES.map((a) => a.id)).size).toBe(SEED_ARTICLES.length);
    expect(new Set(SEED_ARTICLES.map((a) => a.content.title)).size).toBe(SEED_ARTICLES.length);
    expect(new Set(SEED_ARTICLES.map((a) => a.content.category))).toEqual(new Set(['Fabric info', 'Sleep tips', 'Research Studies']));
  });

  it.each(SEED_ARTICLES.map((a) => [a.content.title, a] as const))(
    '%s is valid, long enough, tagged and illustrated',
    (_title, article) => {
      const content = LibraryArticleInput.parse(article.content);
      expect(words(content.bodyHtml)).toBeGreaterThanOrEqual(300);
      expect(content.tags.length).toBeGreaterThanOrEqual(3);
      // The seed's HTML uses only what the allow-list keeps (so what is stored is what was written).
      expect(sanitizeArticleHtml(content.bodyHtml)).toBe(content.bodyHtml.trim());
      // Its image is one of the library's own files.
      expect(content.imagePath.startsWith(`${IMAGES_PATH}/`)).toBe(true);
      expect(existsSync(join(IMAGES_DIR, content.imagePath.slice(IMAGES_PATH.length + 1)))).toBe(true);
      // Links to other articles point at seed articles that exist.
      const ids = new Set(SEED_ARTICLES.map((a) => a.id));
      for (const [, id] of content.bodyHtml.matchAll(/href="\/library\/article\/([^"]+)"/g)) expect(ids.has(id!)).toBe(true);
    },
  );
});
