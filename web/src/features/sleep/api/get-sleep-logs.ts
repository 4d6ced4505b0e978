import { SleepLogList } from '@sleepweave/contracts';
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, withCursor, type ApiPage } from '../../../lib/api-client';

export const sleepLogsQueryKey = ['sleep', 'logs'] as const;

/** GET /api/sleep/logs: her nights, newest first (the first page: 100, more than a study's nights). */
export function getSleepLogs(): Promise<SleepLogList> {
  return api.get('/api/sleep/logs', { schema: SleepLogList });
}

export const sleepLogsQueryOptions = () => queryOptions({ queryKey: sleepLogsQueryKey, queryFn: getSleepLogs });

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
