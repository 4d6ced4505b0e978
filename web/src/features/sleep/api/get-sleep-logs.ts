import { SLEEP_LOG_PAGE_MAX, SleepLogList } from '@sleepweave/contracts';
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, withCursor, type ApiPage } from '../../../lib/api-client';

export const sleepLogsQueryKey = ['sleep', 'logs'] as const;

/**
 * GET /api/sleep/logs, every page: all her nights, newest first. The first page (100 nights,
 * more than a study's) is the dashboard's too; she may log on after day 42, and what reads
 * her whole study (the charts, her progress, the export's range) must not lose its oldest
 * nights, so the rest follows a year at a time.
 */
export async function getSleepLogs(signal?: AbortSignal): Promise<SleepLogList> {
  let page = await getSleepLogPage(null, signal);
  const nights = [...page.items];
  while (page.nextCursor) {
    page = await api.getPage(withCursor(`/api/sleep/logs?limit=${SLEEP_LOG_PAGE_MAX}`, page.nextCursor), { schema: SleepLogList, signal });
    nights.push(...page.items);
  }
  return nights;
}

export const sleepLogsQueryOptions = () => queryOptions({ queryKey: sleepLogsQueryKey, queryFn: ({ signal }) => getSleepLogs(signal) });

export function useSleepLogs() {
  return useQuery(sleepLogsQueryOptions());
}

/** GET /api/sleep/logs?cursor=: one page of her nights, the next page's cursor in X-Next-Cursor. */
export function getSleepLogPage(cursor: string | null, signal?: AbortSignal): Promise<ApiPage<SleepLogList>> {
  return api.getPage(withCursor('/api/sleep/logs', cursor), { schema: SleepLogList, signal });
}

/** Under the list's key, so what invalidates her nights (a night saved) reloads the pages too. */
export const sleepLogPagesQueryKey = [...sleepLogsQueryKey, 'pages'] as const;

export const sleepLogPagesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: sleepLogPagesQueryKey,
    queryFn: ({ pageParam, signal }) => getSleepLogPage(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The dashboard's list: her nights loaded so far, newest first (`fetchNextPage` appends older ones). */
export function useSleepLogPages() {
  return useInfiniteQuery({ ...sleepLogPagesQueryOptions(), select: (data) => data.pages.flatMap((page) => page.items) });
}
