import { MessageResponse, type ChangePasswordRequest } from '@sleepweave/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/account/password: her other sessions end, this one stays. A wrong current password is a 403. */
export function changePassword(data: ChangePasswordRequest): Promise<MessageResponse> {
  return api.post('/api/account/password', data, { schema: MessageResponse });
}

export function useChangePassword({
  onSuccess,
  onError,
}: {
  onSuccess?: (response: MessageResponse) => void;
  onError?: (error: Error) => void;
} = {}) {
  return useMutation({ mutationFn: changePassword, onSuccess, onError });
}
