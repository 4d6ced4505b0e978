import type { LibraryCard } from '@sleepweave/contracts';
import { Link, useLocation } from 'react-router';
import { paths } from '../../../config/paths';
import { ArticleImage } from './article-image';
import { CategoryBadge } from './category-badge';
import { TagList } from './tag-list';

/**
 * One card of the library grid: image, category, title, a 3-line summary and tags. Its
 * title's link is focused; the card shows the focus, as an outline (a ring, a shadow, was
 * dropped in high-contrast mode, which left no sign of the focus).
 */
export function ArticleCard({ card }: { card: LibraryCard }) {
  // the library's address as she left it (its search): the article's Back to Library returns to it
  const { search } = useLocation();
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-3xl border border-night-100 bg-white/90 shadow-sm shadow-night-900/5 transition has-[a:focus-visible]:outline-3 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-night-600 hover:-translate-y-0.5 hover:border-night-200 hover:shadow-md">
      <ArticleImage src={card.imagePath} className="aspect-[16/9] w-full" />
      <div className="flex flex-1 flex-col gap-3 p-5 sm:p-6">
        <CategoryBadge category={card.category} className="self-start" />
        <h2 className="text-xl leading-snug font-semibold text-night-950 group-hover:text-night-700">
          {/* The whole card is clickable through this link's overlay; the link itself stays the title. */}
          <Link
            to={paths.library.article(card.id)}
            state={{ librarySearch: search }}
            className="outline-none after:absolute after:inset-0 after:content-['']"
          >
            {card.title}
          </Link>
        </h2>
        <p className="line-clamp-3 text-base text-night-700">{card.summary}</p>
        <TagList tags={card.tags} className="mt-auto pt-1" />
      </div>
    </article>
  );
}
