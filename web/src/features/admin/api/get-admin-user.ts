import { AdminUserDetail } from '@sleepweave/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const adminUserQueryKey = (id: string) => ['admin', 'user', id] as const;

/** GET /api/admin/user/{id}: her detail. Every call is recorded in the audit trail (and shown to her). */
export function getAdminUser(id: string): Promise<AdminUserDetail> {
  return api.get(`/api/admin/user/${encodeURIComponent(id)}`, { schema: AdminUserDetail });
}

export function useAdminUser(id: string | null) {
  return useQuery(
    queryOptions({
      queryKey: adminUserQueryKey(id ?? ''),
      queryFn: () => getAdminUser(id!),
      enabled: id !== null,
      // each read is an audited read: only when an admin opens her, not in the background
      staleTime: 60_000,
    }),
  );
}
