import { MyDataAccessList } from '@sleepweave/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, withCursor, type ApiPage } from '../../../lib/api-client';

export const dataAccessQueryKey = ['research', 'audit', 'me'] as const;
const PAGE = 20;

/** GET /api/research/audit/me: which admins read her data or exported it, newest first (the next page's cursor in X-Next-Cursor). */
export function getDataAccess(cursor: string | null, signal?: AbortSignal): Promise<ApiPage<MyDataAccessList>> {
  return api.getPage(withCursor(`/api/research/audit/me?limit=${PAGE}`, cursor), { schema: MyDataAccessList, signal });
}

export function useDataAccess() {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: dataAccessQueryKey,
      queryFn: ({ pageParam, signal }) => getDataAccess(pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.nextCursor,
      select: (data) => data.pages.flatMap((page) => page.items),
    }),
  );
}
