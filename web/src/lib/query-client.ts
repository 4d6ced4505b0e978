import { QueryClient } from '@tanstack/react-query';
import { isApiRequestError } from './api-client';

/**
 * Spec docs/product.md §7: data is stale immediately, no refetch on window focus, queries retry
 * once, mutations never. A 4xx answer is not retried: asking again gives the same answer
 * (a 401 in particular has already sent the user to /auth).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 0,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => failureCount < 1 && !(isApiRequestError(error) && error.status >= 400 && error.status < 500),
      },
      mutations: { retry: false },
    },
  });
}
