import { JournalEntryList } from '@sleepweave/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, withCursor, type ApiPage } from '../../../lib/api-client';

export const journalEntriesQueryKey = ['journal', 'entries'] as const;

/**
 * GET /api/journal/entries: her entries, newest first, a page at a time (365 by default;
 * the next page's cursor in X-Next-Cursor, docs/architecture.md "Paging").
 */
export function getJournalEntries(cursor: string | null = null, signal?: AbortSignal): Promise<ApiPage<JournalEntryList>> {
  return api.getPage(withCursor('/api/journal/entries', cursor), { schema: JournalEntryList, signal });
}

/** docs/product.md §7: journal entries are not retried. */
export const journalEntriesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: journalEntriesQueryKey,
    queryFn: ({ pageParam, signal }) => getJournalEntries(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    retry: false,
  });

/** Her entries loaded so far, newest first (`fetchNextPage` appends the older ones). */
export function useJournalEntries() {
  return useInfiniteQuery({ ...journalEntriesQueryOptions(), select: (data) => data.pages.flatMap((page) => page.items) });
}
