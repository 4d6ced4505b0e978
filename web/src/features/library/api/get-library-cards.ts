import { LibraryCardList } from '@sleepweave/contracts';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api, withCursor, type ApiPage } from '../../../lib/api-client';

export const libraryCardsQueryKey = (search: string) => ['library', 'cards', search] as const;

/**
 * GET /api/library/cards?search=: ranked matches while searching, every card otherwise; 100 a
 * page (the next page's cursor in X-Next-Cursor, docs/architecture.md "Paging").
 */
export function getLibraryCards(search: string, cursor: string | null = null, signal?: AbortSignal): Promise<ApiPage<LibraryCardList>> {
  const url = search === '' ? '/api/library/cards' : `/api/library/cards?search=${encodeURIComponent(search)}`;
  return api.getPage(withCursor(url, cursor), { schema: LibraryCardList, signal });
}

/**
 * docs/product.md §7: library cards are not cached (stale at once, dropped as soon as no screen
 * shows them) and retried once (the app-wide rule: network errors and 5xx only).
 */
export const libraryCardsQueryOptions = (search: string) =>
  infiniteQueryOptions({
    queryKey: libraryCardsQueryKey(search),
    queryFn: ({ pageParam, signal }) => getLibraryCards(search, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
    gcTime: 0,
  });

/**
 * The cards loaded so far (`fetchNextPage` appends the next page). While a new search loads,
 * the previous results stay on screen (no flash of a spinner per keystroke).
 */
export function useLibraryCards(search: string) {
  return useInfiniteQuery({
    ...libraryCardsQueryOptions(search),
    placeholderData: keepPreviousData,
    select: (data) => data.pages.flatMap((page) => page.items),
  });
}
