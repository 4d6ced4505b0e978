import { SleepLog, type SleepLogInput } from '@sleepweave/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { sleepLogQueryKey } from './get-sleep-log';
import { sleepLogsQueryKey } from './get-sleep-logs';

/** POST /api/sleep/log (409 when that night is logged already). A 401 is the form's to handle. */
export function createSleepLog(data: SleepLogInput): Promise<SleepLog> {
  return api.post('/api/sleep/log', data, { schema: SleepLog, redirectOnUnauthorized: false });
}

/**
 * After a save the list is refreshed (docs/product.md §4), and the saved night becomes the
 * answer of its lookup: the form showing it turns to edit mode (Update Sleep Log), so a
 * second press updates the night instead of meeting 'Entry already exists'.
 */
export function useCreateSleepLog({
  onSuccess,
  onError,
}: {
  onSuccess?: (log: SleepLog) => void;
  /** With the night that could not be saved. */
  onError?: (error: Error, data: SleepLogInput) => void;
} = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSleepLog,
    onSuccess: async (log) => {
      queryClient.setQueryData(sleepLogQueryKey(log.date), log);
      onSuccess?.(log);
      await queryClient.invalidateQueries({ queryKey: sleepLogsQueryKey });
    },
    onError: (error, data) => onError?.(error, data),
  });
}
