import { SleepLogList } from '@sleepweave/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const sleepLogsQueryKey = ['sleep', 'logs'] as const;

/** GET /api/sleep/logs: her nights, newest first. */
export function getSleepLogs(): Promise<SleepLogList> {
  return api.get('/api/sleep/logs', { schema: SleepLogList });
}

export const sleepLogsQueryOptions = () => queryOptions({ queryKey: sleepLogsQueryKey, queryFn: getSleepLogs });

export function useSleepLogs() {
  return useQuery(sleepLogsQueryOptions());
}
