import { ResearchRun, type ResearchRunStatus } from '@sleepweave/contracts';
import { skipToken, useQuery } from '@tanstack/react-query';
import { api, isApiRequestError } from '../../../lib/api-client';

/** How often a queued or running run is asked about. */
export const RUN_POLL_MS = 2000;

export const researchRunQueryKey = (id: string) => ['research', 'run', id] as const;

/** Finished and failed runs change no more. */
export function isRunDone(status: ResearchRunStatus): boolean {
  return status === 'finished' || status === 'failed';
}

/** GET /api/admin/research/runs/{id}. */
export function getResearchRun(id: string): Promise<ResearchRun> {
  return api.get(`/api/admin/research/runs/${encodeURIComponent(id)}`, { schema: ResearchRun });
}

/**
 * One run, asked about every 2 s until it has finished or failed (or the server refuses:
 * a 4xx would only answer the same again). Nothing is fetched while `id` is null.
 */
export function useResearchRun(id: string | null) {
  return useQuery({
    queryKey: researchRunQueryKey(id ?? ''),
    queryFn: id === null ? skipToken : () => getResearchRun(id),
    refetchInterval: (query) => {
      const run = query.state.data;
      if (run && isRunDone(run.status)) return false;
      if (isRefused(query.state.error)) return false;
      return RUN_POLL_MS;
    },
  });
}

/** The server answered 4xx: asking again would give the same answer. */
export function isRefused(error: unknown): boolean {
  return isApiRequestError(error) && error.status >= 400 && error.status < 500;
}
