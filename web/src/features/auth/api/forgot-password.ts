import { MessageResponse, type ForgotPasswordRequest } from '@sleepweave/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/forgot-password: the same answer whether the e-mail is registered or not. */
export function forgotPassword(data: ForgotPasswordRequest): Promise<MessageResponse> {
  return api.post('/api/forgot-password', data, { schema: MessageResponse, redirectOnUnauthorized: false });
}

export function useForgotPassword({
  onSuccess,
  onError,
}: {
  onSuccess?: (response: MessageResponse) => void;
  onError?: (error: Error) => void;
} = {}) {
  // offline, a failure at once ("Network error"), not a request paused until she is back: the button spun for good
  return useMutation({ mutationFn: forgotPassword, onSuccess, onError, networkMode: 'always' });
}
