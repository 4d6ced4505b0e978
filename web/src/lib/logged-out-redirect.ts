import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '../components/ui/toast';
import { paths } from '../config/paths';
import { clearSession } from './auth';
import { signInReturn } from './sign-in-return';

/** docs/product.md §9: unauthorised redirects wait 0.5 s, so the toast can be read. */
export const LOGGED_OUT_REDIRECT_MS = 500;

/**
 * docs/product.md §8: a 401 on a save toasts 'Unauthorized' / 'You are logged out. Logging in
 * again...' and goes to sign in (/auth, docs/decisions.md) after 0.5 s. The call itself
 * passes `redirectOnUnauthorized: false` so the api client does not leave at once.
 */
export function useLoggedOutRedirect(): () => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  return useCallback(() => {
    toast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive' });
    if (timer.current) return;
    timer.current = setTimeout(() => {
      clearSession(queryClient);
      void navigate(paths.auth, { replace: true, state: signInReturn(location) });
    }, LOGGED_OUT_REDIRECT_MS);
  }, [queryClient, navigate, location]);
}
