import { notifyManager, QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, parsePath, RouterProvider, type RouteObject } from 'react-router';
import { Toaster } from '../components/ui/toast';
import { clearToasts } from '../components/ui/toast-store';
import { setSignedInUser } from '../lib/api-client';
import { userQueryKey } from '../lib/auth';
// The app shell loads the contracts' schemas with its first answer (lib/contracts.ts); load
// them with the test file, so that first answer does not spend a test's timeout on
// compiling every schema.
import '@sleepweave/contracts';

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
  {
    path = '/',
    state,
    queryClient = createTestQueryClient(),
  }: {
    path?: string;
    /** The router's state at `path` (what a navigation to it carried). */
    state?: unknown;
    queryClient?: QueryClient;
  } = {},
) {
  // a fresh screen: the toasts of an earlier test in the file (errors stay until closed) are gone
  clearToasts();
  // a fresh tab, opened for whoever its first GET /api/user answers (lib/api-client.ts)
  if (queryClient.getQueryData(userQueryKey) === undefined) setSignedInUser(null);
  const routes: RouteObject[] = Array.isArray(ui) ? ui : [{ path: '*', element: ui }];
  const router = createMemoryRouter(routes, { initialEntries: [state === undefined ? path : { ...parsePath(path), state }] });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, router, queryClient };
}

/**
 * Records when (on the test's clock, fake or real) the router first reaches `pathname`:
 * a screen that waits on purpose before leaving can be held to its delay.
 */
export function arrivalAt(
  router: { subscribe: (listener: (state: { location: { pathname: string } }) => void) => unknown },
  pathname: string,
) {
  let at: number | null = null;
  router.subscribe((state) => {
    if (state.location.pathname === pathname && at === null) at = Date.now();
  });
  return () => at;
}

/** A `fetch` stand-in answering JSON. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A `fetch` stand-in answering one page of a paged list, the next page's cursor in X-Next-Cursor (none: the last page). */
export function pageResponse(items: unknown[], nextCursor: string | null): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (nextCursor) headers['x-next-cursor'] = nextCursor;
  return new Response(JSON.stringify(items), { status: 200, headers });
}

/** A promise with its resolve outside: holds an answer back until the test lets it go. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Resolves once TanStack Query has told the screens everything it had queued (it notifies
 * them in batches, on its own schedule): what follows sees the screens render the outcome.
 */
export function queryNotificationsDelivered(): Promise<void> {
  return new Promise((resolve) => notifyManager.schedule(resolve));
}

/**
 * Reloads queries (those under `queryKey`, or all) the way a background refetch does, and
 * lets the screens render the outcome.
 */
export async function reloadQueries(queryClient: QueryClient, queryKey?: QueryKey): Promise<void> {
  await act(async () => {
    await queryClient.refetchQueries(queryKey ? { queryKey } : {});
    await queryNotificationsDelivered();
  });
}

/** Whether a button refuses to act: disabled, or aria-disabled while its action runs (components/ui/button.tsx). */
export function refusesAction(element: Element): boolean {
  return element.hasAttribute('disabled') || element.getAttribute('aria-disabled') === 'true';
}

/** Whether leaving the page (a reload, the tab closed) would ask first (lib/use-leave-prompt.ts). */
export function leavingAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}
