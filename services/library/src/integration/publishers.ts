import type { EventEnvelope } from '@sleepweave/contracts';
import { toEnvelope, type RecordedEvent } from '@sleepweave/event-store';
import type { ArticleEvent } from '../articles/article.ts';

const source = 'library';

/** Domain events -> integration events: the card as it is now; never the body or the editor's id. */
export function toIntegration(recorded: RecordedEvent): EventEnvelope | null {
  const event = recorded as RecordedEvent<ArticleEvent>;
  switch (event.type) {
    case 'ArticlePublished': {
      const { articleId, category, title, summary, imagePath, tags, publishedAt } = event.data;
      return toEnvelope(event, {
        source,
        type: 'library.article.published',
        data: { articleId, category, title, summary, imagePath, tags, publishedAt },
      });
    }
    case 'ArticleRevised': {
      const { articleId, category, title, summary, imagePath, tags, revisedAt } = event.data;
      return toEnvelope(event, {
        source,
        type: 'library.article.revised',
        data: { articleId, category, title, summary, imagePath, tags, revisedAt },
      });
    }
    default:
      return null;
  }
}
