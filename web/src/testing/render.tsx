import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { Toaster } from '../components/ui/toast';

export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: 0 }, mutations: { retry: false } },
  });
}

/**
 * Renders routes (or a single element at `path`) inside a memory router with a fresh
 * query client and the toaster, as the app does.
 */
export function renderWithProviders(
  ui: ReactElement | RouteObject[],
  { path = '/', queryClient = createTestQueryClient() }: { path?: string; queryClient?: QueryClient } = {},
) {
  const routes: RouteObject[] = Array.isArray(ui) ? ui : [{ path: '*', element: ui }];
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}

/** A `fetch` stand-in answering JSON. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * Reloads queries (those under `queryKey`, or all) the way a background refetch does, and
 * lets the screens render the outcome (TanStack Query notifies observers on a timer).
 */
export async function reloadQueries(queryClient: QueryClient, queryKey?: QueryKey): Promise<void> {
  await act(async () => {
    await queryClient.refetchQueries(queryKey ? { queryKey } : {});
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}
