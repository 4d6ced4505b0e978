/**
 * NATS restarts (its own nats-server, on its own port): a watch and a durable consumer
 * follow again by themselves, and say so in their state meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startNatsServer, type NatsServer } from '@sleepweave/test-servers';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { durableNameFor, streamNameFor } from './naming.ts';
import { connectBus } from './nats-bus.ts';
import { randomBusPrefix, testEnvelope } from './testing.ts';
import type { Bus } from './types.ts';

let nats: NatsServer;
let bus: Bus;
let publisher: Bus;
const prefix = randomBusPrefix();
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

beforeAll(async () => {
  nats = await startNatsServer();
  bus = await connectBus({ servers: nats.url, prefix, name: 'restart-test', logger });
  publisher = await connectBus({ servers: nats.url, prefix, name: 'restart-test-publisher', logger });
  await bus.ensureStreams(['IDENTITY', 'COMMUNITY']);
});
// Each test from both connections made again after the test before: a client still dialling
// when the next test froze the server waited out its 20 s connection timeout.
beforeEach(async () => {
  await expect.poll(() => bus.isConnected() && publisher.isConnected(), { timeout: 15_000, interval: 20 }).toBe(true);
});
afterAll(async () => {
  await bus?.close();
  await publisher?.close();
  await nats?.destroy();
});

const revoked = () =>
  testEnvelope('identity.session.revoked', {
    sessionId: randomUUID(),
    userId: randomUUID(),
    reason: 'logout',
    revokedAt: new Date().toISOString(),
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When a bus (`bus` unless told) is next connected to NATS again. */
function nextReconnect(of: Bus = bus): Promise<number> {
  return new Promise((resolve) => {
    const unlisten = of.onReconnect(() => {
      unlisten();
      resolve(Date.now());
    });
  });
}

/** Publishes, retrying while NATS is coming back. */
async function publish(envelope: ReturnType<typeof revoked>) {
  await expect
    .poll(
      () =>
        publisher.publish(envelope).then(
          () => true,
          () => false,
        ),
      { timeout: 20_000, interval: 200 },
    )
    .toBe(true);
}

describe('after nats-server restarts', () => {
  it('a watch opened with a start time and a durable consumer both get what is published afterwards, at once', async () => {
    const watched: string[] = [];
    const consumed: string[] = [];
    const watch = await bus.watch({
      stream: 'IDENTITY',
      types: ['identity.session.revoked'],
      since: new Date(Date.now() - 60_000),
      handler: (e) => void watched.push(e.id),
    });
    const consumer = await bus.consume({
      stream: 'IDENTITY',
      durable: 'restart-test-revocations',
      types: ['identity.session.revoked'],
      handler: async (e) => void consumed.push(e.id),
    });
    let reconnects = 0;
    const unlisten = bus.onReconnect(() => void (reconnects += 1));
    try {
      const before = revoked();
      await publish(before);
      await expect.poll(() => watched.includes(before.id) && consumed.includes(before.id), { timeout: 5_000 }).toBe(true);

      // Three outages of three seconds: each time, what is published once the server is back
      // arrives within two seconds (the client's own recovery waited for missed heartbeats,
      // 30 s and more, when its recreated consumer was dead).
      for (let outage = 0; outage < 3; outage++) {
        await nats.stop();
        await sleep(3_000);
        // back once both connections are (each client waits up to a second to dial again)
        const back = Promise.all([nextReconnect(), nextReconnect(publisher)]);
        await nats.start();
        const backAt = Math.max(...(await back));
        const after = Array.from({ length: 5 }, revoked);
        for (const envelope of after) await publish(envelope);
        await expect
          .poll(() => after.every((e) => watched.includes(e.id) && consumed.includes(e.id)), { timeout: 15_000, interval: 20 })
          .toBe(true);
        expect(Date.now() - backAt).toBeLessThan(2_000);
        expect(reconnects).toBe(outage + 1); // what waits for the bus (a relay) is told at once
      }
      expect(watch.state()).toBe('following');
      expect(consumer.state()).toBe('following');
      // each once
      expect(new Set(watched).size).toBe(watched.length);
    } finally {
      unlisten();
      await watch.stop();
      await consumer.stop();
    }
  });

  it('a publish whose answer the lost connection took fails at the reconnect and is sent again, not held for its timeout', async () => {
    const watched: string[] = [];
    const watch = await bus.watch({
      stream: 'IDENTITY',
      types: ['identity.session.revoked'],
      since: new Date(),
      handler: (e) => void watched.push(e.id),
    });
    try {
      // The server stops answering before the client knows it is gone: the publish is sent
      // into the connection that is about to drop.
      await nats.freeze();
      const envelope = revoked();
      const published = bus.publish(envelope).then(
        () => 'published',
        (err: Error) => err.message,
      );
      await sleep(300);
      const back = nextReconnect();
      await nats.stop('SIGKILL');
      await nats.start();
      const backAt = await back;
      // sent again once NATS is back: it lands, well before the 5 s the lost answer would take
      expect(await published).toBe('published');
      await expect.poll(() => watched.includes(envelope.id), { timeout: 15_000, interval: 20 }).toBe(true);
      expect(Date.now() - backAt).toBeLessThan(2_000);
    } finally {
      await watch.stop();
    }
  });
  it('a stream ensured while NATS is down is made once it is back, not after a lost request times out', async () => {
    await nats.stop();
    const back = nextReconnect();
    // a stream not made yet: nats.js drops what was written while it had no connection when it dials again
    const ensured = bus.ensureStreams(['JOURNAL']).then(
      () => Date.now(),
      (err: Error) => err.message,
    );
    await sleep(500);
    await nats.start();
    const backAt = await back;
    const ensuredAt = await ensured;
    if (typeof ensuredAt === 'string') throw new Error(`the stream was not made: ${ensuredAt}`);
    expect(ensuredAt - backAt).toBeLessThan(1_500);
  });

  it('a publish that NATS does not answer fails at its timeout, without waiting for NATS', async () => {
    await nats.freeze();
    const sentAt = Date.now();
    const failed = bus.publish(revoked()).then(
      () => 'published',
      (err: Error) => err.message,
    );
    try {
      expect(await failed).toBe('timeout');
      // its own 5 s, not a second request's or a wait for NATS
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(4_900);
      expect(Date.now() - sentAt).toBeLessThan(7_000);
    } finally {
      const back = nextReconnect();
      await nats.restart('SIGKILL');
      await back;
    }
  });

  it('a watch opened as the server goes away opens once it is back, not after a lost answer times out', async () => {
    // its first request is sent into a server that no longer answers, and the answer is lost
    expect(bus.isConnected()).toBe(true);
    await nats.freeze();
    const watched: string[] = [];
    const opening = bus
      .watch({ stream: 'IDENTITY', types: ['identity.session.revoked'], since: new Date(), handler: (e) => void watched.push(e.id) })
      .then(
        (watch) => watch,
        (err: Error) => err.message,
      );
    await sleep(300);
    await nats.stop('SIGKILL');
    const back = nextReconnect();
    await nats.start();
    const backAt = await back;
    const watch = await opening;
    if (typeof watch === 'string') throw new Error(`the watch did not open: ${watch}`);
    try {
      expect(Date.now() - backAt).toBeLessThan(1_500);
      const envelope = revoked();
      await publish(envelope);
      await expect.poll(() => watched.includes(envelope.id), { timeout: 5_000, interval: 20 }).toBe(true);
      expect(watch.state()).toBe('following');
    } finally {
      await watch.stop();
    }
  });

  it.each([
    // gone again while both reopen their pulls
    { what: 'waiting for NATS to come back', durable: 'restart-test-stopping', away: () => nats.stop(), recover: () => nats.start() },
    // hung before either has reopened its pull (each waits 100 ms first)
    {
      what: 'whose reopening NATS does not answer',
      durable: 'restart-test-unanswered',
      away: () => nats.freeze(),
      recover: () => nats.restart('SIGKILL'),
    },
  ])('a watch and a consumer $what stop at once when asked', async ({ durable, away, recover }) => {
    const watch = await bus.watch({ stream: 'IDENTITY', types: ['identity.session.revoked'], since: new Date(), handler: () => undefined });
    const consumer = await bus.consume({
      stream: 'IDENTITY',
      durable,
      types: ['identity.session.revoked'],
      handler: async () => undefined,
    });
    // NATS back for a moment: both reopen their pulls
    await nats.stop();
    const back = nextReconnect();
    await nats.start();
    await back;
    await away();
    try {
      await sleep(500);
      const stopAt = Date.now();
      await Promise.all([watch.stop(), consumer.stop()]);
      expect(Date.now() - stopAt).toBeLessThan(1_000);
    } finally {
      await recover();
    }
  });

  it('a consumer setting itself up again while NATS is away stops at once when asked', async () => {
    const consumer = await bus.consume({
      stream: 'IDENTITY',
      durable: 'restart-test-setup',
      types: ['identity.session.revoked'],
      handler: async () => undefined,
    });
    // Its durable is deleted (the server tells its pull at once) and NATS goes: it sets
    // itself up again 250 ms later, while NATS is away.
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      await jsm.consumers.delete(streamNameFor(prefix, 'IDENTITY'), durableNameFor(prefix, 'restart-test-setup'));
    } finally {
      await nc.close();
    }
    await nats.stop();
    try {
      await sleep(500);
      const stopAt = Date.now();
      await consumer.stop();
      expect(Date.now() - stopAt).toBeLessThan(1_000);
    } finally {
      await nats.start();
    }
  });

  it('a watch whose replay the server lost with its store (started again empty) says it has gone through it', async () => {
    const since = new Date();
    // more than a pull brings at once (100), so the last one it brought still has some to come
    await Promise.all(Array.from({ length: 500 }, () => publish(revoked())));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    const watch = await bus.watch({
      stream: 'IDENTITY',
      types: ['identity.session.revoked'],
      since,
      handler: async () => {
        if (!first) return;
        first = false;
        await gate; // still going through what was stored when the server loses it
      },
    });
    try {
      expect(watch.state()).toBe('catching_up');
      await nats.restartEmpty();
      release();
      // the stream made again, empty (as the first publish or consumer would)
      await expect
        .poll(
          () =>
            bus.ensureStreams(['IDENTITY']).then(
              () => true,
              () => false,
            ),
          { timeout: 20_000, interval: 200 },
        )
        .toBe(true);
      await watch.caughtUp;
      await expect.poll(() => watch.state(), { timeout: 5_000 }).toBe('following');
    } finally {
      await watch.stop();
    }
  });
});
