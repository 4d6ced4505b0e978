import { MessageResponse, type DeleteAccountRequest } from '@sleepweave/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, signedInUserOfTab } from '../../../lib/api-client';
import { announceSessionEnd, clearSession } from '../../../lib/auth';
import { dropLocalData } from '../../../lib/local-data';

/** DELETE /api/account with her password: everything of hers is deleted and she is signed out. */
export function deleteAccount(data: DeleteAccountRequest): Promise<MessageResponse> {
  return api.delete('/api/account', data, { schema: MessageResponse });
}

export function useDeleteAccount({
  onSuccess,
  onError,
}: {
  onSuccess?: (response: MessageResponse) => void;
  onError?: (error: Error) => void;
} = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: (response) => {
      const userId = signedInUserOfTab();
      clearSession(queryClient, { onPurpose: true });
      dropLocalData();
      if (userId) announceSessionEnd(userId, 'account deleted');
      onSuccess?.(response);
    },
    onError,
  });
}
