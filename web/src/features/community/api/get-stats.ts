import { CommunityStats } from '@sleepweave/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const statsQueryKey = ['community', 'stats'] as const;

/** GET /api/community/stats: the Community Stats card, computed by the server from real data. */
export const getStats = () => api.get('/api/community/stats', { schema: CommunityStats });

export const statsQueryOptions = () => queryOptions({ queryKey: statsQueryKey, queryFn: getStats });

export const useCommunityStats = () => useQuery(statsQueryOptions());
