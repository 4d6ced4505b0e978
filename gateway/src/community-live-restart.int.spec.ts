/**
 * A gateway's live threads across a NATS restart (its own server, on a port of its own):
 * followers are told live updates are paused while the watch does not follow, and once
 * NATS is back the watch follows by itself and messages posted then reach them again.
 */
import { randomUUID } from 'node:crypto';
import { connectBus, type Bus, type Subscription } from '@sleepweave/bus';
import { randomBusPrefix, testEnvelope } from '@sleepweave/bus/testing';
import { createLogger } from '@sleepweave/service-kit';
import { startNatsServer, type NatsServer } from '@sleepweave/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { followCommunityMessages, LIVE_PAUSED_MESSAGE, ThreadHub } from './community-live.ts';

const logger = createLogger('gateway', 'silent');
let nats: NatsServer;
let bus: Bus;
let producer: Bus;
let live: Subscription;
const hub = new ThreadHub({ communityUrl: undefined, internalToken: 'unused-here', logger });

beforeAll(async () => {
  nats = await startNatsServer();
  const prefix = randomBusPrefix();
  bus = await connectBus({ servers: nats.url, prefix, name: 'gateway-restart-test', logger });
  producer = await connectBus({ servers: nats.url, prefix, name: 'community-restart-test', logger });
  await producer.ensureStreams(['COMMUNITY']);
  live = await followCommunityMessages(bus, hub, logger);
});
afterAll(async () => {
  await live?.stop();
  await bus?.close();
  await producer?.close();
  await nats?.destroy();
});

/** A follower as the hub sees a socket: open, reading, keeping what it is sent. */
function follower() {
  const socket = {
    OPEN: 1,
    readyState: 1,
    bufferedAmount: 0,
    sent: [] as Record<string, unknown>[],
    send: (text: string) => socket.sent.push(JSON.parse(text)),
  };
  return socket;
}

const posted = (threadId: string) =>
  testEnvelope('community.message.posted', {
    threadId,
    messageId: randomUUID(),
    senderId: randomUUID(),
    createdAt: new Date().toISOString(),
  });

describe('live threads across a NATS restart', () => {
  it('says paused while NATS is away, follows again by itself, and delivers what is posted after, to every follower', async () => {
    const threadId = randomUUID();
    const sockets = [follower(), follower(), follower()];
    for (const socket of sockets) hub.join(threadId, socket as unknown as WebSocket);
    await expect.poll(() => hub.isLive(), { timeout: 10_000 }).toBe(true);
    // under way before: a burst of messages, each to every follower
    for (let i = 0; i < 20; i++) await producer.publish(posted(threadId));
    await expect.poll(() => sockets.map((s) => s.sent.length), { timeout: 10_000 }).toEqual([20, 20, 20]);

    await nats.stop();
    await expect.poll(() => hub.isLive(), { timeout: 15_000 }).toBe(false);
    await expect
      .poll(() => sockets.map((s) => s.sent.filter((m) => m.type === 'error')), { timeout: 5_000 })
      .toEqual(sockets.map(() => [{ type: 'error', threadId, message: LIVE_PAUSED_MESSAGE }]));

    await nats.start();
    await expect.poll(() => hub.isLive(), { timeout: 30_000 }).toBe(true);
    const after = posted(threadId);
    // the producer's publish may be refused while it reconnects: published again until it goes
    await expect
      .poll(
        async () => {
          try {
            await producer.publish(after);
            return true;
          } catch {
            return false;
          }
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await expect
      .poll(
        () =>
          sockets.map(
            (s) => s.sent.filter((m) => m.type === 'new_message' && (m.message as { id: string }).id === after.data.messageId).length,
          ),
        {
          timeout: 15_000,
        },
      )
      .toEqual([1, 1, 1]);
    // paused once, not once a second
    for (const socket of sockets) expect(socket.sent.filter((m) => m.type === 'error')).toHaveLength(1);
  });
});
