import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { openLiveSocket, type SocketStatus } from '../../../lib/socket';
import { threadsQueryKey } from './get-threads';
import { catchUpThread, threadQueryKey } from './get-thread';

/**
 * Live updates of one open thread: one WebSocket while the screen is open, closed on
 * leaving. Every `joined` (the first and each after a reconnect) and every `new_message`
 * fetches what is new since the newest message she has (`?after=`), so a message posted
 * while the connection was down is not missed, and a new message costs one message, not
 * the whole thread. The thread list is only marked stale: it is fetched when shown.
 */
export function useThreadLive(threadId: string, enabled: boolean): SocketStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<SocketStatus>('connecting');

  useEffect(() => {
    if (!enabled) return;
    const refetch = () => {
      catchUpThread(queryClient, threadId).catch(() => queryClient.invalidateQueries({ queryKey: threadQueryKey(threadId) }));
      void queryClient.invalidateQueries({ queryKey: threadsQueryKey, refetchType: 'none' });
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
