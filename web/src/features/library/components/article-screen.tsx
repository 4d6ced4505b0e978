import { ArrowLeft, FileQuestion } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { usePageTitle } from '../../../app/page-title';
import { Button } from '../../../components/ui/button';
import { ErrorState, LoadingState } from '../../../components/ui/states';
import { paths } from '../../../config/paths';
import { isApiRequestError } from '../../../lib/api-client';
import { useLibraryArticle } from '../api/get-library-article';
import { ArticleBody } from './article-body';
import { ArticleImage } from './article-image';
import { CategoryBadge } from './category-badge';
import { TagList } from './tag-list';

/**
 * The library as she left it: with the search she opened the article from (carried in the
 * link's history state), else the whole library (a link from elsewhere, a reload keeps it).
 */
function useLibraryAddress(): string {
  const state: unknown = useLocation().state;
  const search = state && typeof state === 'object' && 'librarySearch' in state ? state.librarySearch : undefined;
  return typeof search === 'string' && /^\?search=[^&#]*$/.test(search) ? `${paths.library.root}${search}` : paths.library.root;
}

function BackToLibrary() {
  return (
    <Link
      to={useLibraryAddress()}
      className="inline-flex min-h-11 items-center gap-2 rounded-xl px-1 text-base font-medium text-night-700 underline-offset-4 hover:text-night-900 hover:underline"
    >
      <ArrowLeft aria-hidden="true" className="size-5" />
      Back to Library
    </Link>
  );
}

function ArticleNotFound() {
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center gap-4 px-6 py-12 text-center">
      <span className="grid size-16 place-items-center rounded-3xl bg-night-100 text-night-700">
        <FileQuestion aria-hidden="true" className="size-8" />
      </span>
      <h1 className="text-3xl font-semibold text-night-950">Article Not Found</h1>
      <p className="text-lg text-night-700">Sorry, we couldn&apos;t find the article you&apos;re looking for.</p>
      <Button asChild size="lg">
        <Link to={useLibraryAddress()}>Back to Library</Link>
      </Button>
    </div>
  );
}

/** /library/article/{id}: hero image, back link, category, title, summary, tags and the body. */
export function ArticleScreen({ articleId }: { articleId: string }) {
  const article = useLibraryArticle(articleId);
  const notFound = isApiRequestError(article.error) && article.error.status === 404;
  usePageTitle(notFound ? 'Article Not Found' : article.data?.title);

  if (article.isPending) return <LoadingState text="Loading article..." className="min-h-[50vh]" />;
  if (notFound) return <ArticleNotFound />;
  // A failed background reload keeps the article she is reading.
  if (article.data === undefined) {
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6">
        <BackToLibrary />
        {/* the page's heading while its article's own is not known (the tab's title too) */}
        <h1 className="mt-6 text-3xl font-semibold tracking-tight text-night-950">Library Article</h1>
        <ErrorState
          inline
          text="Failed to load library content. Please try refreshing the page."
          error={article.error}
          onRetry={() => void article.refetch()}
          retrying={article.isFetching}
          className="mt-6"
        />
      </div>
    );
  }

  const { title, summary, category, tags, imagePath, bodyHtml } = article.data;
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6 lg:py-10">
      <BackToLibrary />
      <ArticleImage src={imagePath} eager className="mt-4 aspect-[16/9] w-full rounded-3xl shadow-sm shadow-night-900/10" />
      <header className="mt-8 grid gap-4">
        <CategoryBadge category={category} className="justify-self-start" />
        <h1 className="text-3xl leading-tight font-semibold tracking-tight text-night-950 sm:text-4xl">{title}</h1>
        <p className="text-xl leading-relaxed text-night-700">{summary}</p>
        <TagList tags={tags} />
      </header>
      <hr className="my-8 border-night-100" />
      <ArticleBody html={bodyHtml} />
      <footer className="mt-12 border-t border-night-100 pt-6">
        <BackToLibrary />
      </footer>
    </article>
  );
}
