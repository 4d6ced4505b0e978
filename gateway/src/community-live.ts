import type { Bus, Subscription } from '@sleepweave/bus';
import { isEventOfType, type EventEnvelope, type ServerSocketMessage } from '@sleepweave/contracts';
import { callService, internalHeaders } from '@sleepweave/service-kit';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';

/** A client that reads so slowly that this much waits to be sent is closed. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * Sends a frame to an open socket; one whose client has stopped reading (this much waits
 * already) is terminated instead of buffering more in the gateway. False when not sent.
 */
export function sendFrame(socket: WebSocket, text: string): boolean {
  if (socket.readyState !== socket.OPEN) return false;
  if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
    socket.terminate(); // it does not read what it is sent
    return false;
  }
  socket.send(text);
  return true;
}

/** What the community service said about a socket's wish to follow a thread. */
export type JoinDecision = 'allowed' | 'denied' | 'unauthorized' | 'unavailable';

/** A socket may follow this many threads at once (the web app follows one per connection). */
export const MAX_THREADS_PER_SOCKET = 20;

/** What a follower is told while new messages cannot reach this process (NATS away): the browser shows "paused" and joins again. */
export const LIVE_PAUSED_MESSAGE = 'Live updates are not available right now. Please try again.';

/**
 * The live side of the community in one gateway process: which of this process's
 * sockets follow which thread, and delivery of `community.message.posted` (and
 * `community.thread.changed`) to them.
 *
 * Every gateway process follows the COMMUNITY stream with its own ordered consumer
 * (`bus.watch`), so each one sees every event and delivers it to its own sockets: with
 * several gateways side by side, a socket gets each message once, from the process it is
 * connected to. A socket is in a thread's set at most once, so joining twice never doubles
 * a delivery.
 */
export class ThreadHub {
  private readonly followers = new Map<string, Set<WebSocket>>();
  private watch: Subscription | null = null;
  private watching: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly options: { communityUrl: string | undefined; internalToken: string; logger: Logger }) {}

  /**
   * Asks the community service whether the token's owner may open the thread: a named
   * internal call, `GET /internal/threads/{id}/access` with her Bearer token (never routed
   * from outside; docs/decisions.md).
   */
  async mayJoin(threadId: string, accessToken: string, correlationId: string): Promise<JoinDecision> {
    const { communityUrl, logger } = this.options;
    if (!communityUrl) return 'unavailable';
    try {
      const { status } = await callService(new URL(`/internal/threads/${encodeURIComponent(threadId)}/access`, communityUrl), {
        headers: {
          authorization: `Bearer ${accessToken}`,
          'x-correlation-id': correlationId,
          ...internalHeaders(this.options.internalToken),
        },
        timeoutMs: 5_000,
      });
      if (status === 204) return 'allowed';
      if (status === 404) return 'denied';
      if (status === 401) return 'unauthorized';
      logger.warn({ status, threadId }, 'community access check answered unexpectedly');
      return 'unavailable';
    } catch (err) {
      logger.warn({ err, threadId }, 'community access check failed');
      return 'unavailable';
    }
  }

  join(threadId: string, socket: WebSocket): void {
    const set = this.followers.get(threadId) ?? new Set<WebSocket>();
    set.add(socket);
    this.followers.set(threadId, set);
  }

  leave(threadId: string, socket: WebSocket): void {
    const set = this.followers.get(threadId);
    if (!set) return;
    set.delete(socket);
    if (set.size === 0) this.followers.delete(threadId);
  }

  /** Whether new messages reach this process now: its watch is following (none attached: always). */
  isLive(): boolean {
    return this.watch === null || this.watch.state() === 'following';
  }

  /**
   * Takes the watch that feeds it, and checks its state every `everyMs`: when it stops
   * following (NATS away), every follower is told, once, that live updates are paused. Its
   * browser shows so and joins again, which is refused until the watch follows again, and
   * then brings what was missed. (A thread said "Live" through a NATS outage while nothing
   * reached it.)
   */
  attach(watch: Subscription, everyMs = 1_000): void {
    this.watch = watch;
    let wasLive = this.isLive();
    this.watching = setInterval(() => {
      const live = this.isLive();
      if (wasLive && !live) this.pauseAll();
      wasLive = live;
    }, everyMs);
    this.watching.unref?.();
  }

  detach(): void {
    if (this.watching) clearInterval(this.watching);
    this.watching = null;
    this.watch = null;
  }

  /** Tells every follower that live updates are paused (an `error` for each thread it follows). */
  private pauseAll(): void {
    this.options.logger.warn({ threads: this.followers.size }, 'the community watch stopped following: live updates paused');
    for (const [threadId, sockets] of this.followers) {
      const text = JSON.stringify({ type: 'error', threadId, message: LIVE_PAUSED_MESSAGE } satisfies ServerSocketMessage);
      for (const socket of sockets) sendFrame(socket, text);
    }
  }

  /** Sockets following a thread in this process (for tests and metrics). */
  followerCount(threadId: string): number {
    return this.followers.get(threadId)?.size ?? 0;
  }

  /**
   * Sends `new_message` (a message posted) or `thread_changed` (a deleted account's messages
   * left it) to this process's sockets that follow the thread.
   */
  deliver(envelope: EventEnvelope): number {
    let notice: ServerSocketMessage;
    if (isEventOfType(envelope, 'community.message.posted')) {
      const { threadId, messageId, senderId, createdAt } = envelope.data;
      notice = { type: 'new_message', threadId, message: { id: messageId, senderId, createdAt } };
    } else if (isEventOfType(envelope, 'community.thread.changed')) {
      notice = { type: 'thread_changed', threadId: envelope.data.threadId };
    } else {
      return 0;
    }
    const sockets = this.followers.get(notice.threadId);
    if (!sockets) return 0;
    const text = JSON.stringify(notice);
    let sent = 0;
    // the notices are most of what a socket is sent: the slow-reader guard applies to them too
    for (const socket of sockets) if (sendFrame(socket, text)) sent += 1;
    return sent;
  }
}

/**
 * Follows `community.message.posted` and `community.thread.changed` from now on (an
 * ordered, ephemeral consumer per process) and hands each to the hub. A message posted
 * while a socket was reconnecting is not replayed to it: the browser catches up with the
 * thread whenever it (re)joins.
 */
export async function followCommunityMessages(bus: Bus, hub: ThreadHub, logger: Logger): Promise<Subscription> {
  const watch = await bus.watch({
    stream: 'COMMUNITY',
    types: ['community.message.posted', 'community.thread.changed'],
    since: new Date(),
    handler: (envelope) => {
      const sent = hub.deliver(envelope);
      if (sent > 0) logger.debug({ eventId: envelope.id, sent }, 'new message delivered to sockets');
    },
  });
  hub.attach(watch);
  return {
    state: () => watch.state(),
    stop: async () => {
      hub.detach();
      await watch.stop();
    },
  };
}
