import { SleepLog, type SleepLogUpdate } from '@sleepweave/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { sleepLogQueryKey } from './get-sleep-log';
import { sleepLogsQueryKey } from './get-sleep-logs';

/**
 * PUT /api/sleep/log/{id}: the same body as a create; replaces the night's fields. With
 * `expectedUpdatedAt`, a night saved elsewhere since is a 409 instead.
 */
export function updateSleepLog({ id, data }: { id: string; data: SleepLogUpdate }): Promise<SleepLog> {
  return api.put(`/api/sleep/log/${encodeURIComponent(id)}`, data, { schema: SleepLog, redirectOnUnauthorized: false });
}

export function useUpdateSleepLog({
  onSuccess,
  onError,
}: {
  onSuccess?: (log: SleepLog) => void;
  /** With the night that could not be saved. */
  onError?: (error: Error, variables: { id: string; data: SleepLogUpdate }) => void;
} = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSleepLog,
    onSuccess: async (log) => {
      queryClient.setQueryData(sleepLogQueryKey(log.date), log);
      onSuccess?.(log);
      await queryClient.invalidateQueries({ queryKey: sleepLogsQueryKey });
    },
    onError: (error, variables) => onError?.(error, variables),
  });
}
