import { AdminUserList, type AdminPhaseFilter, type AdminUserSort } from '@sleepweave/contracts';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { pagedItems } from '../../../lib/use-load-more';
import { api, withCursor, type ApiPage } from '../../../lib/api-client';

export const adminUsersQueryKey = ['admin', 'users'] as const;
/** Users a page ('Load more users' fetches the next). */
export const ADMIN_USERS_PAGE = 50;

export interface AdminUsersParams {
  q: string;
  sort: AdminUserSort;
  order: 'asc' | 'desc';
  phase: AdminPhaseFilter | 'all';
  notLogged: boolean;
}

export function adminUsersSearch(params: AdminUsersParams): string {
  const search = new URLSearchParams({ sort: params.sort, order: params.order, limit: String(ADMIN_USERS_PAGE) });
  if (params.q.trim()) search.set('q', params.q.trim());
  if (params.phase !== 'all') search.set('phase', params.phase);
  if (params.notLogged) search.set('notLogged', 'true');
  return search.toString();
}

/**
 * GET /api/admin/users: one page, searched, filtered and sorted by the server (the next
 * page's cursor in X-Next-Cursor, docs/architecture.md "Paging").
 */
export function getAdminUsers(
  params: AdminUsersParams,
  cursor: string | null = null,
  signal?: AbortSignal,
): Promise<ApiPage<AdminUserList>> {
  return api.getPage(withCursor(`/api/admin/users?${adminUsersSearch(params)}`, cursor), { schema: AdminUserList, signal });
}

export const adminUsersQueryOptions = (params: AdminUsersParams) =>
  infiniteQueryOptions({
    queryKey: [...adminUsersQueryKey, params],
    queryFn: ({ pageParam, signal }) => getAdminUsers(params, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/**
 * The users loaded so far (`fetchNextPage` appends the next page). While another search,
 * filter or sort loads, the list shown stays (no flash of 'Loading users...').
 */
export function useAdminUsers(params: AdminUsersParams) {
  return useInfiniteQuery({
    ...adminUsersQueryOptions(params),
    placeholderData: keepPreviousData,
    select: (data) => pagedItems(data.pages),
  });
}
