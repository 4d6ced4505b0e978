import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Button } from '../components/ui/button';
import { FullPageSpinner } from '../components/ui/spinner';
import { CHECK_CONNECTION, errorText } from '../components/ui/states';
import { paths } from '../config/paths';
import { isApiRequestError, isTemporarilyUnavailable } from '../lib/api-client';
import { useUser } from '../lib/auth';
import { signInReturn } from '../lib/sign-in-return';
import { useRetryWhileUnavailable } from '../lib/use-retry-while-unavailable';

/**
 * Guarded screens: a spinner while the session loads, /auth when nobody is signed in. A
 * failed background reload keeps the user it has (TanStack Query sets isError and keeps
 * the data): only a session never loaded shows the error screen.
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const user = useUser();
  const location = useLocation();
  const neverLoaded = user.isError && user.data === undefined;
  // a restart of a second or two: tried again by itself while it lasts
  useRetryWhileUnavailable(neverLoaded ? user.error : null, user.isFetching, () => void user.refetch());
  if (user.isPending) return <FullPageSpinner label="Checking your session" />;
  if (neverLoaded) {
    return (
      <main className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 px-6 text-center">
        <h1 className="text-2xl font-semibold text-night-950">
          {isApiRequestError(user.error) && !isTemporarilyUnavailable(user.error)
            ? "We couldn't load your session"
            : "We couldn't reach Sleepweave"}
        </h1>
        <p className="text-base text-night-700">{errorText(CHECK_CONNECTION, user.error)}</p>
        <Button onClick={() => void user.refetch()} pending={user.isFetching}>
          Try again
        </Button>
      </main>
    );
  }
  // back here after signing in, if it is her (lib/sign-in-return.ts)
  // the spinner while the sign-in page's code loads (on a slow link the page was blank for seconds)
  if (!user.data)
    return (
      <>
        <FullPageSpinner />
        <Navigate to={paths.auth} replace state={signInReturn(location)} />
      </>
    );
  return children;
}
