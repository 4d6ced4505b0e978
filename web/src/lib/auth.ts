import type { User } from '@sleepweave/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '../components/ui/toast-store';
import { paths } from '../config/paths';
import { api, isApiRequestError, isNetworkError, setSignedInUser, signalUnauthorized, signedInUserOfTab } from './api-client';
import { lazySchema } from './contracts';
import { dropLocalData } from './local-data';
import { sweepDrafts } from './drafts';
import { leftOnPurpose, rememberLeftOnPurpose, rememberSignedIn } from './sign-in-return';

/**
 * The session (docs/product.md §4): the user comes from GET /api/user, a 401 means nobody is
 * signed in. Login and registration put the user into this cache entry; logout and any
 * 401 clear it.
 */
export const userQueryKey = ['user'] as const;

export async function getUser(): Promise<User | null> {
  try {
    const user = await api.get('/api/user', { schema: lazySchema((c) => c.User), redirectOnUnauthorized: false, anyUser: true });
    // Someone else signed in in another tab since this one was opened for her: nothing here
    // is the new user's (her forms, her data): it is left as at the end of a session.
    const openedFor = signedInUserOfTab();
    if (openedFor !== null && openedFor !== user.id) {
      setSignedInUser(null);
      signalUnauthorized();
      return null;
    }
    setSignedInUser(user.id);
    // another user's drafts and keys go as soon as hers is known, not when she first opens a form
    sweepDrafts(user.id);
    // (an answer that lands after she signed out herself, asked before, does not undo that;
    // a sign-in in this tab does)
    if (!leftOnPurpose()) rememberSignedIn(user.id);
    return user;
  } catch (error) {
    if (isApiRequestError(error) && error.status === 401) return null;
    throw error;
  }
}

/**
 * How long an answer to "who is signed in" is reused: the app asks when it starts (app/provider),
 * then the route guard, the layout and the screen each ask as they mount, and a screen's
 * cards as they appear: with the spec's "stale immediately" each mount a moment later
 * asked again, 2-3 requests of /api/user a page load. Within these seconds they share one
 * answer; a screen opened later asks again, and every call to the API still checks the
 * session (a 401 clears it at once), as do sign-in, sign-out and a role change.
 */
export const SESSION_REUSE_MS = 5_000;

export const userQueryOptions = () => queryOptions({ queryKey: userQueryKey, queryFn: getUser, staleTime: SESSION_REUSE_MS });

/**
 * Who is signed in. `fresh`: asked again whenever the component mounts, whatever the
 * answer's age (the admin screens, which show what her role allows: a role granted or
 * revoked a moment ago counts there at once).
 */
export function useUser({ fresh = false }: { fresh?: boolean } = {}) {
  return useQuery({ ...userQueryOptions(), ...(fresh ? { refetchOnMount: 'always' as const } : {}) });
}

export function setSessionUser(queryClient: QueryClient, user: User): void {
  setSignedInUser(user.id);
  sweepDrafts(user.id);
  queryClient.setQueryData(userQueryKey, user);
  rememberSignedIn(user.id);
}

/**
 * Her profile changed (her time zone, say): the user, and everything fetched on her
 * behalf marked stale, as it may depend on it (her study profile's time zone, "last
 * night" in her zone): fetched again where shown, or as the screen opens.
 */
export function profileChanged(queryClient: QueryClient, user: User): void {
  setSessionUser(queryClient, user);
  void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== userQueryKey[0] });
}

/**
 * Forgets the user and everything fetched on her behalf; `onPurpose`: she left herself, and
 * the next sign-in in the tab starts from Home (lib/sign-in-return.ts).
 */
export function clearSession(queryClient: QueryClient, { onPurpose = false }: { onPurpose?: boolean } = {}): void {
  if (onPurpose) rememberLeftOnPurpose();
  setSignedInUser(null);
  queryClient.setQueryData(userQueryKey, null);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== userQueryKey[0] });
}

export async function logout(): Promise<void> {
  try {
    // the browser's session, whoever this tab was opened for: she asked to sign out (a tab
    // opened for someone signed out since said "Logged out." and left the other signed in)
    await api.post('/api/logout', {}, { schema: lazySchema((c) => c.MessageResponse), redirectOnUnauthorized: false, anyUser: true });
  } catch (error) {
    // Already signed out (the session expired): the outcome she asked for.
    if (isApiRequestError(error) && error.status === 401) return;
    throw error;
  }
}

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    // offline, it fails at once and says she is still signed in: paused until she was back, it
    // counted as a save waiting to be sent, and closing the tab left her signed in unawares
    networkMode: 'always',
    onSuccess: () => {
      const userId = signedInUserOfTab();
      clearSession(queryClient, { onPurpose: true });
      dropLocalData();
      if (userId) announceSessionEnd(userId, 'logged out');
      void navigate(paths.auth, { replace: true });
      toast({ title: 'Logged out.' });
    },
    onError: (error) => {
      toast({
        title: 'Logout failed',
        ...(isNetworkError(error)
          ? { description: 'No connection: you are still signed in on this device. Please try again once you are back online.' }
          : {}),
        variant: 'destructive',
      });
    },
  });
}

/** How her other tabs of this browser learn that she signed out, or deleted her account, in one of them. */
const SESSION_CHANNEL = 'sleepweave:session';

export type SessionEnd = 'logged out' | 'account deleted';

interface SessionEndNotice {
  userId: string;
  end: SessionEnd;
}

const sessionChannel = (): BroadcastChannel | null =>
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL);

/** Tells her other tabs that she ended her session on purpose in this one (each then drops what it keeps of her). */
export function announceSessionEnd(userId: string, end: SessionEnd): void {
  const sender = sessionChannel();
  if (!sender) return;
  sender.postMessage({ userId, end } satisfies SessionEndNotice);
  sender.close();
}

/**
 * Follows what her other tabs announce: when she signed out or deleted her account in one,
 * this tab, if it is hers, leaves her data too (the cached pages, her drafts and screen
 * states) and goes to sign in. Before, it went on showing her journal and her messages (as
 * "You"), and kept an unsaved entry in its storage after her account was gone, until its
 * next request. Mounted once by the app.
 */
export function useSessionEndsElsewhere(): void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    const receiver = sessionChannel();
    if (!receiver) return;
    receiver.onmessage = (event: MessageEvent<SessionEndNotice>) => {
      const { userId, end } = event.data ?? {};
      if (!userId || userId !== signedInUserOfTab()) return;
      clearSession(queryClient, { onPurpose: true });
      dropLocalData();
      void navigate(paths.auth, { replace: true });
      toast(
        end === 'account deleted'
          ? { title: 'Account deleted', description: 'Your account was deleted in another tab.' }
          : { title: 'Logged out.', description: 'You logged out in another tab.' },
      );
    };
    return () => receiver.close();
  }, [queryClient, navigate]);
}
