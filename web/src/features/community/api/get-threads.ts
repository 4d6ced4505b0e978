import { ThreadList } from '@sleepweave/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { pagedItems } from '../../../lib/use-load-more';
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
    select: (data) => pagedItems(data.pages),
  });
