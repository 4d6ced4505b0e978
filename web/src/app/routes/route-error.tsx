import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '../../components/ui/button';

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
