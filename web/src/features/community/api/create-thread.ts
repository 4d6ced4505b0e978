import { ThreadListItem, type CreateThreadRequest } from '@sleepweave/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { threadsQueryKey } from './get-threads';

/** POST /api/community/thread. A 401 is handled by the caller (toast, then sign-in after 0.5 s). */
export const createThread = (data: CreateThreadRequest, idempotencyKey?: string) =>
  api.post('/api/community/thread', data, { schema: ThreadListItem, redirectOnUnauthorized: false, idempotencyKey });

export function useCreateThread({
  onSuccess,
  onError,
}: { onSuccess?: (thread: ThreadListItem) => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  const keys = useIdempotencyKeys('thread');
  return useMutation({
    // offline it fails at once and says so: paused until the network came back, the dialog
    // stayed on "Creating..." with Cancel disabled (spec §8: mutations do not retry)
    networkMode: 'always',
    mutationFn: (data: CreateThreadRequest) => createThread(data, keys.for(data)),
    onSuccess: async (thread, sent) => {
      keys.made(sent);
      onSuccess?.(thread);
      await queryClient.invalidateQueries({ queryKey: threadsQueryKey });
    },
    onError,
  });
}
