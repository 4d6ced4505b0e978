import { onlineManager, QueryClient } from '@tanstack/react-query';
import { isApiRequestError } from './api-client';

/**
 * Spec docs/product.md §7: data is stale immediately, no refetch on window focus, queries retry
 * once, mutations never. A 4xx answer is not retried: asking again gives the same answer
 * (a 401 in particular has already sent the user to /auth).
 */
/**
 * TanStack Query's online state from the browser's, from now on: its own starts "online" and
 * follows the browser's events only from its first subscriber (the provider, mounted after
 * the first render), so going offline in between went unseen, and a save then failed at once
 * instead of waiting (components/layouts/offline-notice.tsx).
 */
export function followBrowserOnline(): void {
  onlineManager.setEventListener((setOnline) => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  });
}

export function createQueryClient(): QueryClient {
  followBrowserOnline();
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
