import { paths } from '../config/paths';

/**
 * Where sign-in takes her: back to the page she was on when her session ended (a draft of
 * what she was saving waits there: lib/drafts.ts), or that a link opened while she was
 * signed out; else Home. Carried in the router's state to /auth, never in the address, and
 * only a path of this app (not `//host`, not /auth itself).
 */
export interface SignInReturn {
  from: string;
}

export const signInReturn = (location: { pathname: string; search: string }): SignInReturn => ({
  from: `${location.pathname}${location.search}`,
});

export function afterSignIn(state: unknown): string {
  const from = (state as Partial<SignInReturn> | null)?.from;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return paths.dashboard;
  if (from === paths.auth || from.startsWith(`${paths.auth}?`) || from.startsWith(`${paths.auth}/`)) return paths.dashboard;
  return from;
}
