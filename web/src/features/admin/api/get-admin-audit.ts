import { AdminAuditPage } from '@sleepweave/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const adminAuditQueryKey = ['admin', 'audit'] as const;
const PAGE = 50;

/** GET /api/admin/audit: newest first, a page at a time (`cursor`: where the last page ended). */
export function getAdminAudit(cursor: string | null): Promise<AdminAuditPage> {
  const search = new URLSearchParams({ limit: String(PAGE) });
  if (cursor) search.set('cursor', cursor);
  return api.get(`/api/admin/audit?${search.toString()}`, { schema: AdminAuditPage });
}

export function useAdminAudit() {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: adminAuditQueryKey,
      queryFn: ({ pageParam }) => getAdminAudit(pageParam),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.nextCursor,
    }),
  );
}
