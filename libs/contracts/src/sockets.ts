import { z } from 'zod';
import { Uuid } from './common.ts';

/**
 * Messages over the gateway's WebSocket `/ws`, shared by the gateway and the web app.
 * They are small "something changed" notices: the browser refetches what changed
 * through the API (which checks access again) instead of keeping a second store.
 */
export const ClientSocketMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  /** Live updates of one thread; accepted only for a thread she may open. */
  z.object({ type: z.literal('join_thread'), threadId: Uuid }),
  z.object({ type: z.literal('leave_thread'), threadId: Uuid }),
]);
export type ClientSocketMessage = z.infer<typeof ClientSocketMessage>;

export const ServerSocketMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('joined'), threadId: Uuid }),
  z.object({ type: z.literal('left'), threadId: Uuid }),
  /** Someone posted in a joined thread: refetch it. */
  z.object({
    type: z.literal('new_message'),
    threadId: Uuid,
    message: z.object({ id: Uuid, senderId: Uuid, createdAt: z.string() }),
  }),
  /** Something left a joined thread (a deleted account's messages): load it again. */
  z.object({ type: z.literal('thread_changed'), threadId: Uuid }),
  z.object({ type: z.literal('error'), message: z.string(), threadId: Uuid.optional() }),
]);
export type ServerSocketMessage = z.infer<typeof ServerSocketMessage>;
