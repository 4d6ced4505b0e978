import { AdminAuditList } from '@sleepweave/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api, withCursor, type ApiPage } from '../../../lib/api-client';

export const adminAuditQueryKey = ['admin', 'audit'] as const;
const PAGE = 50;

/** GET /api/admin/audit: newest first, a page at a time (the next page's cursor in X-Next-Cursor). */
export function getAdminAudit(cursor: string | null, signal?: AbortSignal): Promise<ApiPage<AdminAuditList>> {
  return api.getPage(withCursor(`/api/admin/audit?limit=${PAGE}`, cursor), { schema: AdminAuditList, signal });
}

export function useAdminAudit() {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: adminAuditQueryKey,
      queryFn: ({ pageParam, signal }) => getAdminAudit(pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.nextCursor,
      select: (data) => data.pages.flatMap((page) => page.items),
    }),
  );
}
