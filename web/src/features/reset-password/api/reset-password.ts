import { MessageResponse, type ResetPasswordRequest } from '@sleepweave/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/reset-password: the new password; every session of hers ends. */
export function resetPassword(data: ResetPasswordRequest): Promise<MessageResponse> {
  return api.post('/api/reset-password', data, { schema: MessageResponse, redirectOnUnauthorized: false });
}

export function useResetPassword({
  onSuccess,
  onError,
}: {
  onSuccess?: (response: MessageResponse) => void;
  onError?: (error: Error) => void;
} = {}) {
  // offline, a failure at once ("Network error"), not a request paused until she is back: the button spun for good
  return useMutation({ mutationFn: resetPassword, onSuccess, onError, networkMode: 'always' });
}
