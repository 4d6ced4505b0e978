import { LIBRARY_LIMITS } from '@sleepweave/contracts';
import { BookOpen, Search } from 'lucide-react';
import { useId, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { LoadMore } from '../../../components/ui/load-more';
import { Spinner } from '../../../components/ui/spinner';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/states';
import { searchFromAddress, useAddressSearch } from '../../../lib/use-address-search';
import { cn, touchScreen } from '../../../lib/utils';
import { useLibraryCards } from '../api/get-library-cards';
import { ArticleCard } from './article-card';

/** How long typing must pause before the search runs. */
export const SEARCH_DEBOUNCE_MS = 300;

/** A search the server can use: at least one letter or digit once normalised as the server does (NFKC: ™ is tm); punctuation alone is no search. */
const hasWords = (search: string) => /[\p{L}\p{N}]/u.test(search.normalize('NFKC'));

const articles = (count: number) => `${count} ${count === 1 ? 'article' : 'articles'}`;

/**
 * /library: the Knowledge Library. The search runs as she types (after a short pause) or at
 * once with the Search button; the search lives in the address (?search=) so the browser's
 * Back button returns to the same results.
 */
export function LibraryScreen({ searchDelayMs = SEARCH_DEBOUNCE_MS }: { searchDelayMs?: number } = {}) {
  const [params, setParams] = useSearchParams();
  const search = searchFromAddress(params.get('search'), LIBRARY_LIMITS.search);
  const box = useAddressSearch({
    search,
    write: (value) => setParams(value === '' ? {} : { search: value }, { replace: true, preventScrollReset: true }),
    delayMs: searchDelayMs,
  });
  const inputId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    box.submit();
    // On a touch screen the keyboard stays up after its Search key, over the results she asked for.
    const input = event.currentTarget.querySelector('input');
    if (touchScreen() && document.activeElement === input) input?.blur();
  };

  const cards = useLibraryCards(search);
  const searching = hasWords(search);

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:py-12">
      <header className="max-w-2xl">
        <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">Knowledge Library</h1>
        <p className="mt-2 text-lg text-night-700">
          Articles on natural fabrics, sleep in the menopause years, your ring&apos;s numbers and how the study works.
        </p>
      </header>

      <form role="search" aria-label="Search the library" onSubmit={onSubmit} className="mt-8 flex max-w-2xl gap-3">
        <label htmlFor={inputId} className="sr-only">
          Search articles
        </label>
        <div className="relative flex-1">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-night-400" />
          <Input
            id={inputId}
            type="search"
            value={box.text}
            onChange={(event) => box.change(event.target.value)}
            // short enough for a phone's box (it was cut to "Search articles, e.g. l")
            placeholder="e.g. linen, hot flashes"
            maxLength={LIBRARY_LIMITS.search}
            autoComplete="off"
            enterKeyHint="search"
            className="pl-12"
          />
        </div>
        <Button type="submit">Search</Button>
      </form>

      <section aria-label="Articles" className="mt-8">
        {cards.isPending ? (
          <LoadingState inline text="Loading articles..." className="py-10" />
        ) : cards.data === undefined ? (
          <ErrorState
            inline
            text="Failed to load library content. Please try refreshing the page."
            error={cards.error}
            onRetry={() => void cards.refetch()}
            retrying={cards.isFetching}
          />
        ) : (
          <>
            <p aria-live="polite" className="mb-4 flex min-h-6 items-center gap-2 text-sm text-night-600">
              {cards.isPlaceholderData ? (
                <>
                  <Spinner className="size-4" label="Searching" /> Searching...
                </>
              ) : searching ? (
                `${articles(cards.data.length)} for “${search}”`
              ) : (
                articles(cards.data.length)
              )}
            </p>
            {cards.data.length === 0 ? (
              <EmptyState
                icon={BookOpen}
                title="No articles found"
                text={searching ? 'Try adjusting your search terms' : 'Library content is being loaded'}
                className="py-12"
              />
            ) : (
              <div className="grid gap-6">
                <ul className={cn('grid gap-6 sm:grid-cols-2 lg:grid-cols-3', cards.isPlaceholderData && 'opacity-70 transition-opacity')}>
                  {cards.data.map((card) => (
                    <li key={card.id}>
                      <ArticleCard card={card} />
                    </li>
                  ))}
                </ul>
                {cards.isPlaceholderData ? null : (
                  <LoadMore
                    hasMore={cards.hasNextPage}
                    pending={cards.isFetchingNextPage}
                    failed={cards.isFetchNextPageError}
                    onLoad={() => void cards.fetchNextPage()}
                    label="Load more articles"
                    pendingLabel="Loading more articles..."
                    errorText="More articles could not be loaded. Please try again."
                  />
                )}
              </div>
            )}
          </>
        )}
      </section>
    </div>
  );
}
