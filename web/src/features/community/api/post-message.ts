import { Message, type CreateMessageRequest } from '@sleepweave/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { threadsQueryKey } from './get-threads';
import { catchUpThread, threadQueryKey } from './get-thread';

/** POST /api/community/message. A 401 is handled by the caller (toast, then sign-in after 0.5 s). */
export const postMessage = (data: CreateMessageRequest, idempotencyKey?: string) =>
  api.post('/api/community/message', data, { schema: Message, redirectOnUnauthorized: false, idempotencyKey });

export function usePostMessage({ onSuccess, onError }: { onSuccess?: (message: Message) => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  // sent again after a failure (the composer gives her text back), the same message keeps its key
  const keys = useIdempotencyKeys('message');
  const mutation = useMutation({
    mutationFn: (data: CreateMessageRequest) => postMessage(data, keys.for(data)),
    onSuccess: async (message, sent) => {
      keys.made(sent);
      onSuccess?.(message);
      // Her message and what else is new (not the whole thread); the list when it is shown.
      await Promise.all([
        catchUpThread(queryClient, message.threadId).catch(() =>
          queryClient.invalidateQueries({ queryKey: threadQueryKey(message.threadId) }),
        ),
        queryClient.invalidateQueries({ queryKey: threadsQueryKey, refetchType: 'none' }),
      ]);
    },
    onError,
  });
  // for the composer, when she clears a message given back: her next one is new, even in the
  // same words (with the old key, the server answered with the lost one and posted nothing)
  return Object.assign(mutation, { forgetKey: keys.forget });
}
