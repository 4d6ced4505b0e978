import { defineProjection } from '@sleepweave/event-store';
import type { ArticleEvent } from './article.ts';
import { htmlToText } from './sanitize.ts';

/** The `library_cards` read model (list, search, article page). */
export const libraryCardsProjection = defineProjection<ArticleEvent>({
  name: 'library_cards',
  tables: ['library_cards'],
  handles: ['ArticlePublished', 'ArticleRevised'],
  async apply(tx, event) {
    switch (event.type) {
      case 'ArticlePublished': {
        const d = event.data;
        await tx`
          insert into library_cards (id, category, title, summary, body_html, body_text, image_path, tags, created_at, updated_at, created_by, updated_by)
          values (${d.articleId}, ${d.category}, ${d.title}, ${d.summary}, ${d.bodyHtml}, ${htmlToText(d.bodyHtml)}, ${d.imagePath},
                  ${tx.array(d.tags)}, ${d.publishedAt}, ${d.publishedAt}, ${d.publishedBy}, ${d.publishedBy})`;
        return;
      }
      case 'ArticleRevised': {
        const d = event.data;
        await tx`
          update library_cards set category = ${d.category}, title = ${d.title}, summary = ${d.summary},
            body_html = ${d.bodyHtml}, body_text = ${htmlToText(d.bodyHtml)}, image_path = ${d.imagePath},
            tags = ${tx.array(d.tags)}, updated_at = ${d.revisedAt}, updated_by = ${d.revisedBy}
          where id = ${d.articleId}`;
        return;
      }
    }
  },
});
