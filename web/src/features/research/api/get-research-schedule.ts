import { ResearchSchedule } from '@sleepweave/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const researchScheduleQueryKey = ['research', 'schedule'] as const;

/** GET /api/admin/research/schedule: when the nightly run starts, or null when it is off (admins only). */
export function getResearchSchedule(signal?: AbortSignal): Promise<ResearchSchedule> {
  return api.get('/api/admin/research/schedule', { schema: ResearchSchedule, signal });
}

/** The schedule, read once: it changes only with the service's settings. */
export function useResearchSchedule() {
  return useQuery({ queryKey: researchScheduleQueryKey, queryFn: ({ signal }) => getResearchSchedule(signal), staleTime: Infinity });
}
