import { SleepLog, type SleepLogInput } from '@sleepweave/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { sleepLogQueryKey } from './get-sleep-log';
import { sleepLogsQueryKey } from './get-sleep-logs';

/** POST /api/sleep/log (409 when that night is logged already). A 401 is the form's to handle. */
export function createSleepLog(data: SleepLogInput): Promise<SleepLog> {
  return api.post('/api/sleep/log', data, { schema: SleepLog, redirectOnUnauthorized: false });
}

/** After a save, that night and the list are fresh (section 4: the list is refreshed). */
export function useCreateSleepLog({ onSuccess, onError }: { onSuccess?: (log: SleepLog) => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSleepLog,
    onSuccess: async (log) => {
      queryClient.setQueryData(sleepLogQueryKey(log.date), log);
      onSuccess?.(log);
      await queryClient.invalidateQueries({ queryKey: sleepLogsQueryKey });
    },
    onError,
  });
}
