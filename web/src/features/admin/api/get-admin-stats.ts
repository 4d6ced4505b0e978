import { AdminStats } from '@sleepweave/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const adminStatsQueryKey = ['admin', 'stats'] as const;

/** GET /api/admin/stats: the four tiles (admins only). */
export function getAdminStats(): Promise<AdminStats> {
  return api.get('/api/admin/stats', { schema: AdminStats });
}

export function useAdminStats() {
  return useQuery(queryOptions({ queryKey: adminStatsQueryKey, queryFn: getAdminStats }));
}
