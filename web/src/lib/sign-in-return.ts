import { paths } from '../config/paths';
import { browserStorage } from './browser-storage';

/**
 * Where sign-in takes her: back to the page she was on when her session ended (a draft of
 * what she was saving waits there: lib/drafts.ts), or that a link opened while she was
 * signed out; else Home. Carried in the router's state to /auth, never in the address, and
 * only a path of this app (not `//host`, not /auth itself).
 *
 * A browser may be shared (a clinic, a family computer): the page is hers only. It names
 * who was signed in in this tab when it was made, and takes only her back; and after she
 * signed out or deleted her account herself, nobody is taken back to where she was (the
 * next sign-in starts from Home). Both are kept in sessionStorage: this tab, through a
 * reload, until the next sign-in.
 */
export interface SignInReturn {
  from: string;
  /** Who was signed in in this tab when her session ended; null when nobody had been. */
  userId: string | null;
}

const SIGNED_IN_KEY = 'sleepweave:signed-in';
const LEFT_ON_PURPOSE_KEY = 'sleepweave:left-on-purpose';

const storage = () => browserStorage('tab');

function write(change: (store: Storage) => void): void {
  const store = storage();
  try {
    if (store) change(store);
  } catch {
    // full or refused
  }
}

/** She is signed in in this tab (sign-in, registration, or the server says so). */
export function rememberSignedIn(userId: string): void {
  write((store) => {
    store.setItem(SIGNED_IN_KEY, userId);
    store.removeItem(LEFT_ON_PURPOSE_KEY);
  });
}

/** She signed out, or deleted her account, herself. */
export function rememberLeftOnPurpose(): void {
  write((store) => store.setItem(LEFT_ON_PURPOSE_KEY, '1'));
}

export function leftOnPurpose(): boolean {
  return storage()?.getItem(LEFT_ON_PURPOSE_KEY) === '1';
}

/** The way back to `location` for the router's state to /auth; null when there is none to keep. */
export function signInReturn(location: { pathname: string; search: string }): SignInReturn | null {
  const store = storage();
  if (!store || leftOnPurpose()) return null;
  return { from: `${location.pathname}${location.search}`, userId: store.getItem(SIGNED_IN_KEY) };
}

export function afterSignIn(state: unknown, user: { id: string }): string {
  const saved = state as Partial<SignInReturn> | null;
  const from = saved?.from;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return paths.dashboard;
  if (from === paths.auth || from.startsWith(`${paths.auth}?`) || from.startsWith(`${paths.auth}/`)) return paths.dashboard;
  // someone else's page (she signed in where another user's session ended)
  if (saved?.userId !== null && saved?.userId !== user.id) return paths.dashboard;
  return from;
}
