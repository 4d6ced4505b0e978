import { ThreadListItem, type CreateThreadRequest } from '@sleepweave/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { threadsQueryKey } from './get-threads';

/** POST /api/community/thread. A 401 is handled by the caller (toast, then sign-in after 0.5 s). */
export const createThread = (data: CreateThreadRequest) =>
  api.post('/api/community/thread', data, { schema: ThreadListItem, redirectOnUnauthorized: false });

export function useCreateThread({
  onSuccess,
  onError,
}: { onSuccess?: (thread: ThreadListItem) => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createThread,
    onSuccess: async (thread) => {
      onSuccess?.(thread);
      await queryClient.invalidateQueries({ queryKey: threadsQueryKey });
    },
    onError,
  });
}
