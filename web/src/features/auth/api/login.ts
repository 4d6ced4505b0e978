import { AuthResponse, type LoginRequest } from '@sleepweave/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { setSessionUser } from '../../../lib/auth';

/** POST /api/login. A 401 here means wrong credentials, not an expired session. */
export function login(data: LoginRequest): Promise<AuthResponse> {
  return api.post('/api/login', data, { schema: AuthResponse, redirectOnUnauthorized: false });
}

export function useLogin({
  onSuccess,
  onError,
}: {
  onSuccess?: (response: AuthResponse) => void;
  onError?: (error: Error) => void;
} = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    // offline, a failure at once ("Network error"), not a request paused until she is back: the button spun for good
    networkMode: 'always',
    onSuccess: (response) => {
      setSessionUser(queryClient, response.user);
      onSuccess?.(response);
    },
    onError,
  });
}
