import { ResearchRunList } from '@sleepweave/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const researchRunsQueryKey = ['research', 'runs'] as const;

/** GET /api/admin/research/runs: every run kept, newest first (admins only). */
export function getResearchRuns(): Promise<ResearchRunList> {
  return api.get('/api/admin/research/runs', { schema: ResearchRunList });
}

export const researchRunsQueryOptions = () => queryOptions({ queryKey: researchRunsQueryKey, queryFn: getResearchRuns });

export function useResearchRuns() {
  return useQuery(researchRunsQueryOptions());
}
