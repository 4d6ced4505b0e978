import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { openLiveSocket, type SocketStatus } from '../../../lib/socket';
import { threadsQueryKey } from './get-threads';
import { threadQueryKey } from './get-thread';

/**
 * Live updates of one open thread: one WebSocket while the screen is open, closed on
 * leaving. Every `joined` (the first and each after a reconnect) and every `new_message`
 * refetches the thread, so a message posted while the connection was down is not missed.
 */
export function useThreadLive(threadId: string, enabled: boolean): SocketStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<SocketStatus>('connecting');

  useEffect(() => {
    if (!enabled) return;
    const refetch = () => {
      void queryClient.invalidateQueries({ queryKey: threadQueryKey(threadId) });
      void queryClient.invalidateQueries({ queryKey: threadsQueryKey });
    };
    const live = openLiveSocket({
      onOpen: (send) => send({ type: 'join_thread', threadId }),
      onMessage: (message) => {
        // On the first join too: it closes the gap between the fetch that opened the screen and the join.
        if ((message.type === 'joined' || message.type === 'new_message') && message.threadId === threadId) refetch();
      },
      onStatus: setStatus,
    });
    return () => live.close();
  }, [threadId, enabled, queryClient]);

  return status;
}
