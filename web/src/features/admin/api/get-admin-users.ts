import { AdminUserPage, type AdminPhaseFilter, type AdminUserSort } from '@sleepweave/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const adminUsersQueryKey = ['admin', 'users'] as const;

export interface AdminUsersParams {
  q: string;
  sort: AdminUserSort;
  order: 'asc' | 'desc';
  phase: AdminPhaseFilter | 'all';
  notLogged: boolean;
  page: number;
  pageSize: number;
}

export function adminUsersSearch(params: AdminUsersParams): string {
  const search = new URLSearchParams({
    sort: params.sort,
    order: params.order,
    page: String(params.page),
    pageSize: String(params.pageSize),
  });
  if (params.q.trim()) search.set('q', params.q.trim());
  if (params.phase !== 'all') search.set('phase', params.phase);
  if (params.notLogged) search.set('notLogged', 'true');
  return search.toString();
}

/** GET /api/admin/users: one page, searched, filtered and sorted by the server. */
export function getAdminUsers(params: AdminUsersParams): Promise<AdminUserPage> {
  return api.get(`/api/admin/users?${adminUsersSearch(params)}`, { schema: AdminUserPage });
}

export function useAdminUsers(params: AdminUsersParams) {
  return useQuery(
    queryOptions({
      queryKey: [...adminUsersQueryKey, params],
      queryFn: () => getAdminUsers(params),
      // the page shown stays while the next one loads (no flash of 'Loading users...')
      placeholderData: keepPreviousData,
    }),
  );
}
