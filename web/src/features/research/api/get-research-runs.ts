import { ResearchRunList } from '@sleepweave/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, withCursor, type ApiPage } from '../../../lib/api-client';

export const researchRunsQueryKey = ['research', 'runs'] as const;

/**
 * GET /api/admin/research/runs: the runs, newest first (admins only), 100 a page (the next
 * page's cursor in X-Next-Cursor, docs/architecture.md "Paging").
 */
export function getResearchRuns(cursor: string | null = null, signal?: AbortSignal): Promise<ApiPage<ResearchRunList>> {
  return api.getPage(withCursor('/api/admin/research/runs', cursor), { schema: ResearchRunList, signal });
}

export const researchRunsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: researchRunsQueryKey,
    queryFn: ({ pageParam, signal }) => getResearchRuns(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The runs loaded so far, newest first (`fetchNextPage` appends older ones). */
export function useResearchRuns() {
  return useInfiniteQuery({ ...researchRunsQueryOptions(), select: (data) => data.pages.flatMap((page) => page.items) });
}
