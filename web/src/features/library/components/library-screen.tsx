import { LIBRARY_LIMITS } from '@sleepweave/contracts';
import { BookOpen, Search } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { LoadMore } from '../../../components/ui/load-more';
import { Spinner } from '../../../components/ui/spinner';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/states';
import { cn } from '../../../lib/utils';
import { useLibraryCards } from '../api/get-library-cards';
import { useDebouncedCallback } from '../hooks/use-debounced-callback';
import { ArticleCard } from './article-card';

/** How long typing must pause before the search runs. */
export const SEARCH_DEBOUNCE_MS = 300;

/** A search the server can use: at least one letter or digit (punctuation alone is no search). */
const hasWords = (search: string) => /[\p{L}\p{N}]/u.test(search);

const articles = (count: number) => `${count} ${count === 1 ? 'article' : 'articles'}`;

/**
 * /library: the Knowledge Library. The search runs as she types (after a short pause) or at
 * once with the Search button; the search lives in the address (?search=) so the browser's
 * Back button returns to the same results.
 */
export function LibraryScreen({ searchDelayMs = SEARCH_DEBOUNCE_MS }: { searchDelayMs?: number } = {}) {
  const [params, setParams] = useSearchParams();
  const search = (params.get('search') ?? '').trim();
  const [text, setText] = useState(search);
  const inputId = useId();

  // The search this screen last wrote to the address itself. The router applies it a moment
  // later (a transition): when the address then takes it, the box keeps what she typed since.
  const [written, setWritten] = useState<string | null>(null);
  const commit = (value: string) => {
    if (value === search) return;
    setWritten(value);
    setParams(value === '' ? {} : { search: value }, { replace: true });
  };

  // Typing paused: search for what she typed. Only her typing commits (not a change of the
  // address, which may have moved on since, e.g. with Back): the address is read when typing
  // pauses, it does not start a search of its own.
  const typingPaused = useDebouncedCallback(commit, searchDelayMs);

  // The address changed from outside (Back, a link): show its search in the box. Adjusted
  // while rendering (react.dev, "Adjusting some state when a prop changes").
  const [shownSearch, setShownSearch] = useState(search);
  if (search !== shownSearch) {
    setShownSearch(search);
    if (search === written) setWritten(null);
    else if (text.trim() !== search) setText(search);
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    commit(text.trim());
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
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              typingPaused(event.target.value.trim());
            }}
            placeholder="Search articles, e.g. linen, hot flashes, HRV"
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
