import { ThreadList } from '@sleepweave/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const threadsQueryKey = ['community', 'threads'] as const;

/** GET /api/community/threads: pinned first, then the most recently active. */
export const getThreads = () => api.get('/api/community/threads', { schema: ThreadList });

export const threadsQueryOptions = () => queryOptions({ queryKey: threadsQueryKey, queryFn: getThreads });

export const useThreads = () => useQuery(threadsQueryOptions());
