import type { WebSocket } from 'ws';
import { ClientSocketMessage, THREAD_NOT_FOUND_MESSAGE, type ServerSocketMessage } from '@sleepweave/contracts';
import { clientAddress, forbidden, tooManyRequests, unauthorized, type ServiceApp } from '@sleepweave/service-kit';
import type { GatewayDeps } from './deps.ts';
import { isAllowedOrigin } from './origin.ts';
import { LIVE_PAUSED_MESSAGE, MAX_THREADS_PER_SOCKET, sendFrame } from './community-live.ts';

/** join_thread messages a socket may send per minute (each costs a call to community). */
export const JOINS_PER_MINUTE = 30;
/** Messages of any kind a socket may send per minute; beyond twice that it is closed. */
export const FRAMES_PER_MINUTE = 120;

/** Close codes (4000-4999 are the application's): the browser reconnects after any but 4401. */
export const CLOSE = {
  sessionEnded: 4401,
  /** Its access token expired: the browser reconnects, renewing the session from its cookie. */
  renewalNeeded: 4000,
  tooManyMessages: 4429,
  idle: 4408,
  tooSlow: 4413,
} as const;

const send = (socket: WebSocket, message: ServerSocketMessage) => sendFrame(socket, JSON.stringify(message));

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
  /** Open sockets by user, and by client address (clientAddress: an IPv6 client by its /64). */
  const socketsByUser = new Map<string, number>();
  const socketsByIp = new Map<string, number>();
  const {
    WS_MAX_SOCKETS_PER_SESSION: perSession,
    WS_MAX_SOCKETS_PER_USER: perUser,
    WS_MAX_SOCKETS_PER_IP: perIp,
    WS_HEARTBEAT_MS,
    WS_IDLE_MS,
  } = deps.config;
  const add = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const remove = (counts: Map<string, number>, key: string) => {
    const left = (counts.get(key) ?? 1) - 1;
    if (left > 0) counts.set(key, left);
    else counts.delete(key);
  };

  deps.revocations.onRevoke((sessionId) => {
    for (const socket of socketsBySession.get(sessionId) ?? []) socket.close(CLOSE.sessionEnded, 'session ended');
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
        // An upgrade cannot set cookies: renew the access token without rotating the refresh token.
        const session = await deps.sessions.resolve(request, { rotate: false });
        if (!session) throw unauthorized();
        if ((socketsByIp.get(clientAddress(request.ip)) ?? 0) >= perIp) throw tooManyRequests('Too many live connections from here.');
        if ((socketsBySession.get(session.claims.sid)?.size ?? 0) >= perSession) {
          throw tooManyRequests('Too many live connections for this session. Close a tab and try again.');
        }
        if ((socketsByUser.get(session.claims.sub) ?? 0) >= perUser) {
          throw tooManyRequests('Too many live connections for your account. Close a tab or sign out elsewhere and try again.');
        }
        request.session = session;
      },
    },
    (socket, request) => {
      const session = request.session!;
      const sessionId = session.claims.sid;
      const set = socketsBySession.get(sessionId) ?? new Set<WebSocket>();
      set.add(socket);
      socketsBySession.set(sessionId, set);
      const ip = clientAddress(request.ip);
      const userId = session.claims.sub;
      add(socketsByIp, ip);
      add(socketsByUser, userId);
      /**
       * Threads this socket follows: `true` once joined; while community is being asked, how
       * many join_thread messages wait for its answer (each gets one, never `joined` before it).
       */
      const threads = new Map<string, true | number>();
      const expiry = setTimeout(
        () => socket.close(CLOSE.renewalNeeded, 'session renewal needed'),
        Math.max(0, session.expiresAt * 1000 - Date.now()),
      );
      let joinWindowStart = Date.now();
      let joinsInWindow = 0;
      let frameWindowStart = Date.now();
      let framesInWindow = 0;
      let lastFollowedAt = Date.now();

      // A heartbeat: a socket that did not answer the previous ping (a vanished client) goes,
      // and so does one that has followed no thread for WS_IDLE_MS.
      let alive = true;
      socket.on('pong', () => (alive = true));
      const heartbeat = setInterval(() => {
        if (!alive) return socket.terminate();
        if (threads.size > 0) lastFollowedAt = Date.now();
        else if (Date.now() - lastFollowedAt > WS_IDLE_MS) return socket.close(CLOSE.idle, 'idle');
        alive = false;
        socket.ping();
      }, WS_HEARTBEAT_MS);

      socket.on('close', () => {
        clearTimeout(expiry);
        clearInterval(heartbeat);
        set.delete(socket);
        if (set.size === 0) socketsBySession.delete(sessionId);
        remove(socketsByIp, ip);
        remove(socketsByUser, userId);
        for (const threadId of threads.keys()) deps.threads?.leave(threadId, socket);
        threads.clear();
      });

      async function join(threadId: string) {
        const hub = deps.threads;
        if (!hub) return send(socket, { type: 'error', threadId, message: 'Live updates are not available.' });
        // while new messages cannot reach this process (NATS away), not "joined": it would say Live
        if (!hub.isLive()) return send(socket, { type: 'error', threadId, message: LIVE_PAUSED_MESSAGE });
        const state = threads.get(threadId);
        if (state === true) return send(socket, { type: 'joined', threadId });
        // being checked: this one is answered with the first
        if (state !== undefined) return void threads.set(threadId, state + 1);
        if (threads.size >= MAX_THREADS_PER_SOCKET) {
          return send(socket, { type: 'error', threadId, message: `A connection may follow at most ${MAX_THREADS_PER_SOCKET} threads.` });
        }
        threads.set(threadId, 1);
        const decision = await hub.mayJoin(threadId, session.accessToken, request.correlationId);
        // left, or the socket closed, while the community service was being asked
        const waiting = threads.get(threadId);
        if (typeof waiting !== 'number' || socket.readyState !== socket.OPEN) return;
        if (decision === 'unauthorized') {
          // Community checks the access token alone: its 401 says the token expired (the
          // socket was opened with it in its last seconds, or the clocks differ), not that
          // the session ended. The browser reconnects, renewing it; a session that did end is
          // refused at that upgrade.
          socket.close(CLOSE.renewalNeeded, 'session renewal needed');
          return;
        }
        if (decision !== 'allowed') {
          threads.delete(threadId);
          const message = decision === 'denied' ? THREAD_NOT_FOUND_MESSAGE : 'Live updates are not available right now. Please try again.';
          for (let i = 0; i < waiting; i++) send(socket, { type: 'error', threadId, message });
          return;
        }
        threads.set(threadId, true);
        hub.join(threadId, socket);
        for (let i = 0; i < waiting; i++) send(socket, { type: 'joined', threadId });
      }

      socket.on('message', (raw) => {
        if (Date.now() - frameWindowStart > 60_000) {
          frameWindowStart = Date.now();
          framesInWindow = 0;
        }
        framesInWindow += 1;
        if (framesInWindow > 2 * FRAMES_PER_MINUTE) return socket.close(CLOSE.tooManyMessages, 'too many messages');
        if (framesInWindow > FRAMES_PER_MINUTE) {
          if (framesInWindow === FRAMES_PER_MINUTE + 1) send(socket, { type: 'error', message: 'Too many messages. Please slow down.' });
          return;
        }
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
              send(socket, { type: 'error', threadId, message: LIVE_PAUSED_MESSAGE });
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
