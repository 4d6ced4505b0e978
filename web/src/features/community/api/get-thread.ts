import { ThreadDetail } from '@sleepweave/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const threadQueryKey = (threadId: string) => ['community', 'thread', threadId] as const;

/** GET /api/community/thread/{id}: opening a public thread makes her a member. */
export const getThread = (threadId: string) => api.get(`/api/community/thread/${encodeURIComponent(threadId)}`, { schema: ThreadDetail });

export const threadQueryOptions = (threadId: string) =>
  queryOptions({ queryKey: threadQueryKey(threadId), queryFn: () => getThread(threadId) });

export const useThread = (threadId: string) => useQuery(threadQueryOptions(threadId));
