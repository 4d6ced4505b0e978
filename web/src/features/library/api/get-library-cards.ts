import { LibraryCardList } from '@sleepweave/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const libraryCardsQueryKey = (search: string) => ['library', 'cards', search] as const;

/** GET /api/library/cards?search=: ranked matches while searching, every card otherwise. */
export function getLibraryCards(search: string, signal?: AbortSignal): Promise<LibraryCardList> {
  const url = search === '' ? '/api/library/cards' : `/api/library/cards?search=${encodeURIComponent(search)}`;
  return api.get(url, { schema: LibraryCardList, signal });
}

/**
 * docs/product.md §7: library cards are not cached (stale at once, dropped as soon as no screen
 * shows them) and retried once (the app-wide rule: network errors and 5xx only).
 */
export const libraryCardsQueryOptions = (search: string) =>
  queryOptions({
    queryKey: libraryCardsQueryKey(search),
    queryFn: ({ signal }) => getLibraryCards(search, signal),
    staleTime: 0,
    gcTime: 0,
  });

/** While a new search loads, the previous results stay on screen (no flash of a spinner per keystroke). */
export function useLibraryCards(search: string) {
  return useQuery({ ...libraryCardsQueryOptions(search), placeholderData: keepPreviousData });
}
