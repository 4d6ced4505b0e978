import type { QueryClient } from '@tanstack/react-query';
import { paths } from '../config/paths';
import { clearSession } from '../lib/auth';
import { signInReturn } from '../lib/sign-in-return';

interface RouterLike {
  state: { location: { pathname: string; search: string } };
  navigate: (to: string, options: { replace: boolean; state?: unknown }) => Promise<void> | void;
}

/**
 * What a 401 from any call does: forget the user first (so /auth does not bounce her back
 * to /dashboard), then go to /auth. The spec sends her to /api/login; this app signs in
 * on /auth (web/README.md, "Decisions").
 */
export function createUnauthorizedHandler(queryClient: QueryClient, router: RouterLike): () => void {
  return () => {
    clearSession(queryClient);
    const { location } = router.state;
    if (location.pathname !== paths.auth) void router.navigate(paths.auth, { replace: true, state: signInReturn(location) });
  };
}
