import { SleepLog } from '@sleepweave/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, isApiRequestError } from '../../../lib/api-client';

export const sleepLogQueryKey = (date: string) => ['sleep', 'log', date] as const;

/**
 * GET /api/sleep/log/{date}: her log of that night, or null (404: none yet). A 401 is the
 * form's to handle: it keeps what she typed before she signs in again.
 */
export async function getSleepLog(date: string): Promise<SleepLog | null> {
  try {
    return await api.get(`/api/sleep/log/${encodeURIComponent(date)}`, { schema: SleepLog, redirectOnUnauthorized: false });
  } catch (error) {
    if (isApiRequestError(error) && error.status === 404) return null;
    throw error;
  }
}

export const sleepLogQueryOptions = (date: string) => queryOptions({ queryKey: sleepLogQueryKey(date), queryFn: () => getSleepLog(date) });

/** Looks the night up only once `date` is a full date. */
export function useSleepLog(date: string | null) {
  return useQuery({ ...sleepLogQueryOptions(date ?? ''), enabled: date !== null });
}
