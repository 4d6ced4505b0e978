/**
 * The relay across a PostgreSQL restart (its own cluster): it is back within a second of
 * the database, and LISTENs again, so an event is published at once, not at the next poll.
 */
import { randomUUID } from 'node:crypto';
import { connectBus, type Bus, type Subscription } from '@sleepweave/bus';
import { startPostgresServer, type PostgresServer } from '@sleepweave/test-servers';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateEventStore } from './migrate.ts';
import { listeningOptions, startRelay, toEnvelope, type Relay } from './relay.ts';
import { createEventStore, type EventStore } from './store.ts';
import { deleteStreamsOfPrefix, NATS_URL, randomBusPrefix, testLogger } from './test-support.ts';
import type { Sql } from './types.ts';

const logger = testLogger();
const prefix = randomBusPrefix();
let pg: PostgresServer;
let sql: Sql;
let store: EventStore;
let bus: Bus;
let watch: Subscription;
let relay: Relay;
const arrived = new Map<string, number>();

beforeAll(async () => {
  pg = await startPostgresServer();
  sql = postgres(pg.url, { max: 4, onnotice: () => undefined, backoff: () => 0.25 });
  await migrateEventStore(sql);
  store = createEventStore(sql);
  bus = await connectBus({ servers: NATS_URL, prefix, name: 'relay-restart-test', logger });
  await bus.ensureStreams(['IDENTITY']);
  watch = await bus.watch({
    stream: 'IDENTITY',
    types: ['identity.session.revoked'],
    since: new Date(),
    handler: (e) => void arrived.set(e.id, Date.now()),
  });
  relay = startRelay({
    connect: (events) => postgres(pg.url, { max: 1, onnotice: () => undefined, backoff: () => 0.25, ...listeningOptions(events) }),
    bus,
    source: 'identity',
    logger,
    pollIntervalMs: 60_000, // only a NOTIFY can wake it within the test
    toIntegration: (event) =>
      toEnvelope(event, {
        source: 'identity',
        type: 'identity.session.revoked',
        data: { ...(event.data as { sessionId: string; userId: string }), reason: 'logout', revokedAt: event.createdAt.toISOString() },
      }),
  });
});

afterAll(async () => {
  await relay?.stop();
  await watch?.stop();
  await bus?.close();
  await sql?.end({ timeout: 1 });
  await pg?.destroy();
  await deleteStreamsOfPrefix(NATS_URL, prefix);
});

/** Appends one event (retrying while the database comes back); when it committed and its id. */
async function append(): Promise<{ id: string; at: number }> {
  for (;;) {
    try {
      const { events } = await store.appendToStream(
        `session:${randomUUID()}`,
        [{ type: 'SessionRevoked', data: { sessionId: randomUUID(), userId: randomUUID() } }],
        { expectedVersion: 'no_stream' },
      );
      return { id: events[0]!.id, at: Date.now() };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const latency = async ({ id, at }: { id: string; at: number }) => {
  await expect.poll(() => arrived.has(id), { timeout: 10_000, interval: 10 }).toBe(true);
  return arrived.get(id)! - at;
};

describe('the relay across a PostgreSQL restart', () => {
  it('publishes again within a second of the database being back, woken by NOTIFY', async () => {
    await expect.poll(() => relay.status().active).toBe(true);
    expect(await latency(await append())).toBeLessThan(1_000);

    await pg.stop('immediate');
    // Idle, it learns of the loss from its connection closing, and retries until the database is back.
    await expect.poll(() => relay.status().failing, { timeout: 5_000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // failures pile up; the retry stays within a second
    await pg.start();
    const backAt = Date.now();
    const first = await append();
    expect((await latency(first)) + (first.at - backAt)).toBeLessThan(2_000);

    // Later events: a NOTIFY on the relay's new connection (the poll is a minute away).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    for (let i = 0; i < 3; i++) expect(await latency(await append())).toBeLessThan(1_000);
  });
});
