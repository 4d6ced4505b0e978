import { THREAD_NOT_FOUND_MESSAGE } from '@sleepweave/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { openLiveSocket, reconnectDelayMs, type SocketStatus } from '../../../lib/socket';
import { threadsQueryKey } from './get-threads';
import { catchUpThread, threadQueryKey } from './get-thread';

/**
 * Whether the open thread is live:
 * - connecting: the socket is opening, or the gateway is still checking the join;
 * - live: the gateway answered `joined`, so new messages arrive as they are posted;
 * - reconnecting: the connection dropped and is being made again;
 * - paused: the gateway refused the join for now (the community service slow or restarting,
 *   too many joins a minute); the join is tried again with backoff on the same connection;
 * - ended: her session ended (the gateway closed the socket; the next call signs her in).
 */
export type ThreadLiveStatus = 'connecting' | 'live' | 'reconnecting' | 'paused' | 'ended';

/** The thread's status from the socket's: an open socket is live only once the join is answered. */
function fromSocket(status: SocketStatus): ThreadLiveStatus {
  return status === 'reconnecting' ? 'reconnecting' : status === 'closed' ? 'ended' : 'connecting';
}

/**
 * Live updates of one open thread: one WebSocket while the screen is open, closed on
 * leaving. The first `joined` and every `new_message` fetch what is new since the newest
 * message she has (`?after=`): a new message costs one message, not the whole thread. A
 * `joined` after that (a reconnection) loads the thread whole, so that nothing posted or
 * taken out while the connection was down is missed. The thread list is only marked stale: it is fetched when shown. A join
 * the gateway refuses is asked again, up to 0.5 s doubling up to 15 s; one refused because the
 * thread is gone (or no longer hers) also reloads the thread, which then says so. A burst
 * of notices costs one catch-up after the one under way, not one each. A `thread_changed`
 * (a deleted account's messages left the thread) loads it again whole.
 */
export function useThreadLive(threadId: string, enabled: boolean): ThreadLiveStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<ThreadLiveStatus>('connecting');

  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let refusals = 0;
    let rejoin: ReturnType<typeof setTimeout> | null = null;
    const cancelRejoin = () => {
      if (rejoin) clearTimeout(rejoin);
      rejoin = null;
    };
    // One catch-up at a time: notices that come while one is under way (a burst of
    // messages) are answered by a single one after it, not one request each.
    let catchingUp = false;
    let again = false;
    // The next turn loads the thread whole (a deleted account's messages left it): after a
    // catch-up under way, which would otherwise land after it and bring hers back.
    let whole = false;
    let joins = 0;
    const refetch = (loadWhole = false) => {
      void queryClient.invalidateQueries({ queryKey: threadsQueryKey, refetchType: 'none' });
      if (loadWhole) whole = true;
      if (catchingUp) {
        again = true;
        return;
      }
      catchingUp = true;
      void (async () => {
        do {
          again = false;
          const reload = () => queryClient.invalidateQueries({ queryKey: threadQueryKey(threadId) });
          if (whole) {
            whole = false;
            await reload().catch(() => undefined);
          } else {
            // failed: loaded whole instead (at once, or by the turn asked for meanwhile)
            await catchUpThread(queryClient, threadId).catch(() => (whole ? undefined : reload()));
          }
        } while (again && !stopped);
        catchingUp = false;
      })();
    };
    const live = openLiveSocket({
      onOpen: (send) => {
        cancelRejoin();
        send({ type: 'join_thread', threadId });
      },
      onMessage: (message) => {
        if (stopped || !('threadId' in message) || message.threadId !== threadId) return;
        if (message.type === 'joined') {
          refusals = 0;
          setStatus('live');
        }
        // On the first join too: it closes the gap between the fetch that opened the screen and the join.
        // A join after that (a reconnection) loads it whole: a thread_changed sent while the
        // connection was down is not sent again, and new messages alone would leave hers on screen.
        if (message.type === 'joined') {
          joins += 1;
          refetch(joins > 1);
        }
        if (message.type === 'new_message') refetch();
        // a deleted account's messages left it: what she has on screen is loaded again, whole
        if (message.type === 'thread_changed') refetch(true);
        if (message.type === 'error') {
          setStatus('paused');
          // gone, or no longer hers: the reload says so (and ends this); if it still shows the thread, the join is asked again
          if (message.message === THREAD_NOT_FOUND_MESSAGE) void queryClient.invalidateQueries({ queryKey: threadQueryKey(threadId) });
          refusals += 1;
          cancelRejoin();
          rejoin = setTimeout(() => {
            rejoin = null;
            live.send({ type: 'join_thread', threadId });
          }, reconnectDelayMs(refusals));
        }
      },
      // Three attempts in a row that did not connect: ask the API, which says why (a 401 there
      // takes her to sign in, when her session ended elsewhere) and brings what she missed.
      onUnreachable: (failures) => {
        if (failures % 3 === 0) refetch();
      },
      onStatus: (socketStatus) => {
        if (stopped || socketStatus === 'open') return; // live once joined
        cancelRejoin();
        setStatus(fromSocket(socketStatus));
      },
    });
    return () => {
      stopped = true;
      cancelRejoin();
      live.close();
    };
  }, [threadId, enabled, queryClient]);

  return enabled ? status : 'connecting';
}
