import { AuthResponse, type RegisterRequest } from '@sleepweave/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * POST /api/register. The server signs her in (cookies); the caller puts the user into
 * the session cache when it leaves the page, after the success message has been read.
 */
export function register(data: RegisterRequest): Promise<AuthResponse> {
  return api.post('/api/register', data, { schema: AuthResponse });
}

export function useRegister({
  onSuccess,
  onError,
}: {
  onSuccess?: (response: AuthResponse) => void;
  onError?: (error: Error) => void;
} = {}) {
  // offline, a failure at once ("Network error"), not a request paused until she is back: the button spun for good
  return useMutation({ mutationFn: register, onSuccess, onError, networkMode: 'always' });
}
