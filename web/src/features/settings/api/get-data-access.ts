import { MyDataAccessPage } from '@sleepweave/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const dataAccessQueryKey = ['research', 'audit', 'me'] as const;
const PAGE = 20;

/** GET /api/research/audit/me: which admins read her data or exported it, newest first. */
export function getDataAccess(cursor: string | null): Promise<MyDataAccessPage> {
  const search = new URLSearchParams({ limit: String(PAGE) });
  if (cursor) search.set('cursor', cursor);
  return api.get(`/api/research/audit/me?${search.toString()}`, { schema: MyDataAccessPage });
}

export function useDataAccess() {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: dataAccessQueryKey,
      queryFn: ({ pageParam }) => getDataAccess(pageParam),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.nextCursor,
    }),
  );
}
