import type { WebSocket } from 'ws';
import { ClientSocketMessage, THREAD_NOT_FOUND_MESSAGE, type ServerSocketMessage } from '@sleepweave/contracts';
import { forbidden, unauthorized, type ServiceApp } from '@sleepweave/service-kit';
import type { GatewayDeps } from './deps.ts';
import { isAllowedOrigin } from './origin.ts';
import { MAX_THREADS_PER_SOCKET } from './community-live.ts';

/** join_thread messages a socket may send per minute (each costs a call to community). */
export const JOINS_PER_MINUTE = 30;

const send = (socket: WebSocket, message: ServerSocketMessage) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};

/**
 * /ws: authenticated at the upgrade from the session cookie, `Origin` checked
 * (browsers do not apply CORS to WebSockets, so this check is what stops other sites).
 * Sockets of a session are closed when the session is revoked, and when the access token
 * they were opened with expires (the browser reconnects, renewing the session from its
 * cookie, so a session that ended meanwhile stops receiving anything).
 *
 * Messages (libs/contracts sockets.ts): `ping` -> `pong`; `join_thread` -> `joined`
 * when the community service says she may open the thread, else `error` (she then gets
 * nothing of it); `leave_thread` -> `left`. Joined sockets get `new_message` notices
 * (community-live.ts).
 */
export async function socketRoutes(app: ServiceApp, deps: GatewayDeps): Promise<void> {
  const socketsBySession = new Map<string, Set<WebSocket>>();

  deps.revocations.onRevoke((sessionId) => {
    for (const socket of socketsBySession.get(sessionId) ?? []) socket.close(4401, 'session ended');
    socketsBySession.delete(sessionId);
  });

  app.get(
    '/ws',
    {
      websocket: true,
      preValidation: async (request) => {
        const origin = request.headers.origin;
        // A browser always sends Origin on a WebSocket handshake; require it and require ours.
        if (!origin || !isAllowedOrigin(origin, deps.config.APP_URL)) throw forbidden('Cross-origin WebSocket refused.');
        const session = await deps.sessions.resolve(request);
        if (!session) throw unauthorized();
        request.session = session;
      },
    },
    (socket, request) => {
      const session = request.session!;
      const sessionId = session.claims.sid;
      const set = socketsBySession.get(sessionId) ?? new Set<WebSocket>();
      set.add(socket);
      socketsBySession.set(sessionId, set);
      /** Threads this socket follows (joined, or being checked). */
      const threads = new Set<string>();
      const expiry = setTimeout(() => socket.close(4401, 'session renewal needed'), Math.max(0, session.expiresAt * 1000 - Date.now()));
      let joinWindowStart = Date.now();
      let joinsInWindow = 0;

      socket.on('close', () => {
        clearTimeout(expiry);
        set.delete(socket);
        if (set.size === 0) socketsBySession.delete(sessionId);
        for (const threadId of threads) deps.threads?.leave(threadId, socket);
        threads.clear();
      });

      async function join(threadId: string) {
        const hub = deps.threads;
        if (!hub) return send(socket, { type: 'error', threadId, message: 'Live updates are not available.' });
        if (threads.has(threadId)) return send(socket, { type: 'joined', threadId });
        if (threads.size >= MAX_THREADS_PER_SOCKET) {
          return send(socket, { type: 'error', threadId, message: `A connection may follow at most ${MAX_THREADS_PER_SOCKET} threads.` });
        }
        threads.add(threadId);
        const decision = await hub.mayJoin(threadId, session.accessToken, request.correlationId);
        // left, or the socket closed, while the community service was being asked
        if (!threads.has(threadId) || socket.readyState !== socket.OPEN) return;
        if (decision !== 'allowed') {
          threads.delete(threadId);
          const message =
            decision === 'denied'
              ? THREAD_NOT_FOUND_MESSAGE
              : decision === 'unauthorized'
                ? 'Your session has ended. Please sign in again.'
                : 'Live updates are not available right now. Please try again.';
          send(socket, { type: 'error', threadId, message });
          if (decision === 'unauthorized') socket.close(4401, 'session ended');
          return;
        }
        hub.join(threadId, socket);
        send(socket, { type: 'joined', threadId });
      }

      socket.on('message', (raw) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw.toString());
        } catch {
          send(socket, { type: 'error', message: 'Messages must be JSON.' });
          return;
        }
        const message = ClientSocketMessage.safeParse(parsed);
        if (!message.success) {
          send(socket, { type: 'error', message: 'Unknown message.' });
          return;
        }
        switch (message.data.type) {
          case 'ping':
            send(socket, { type: 'pong' });
            return;
          case 'join_thread': {
            const { threadId } = message.data;
            if (Date.now() - joinWindowStart > 60_000) {
              joinWindowStart = Date.now();
              joinsInWindow = 0;
            }
            if (++joinsInWindow > JOINS_PER_MINUTE) {
              send(socket, { type: 'error', threadId, message: 'Too many requests. Please wait a minute.' });
              return;
            }
            join(threadId).catch((err: unknown) => {
              request.log.error({ err }, 'join_thread failed');
              threads.delete(threadId);
              send(socket, { type: 'error', threadId, message: 'Live updates are not available right now. Please try again.' });
            });
            return;
          }
          case 'leave_thread':
            threads.delete(message.data.threadId);
            deps.threads?.leave(message.data.threadId, socket);
            send(socket, { type: 'left', threadId: message.data.threadId });
            return;
        }
      });
    },
  );
}
