import { ResearchRunStarted } from '@sleepweave/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiRequestError } from '../../../lib/api-client';
import { researchRunsQueryKey } from './get-research-runs';

/**
 * POST /api/admin/research/runs (body `{}`): 202 with the new run's id; 409 while a run is
 * already queued or running. A 401 is the screen's to handle (toast, then sign in).
 */
export function startResearchRun(): Promise<ResearchRunStarted> {
  return api.post('/api/admin/research/runs', {}, { schema: ResearchRunStarted, redirectOnUnauthorized: false });
}

export function useStartResearchRun({
  onSuccess,
  onError,
}: {
  onSuccess?: (started: ResearchRunStarted) => void;
  onError?: (error: Error) => void;
} = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startResearchRun,
    onSuccess: (started) => {
      onSuccess?.(started);
      // The new run joins the list (queued).
      void queryClient.invalidateQueries({ queryKey: researchRunsQueryKey });
    },
    onError: (error) => {
      onError?.(error);
      // A 409 means a run is on its way that the list may not show yet.
      if (isApiRequestError(error) && error.status === 409) void queryClient.invalidateQueries({ queryKey: researchRunsQueryKey });
    },
  });
}
