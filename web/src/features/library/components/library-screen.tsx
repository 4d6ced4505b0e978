import { LIBRARY_LIMITS } from '@sleepweave/contracts';
import { BookOpen, Search } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/utils';
import { useLibraryCards } from '../api/get-library-cards';
import { useDebouncedValue } from '../hooks/use-debounced-value';
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
  const typed = useDebouncedValue(text.trim(), searchDelayMs);
  const inputId = useId();

  const commit = (value: string) => {
    if (value === search) return;
    setParams(value === '' ? {} : { search: value }, { replace: true });
  };

  // Typing paused: search for what she typed. Only a new debounced value commits (not a
  // change of the address, which may have moved on since, e.g. with Back).
  useEffect(() => commit(typed), [typed]);
  // The address changed from outside (Back, a link): show its search in the box.
  useEffect(() => {
    setText((current) => (current.trim() === search ? current : search));
  }, [search]);

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
            onChange={(event) => setText(event.target.value)}
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
          <p className="flex items-center gap-2 py-10 text-night-600">
            <Spinner className="size-5" label="Loading articles" /> Loading articles...
          </p>
        ) : cards.data === undefined ? (
          <div role="alert" className="grid justify-items-start gap-3 rounded-3xl border border-rose-200 bg-rose-50 p-6 text-rose-900">
            <p>Failed to load library content. Please try refreshing the page.</p>
            <Button variant="outline" onClick={() => void cards.refetch()} pending={cards.isFetching}>
              Try again
            </Button>
          </div>
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
              <div className="grid justify-items-center gap-2 rounded-3xl border border-dashed border-night-200 bg-white/60 px-6 py-12 text-center">
                <BookOpen aria-hidden="true" className="size-10 text-night-300" />
                <p className="text-xl font-semibold text-night-900">No articles found</p>
                <p className="text-night-700">{searching ? 'Try adjusting your search terms' : 'Library content is being loaded'}</p>
              </div>
            ) : (
              <ul className={cn('grid gap-6 sm:grid-cols-2 lg:grid-cols-3', cards.isPlaceholderData && 'opacity-70 transition-opacity')}>
                {cards.data.map((card) => (
                  <li key={card.id}>
                    <ArticleCard card={card} />
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </section>
    </div>
  );
}
