import type { LibraryArticleContent } from '@sleepweave/contracts';
import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, expect, it } from 'vitest';
import type { ArticleEvent } from './article.ts';
import { ArticleAlreadyPublished, ArticleBodyEmpty, ArticleNotFound, articleDecider } from './business-logic.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const later = new Date('2026-11-22T08:30:00.000Z');
const articleId = '3b0f5b8e-9d43-4f0b-a3f4-6f2a3a1f6b10';
const adminId = '0f8f3c1a-2b4d-4e6f-8a9b-1c2d3e4f5a6b';

const content: LibraryArticleContent = {
  category: 'Fabric info',
  title: 'Linen at night',
  summary: 'Why linen feels cool.',
  bodyHtml: '<h2>Cool</h2><p onclick="x()">Linen breathes.</p><script>alert(1)</script>',
  imagePath: '/api/library/images/linen.svg',
  tags: ['linen'],
};
const stored = { ...content, bodyHtml: '<h2>Cool</h2><p>Linen breathes.</p>' };

const published: ArticleEvent = {
  type: 'ArticlePublished',
  data: { articleId, ...stored, publishedAt: now.toISOString(), publishedBy: adminId },
};

const spec = deciderSpec(articleDecider);

describe('article decider', () => {
  it('publishes an article with its body sanitized', () => {
    spec
      .given([])
      .when({ type: 'PublishArticle', data: { articleId, content, by: adminId, now } })
      .then([published]);
  });

  it('refuses to publish the same article twice', () => {
    spec
      .given([published])
      .when({ type: 'PublishArticle', data: { articleId, content, by: adminId, now } })
      .thenThrows(ArticleAlreadyPublished);
  });

  it('refuses a body with no text left once unsafe HTML is removed', () => {
    spec
      .given([])
      .when({
        type: 'PublishArticle',
        data: { articleId, content: { ...content, bodyHtml: '<script>alert(1)</script><p onclick="x"> </p>' }, by: adminId, now },
      })
      .thenThrows(ArticleBodyEmpty);
  });

  it('revises an article with the whole new content', () => {
    const revised = { ...content, title: 'Linen on warm nights', tags: ['linen', 'summer'] };
    spec
      .given([published])
      .when({ type: 'ReviseArticle', data: { articleId, content: revised, by: adminId, now: later } })
      .then([
        {
          type: 'ArticleRevised',
          data: {
            articleId,
            ...stored,
            title: 'Linen on warm nights',
            tags: ['linen', 'summer'],
            revisedAt: later.toISOString(),
            revisedBy: adminId,
          },
        },
      ]);
  });

  it('decides nothing for a revision that changes nothing', () => {
    spec
      .given([published])
      .when({ type: 'ReviseArticle', data: { articleId, content, by: adminId, now: later } })
      .then([]);
  });

  it('refuses to revise an article that does not exist', () => {
    spec
      .given([])
      .when({ type: 'ReviseArticle', data: { articleId, content, by: adminId, now } })
      .thenThrows(ArticleNotFound);
  });

  it('seeds an article by the system once; an existing one is left alone', () => {
    const seeded = spec.given([]).when({ type: 'SeedArticle', data: { articleId, content, now } });
    const state = seeded.then([
      { type: 'ArticlePublished', data: { articleId, ...stored, publishedAt: now.toISOString(), publishedBy: null } },
    ]);
    expect(state.status).toBe('published');
    spec
      .given([published])
      .when({ type: 'SeedArticle', data: { articleId, content: { ...content, title: 'Other' }, now: later } })
      .then([]);
  });
});
