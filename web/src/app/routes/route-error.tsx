import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '../../components/ui/button';
import { ErrorState } from '../../components/ui/states';

/** Shown when a route fails to load or render (for instance an old bundle after a deploy). */
export function RouteError() {
  const error = useRouteError();
  if (import.meta.env.DEV) console.error(error);
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <main role="alert" className="mx-auto flex min-h-dvh max-w-lg flex-col items-center justify-center gap-4 px-6 text-center">
      <h1 className="text-2xl font-semibold text-night-950">Something went wrong</h1>
      <p className="text-lg text-night-700">Please reload the page to try again.</p>
      {detail ? <p className="text-base text-night-600">{detail}</p> : null}
      <Button onClick={() => window.location.reload()}>Reload</Button>
    </main>
  );
}

export const PAGE_NOT_LOADED = 'This page could not be loaded. Please try again.';
export const PAGE_OFFLINE = 'You seem to be offline, so this page could not be loaded. It opens by itself once you are back online.';

/** How long a page loaded again by itself waits after the saves sent as she came back online, for their toasts to be read. */
export const RELOAD_AFTER_SAVES_MS = 2500;

/**
 * A screen of the signed-in app that failed to load or render, shown in its place under the
 * nav bar (the app's RouteError replaced the whole page, nav bar and all). A screen's code
 * is loaded as she first opens it: offline, that fails, and once she is back online the page
 * is loaded again by itself (what she had typed elsewhere is not on this page), but only
 * once every save that waited for the connection is sent and answered, and its toast read:
 * a reload took them with it (the browser asked "Leave site?" as the save went out, its
 * answer and the draft's removal were lost, and the entry came back as unsaved).
 */
export function PageError() {
  const error = useRouteError();
  if (import.meta.env.DEV) console.error(error);
  const queryClient = useQueryClient();
  const offline = !navigator.onLine;
  useEffect(() => {
    if (!offline) return;
    let backOnline = false;
    let savesWaited = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reloadOnceSent = () => {
      if (!backOnline || timer !== undefined) return;
      if (queryClient.isMutating() > 0) {
        savesWaited = true;
        return;
      }
      timer = setTimeout(() => window.location.reload(), savesWaited ? RELOAD_AFTER_SAVES_MS : 0);
    };
    const onOnline = () => {
      backOnline = true;
      reloadOnceSent();
    };
    window.addEventListener('online', onOnline);
    const unsubscribe = queryClient.getMutationCache().subscribe(reloadOnceSent);
    return () => {
      window.removeEventListener('online', onOnline);
      unsubscribe();
      clearTimeout(timer);
    };
  }, [offline, queryClient]);
  return (
    <ErrorState
      title={offline ? 'You are offline' : 'Something went wrong'}
      text={offline ? PAGE_OFFLINE : PAGE_NOT_LOADED}
      onRetry={() => window.location.reload()}
    />
  );
}
