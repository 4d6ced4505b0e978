import { ThreadList, type ThreadListItem } from '@sleepweave/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, withCursor } from '../../../lib/api-client';

export const threadsQueryKey = ['community', 'threads'] as const;

/**
 * GET /api/community/threads: pinned first, then the most recently active, 100 a page (the
 * next page's cursor in X-Next-Cursor, docs/architecture.md "Paging").
 */
export const getThreads = (cursor: string | null = null, signal?: AbortSignal) =>
  api.getPage(withCursor('/api/community/threads', cursor), { schema: ThreadList, signal });

export const threadsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: threadsQueryKey,
    queryFn: ({ pageParam, signal }) => getThreads(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The threads loaded so far (`fetchNextPage` appends the next page; a thread is shown once). */
export const useThreads = () =>
  useInfiniteQuery({
    ...threadsQueryOptions(),
    select: (data) => uniqueById(data.pages.flatMap((page) => page.items)),
  });

/** A thread that moved up (new activity) between two pages may come twice: keep its first. */
function uniqueById(threads: ThreadListItem[]): ThreadListItem[] {
  const byId = new Map<string, ThreadListItem>();
  for (const thread of threads) if (!byId.has(thread.id)) byId.set(thread.id, thread);
  return [...byId.values()];
}
