import type { WebSocket } from 'ws';
import { z } from 'zod';
import { forbidden, unauthorized, type ServiceApp } from '@sleepweave/service-kit';
import { isAllowedOrigin, type GatewayDeps } from './app.ts';

/** What a browser may send over /ws. Community adds `join_thread`. */
const ClientMessage = z.discriminatedUnion('type', [z.object({ type: z.literal('ping') })]);

/**
 * /ws: authenticated at the upgrade from the session cookie, `Origin` checked
 * (browsers do not apply CORS to WebSockets, so this check is what stops other sites).
 * Sockets of a session are closed when the session is revoked.
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
        if (!origin || !isAllowedOrigin(origin, request.headers.host, deps.config.APP_URL)) throw forbidden('Cross-origin WebSocket refused.');
        const session = await deps.sessions.resolve(request);
        if (!session) throw unauthorized();
        request.session = session;
      },
    },
    (socket, request) => {
      const sessionId = request.session!.claims.sid;
      const set = socketsBySession.get(sessionId) ?? new Set<WebSocket>();
      set.add(socket);
      socketsBySession.set(sessionId, set);
      socket.on('close', () => {
        set.delete(socket);
        if (set.size === 0) socketsBySession.delete(sessionId);
      });
      socket.on('message', (raw) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw.toString());
        } catch {
          socket.send(JSON.stringify({ type: 'error', message: 'Messages must be JSON.' }));
          return;
        }
        const message = ClientMessage.safeParse(parsed);
        if (!message.success) {
          socket.send(JSON.stringify({ type: 'error', message: 'Unknown message.' }));
          return;
        }
        switch (message.data.type) {
          case 'ping':
            socket.send(JSON.stringify({ type: 'pong' }));
            return;
        }
      });
    },
  );
}
