import postgres from 'postgres';
import { randomUUID } from 'node:crypto';
import { connectBus, type Bus, type Subscription } from '@sleepweave/bus';
import type { EventEnvelope } from '@sleepweave/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrateEventStore } from './migrate.ts';
import { listeningOptions, relayBacklogMs, startRelay, toEnvelope, type Relay, type RelayOptions } from './relay.ts';
import { createEventStore, type EventStore } from './store.ts';
import {
  deferred,
  NATS_URL,
  createTestDatabase,
  deleteStreamsOfPrefix,
  eventually,
  randomBusPrefix,
  testLogger,
  type TestDatabase,
} from './test-support.ts';
import type { DomainEvent, RecordedEvent } from './types.ts';

type SessionRevoked = DomainEvent<'SessionRevoked', { sessionId: string; userId: string }>;
type Private = DomainEvent<'SomethingPrivate', { note: string }>;

const logger = testLogger();
const prefix = randomBusPrefix();
let db: TestDatabase;
let store: EventStore;
let bus: Bus;
let watch: Subscription;
/** Envelope ids as they arrive on JetStream. */
const onBus: string[] = [];
/** Envelope ids as the relay published them (before JetStream's de-duplication). */
const publishedByRelay: string[] = [];
const relays: Relay[] = [];

function toIntegration(event: RecordedEvent): EventEnvelope | null {
  if (event.type !== 'SessionRevoked') return null;
  const data = event.data as SessionRevoked['data'];
  return toEnvelope(event, {
    source: 'identity',
    type: 'identity.session.revoked',
    data: { ...data, reason: 'logout', revokedAt: event.createdAt.toISOString() },
  });
}

function revoked(): SessionRevoked {
  return { type: 'SessionRevoked', data: { sessionId: randomUUID(), userId: randomUUID() } };
}

/** A relay on the test database, publishing through the spy to the bus unless given a bus of its own. */
function relay(
  options: Partial<Pick<RelayOptions, 'name' | 'lockRetryMs' | 'pollIntervalMs' | 'batchSize' | 'bus' | 'toIntegration'>> = {},
): Relay {
  const spy = {
    publish: async (envelope: EventEnvelope) => {
      await bus.publish(envelope);
      publishedByRelay.push(envelope.id);
    },
  };
  const r = startRelay({
    connect: (events) => postgres(db.url, { max: 1, onnotice: () => undefined, ...listeningOptions(events) }),
    bus: spy,
    source: 'identity',
    toIntegration,
    logger,
    ...options,
  });
  relays.push(r);
  return r;
}

const count = (ids: string[], id: string) => ids.filter((x) => x === id).length;

beforeAll(async () => {
  db = await createTestDatabase();
  await migrateEventStore(db.sql);
  store = createEventStore(db.sql);
  bus = await connectBus({ servers: NATS_URL, prefix, name: 'relay-test', logger });
  await bus.ensureStreams(['IDENTITY']);
  watch = await bus.watch({
    stream: 'IDENTITY',
    types: ['identity.session.revoked'],
    since: new Date(Date.now() - 1000),
    handler: (e) => void onBus.push(e.id),
  });
});

afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
});

afterAll(async () => {
  await watch?.stop();
  await bus?.close();
  await db?.drop();
  await deleteStreamsOfPrefix(NATS_URL, prefix);
});

describe('toEnvelope', () => {
  it('builds the envelope from the stored event', () => {
    const event: RecordedEvent = {
      id: randomUUID(),
      streamId: 'session:1',
      streamPosition: 1,
      globalPosition: '1',
      transactionId: '1',
      type: 'SessionRevoked',
      data: {},
      metadata: { correlationId: 'corr', userId: 'u' },
      createdAt: new Date('2025-01-02T03:04:05.000Z'),
    };
    const userId = randomUUID();
    expect(
      toEnvelope(event, { source: 'identity', type: 'identity.user.role_granted', data: { userId, role: 'admin', grantedAt: 'x' } }),
    ).toEqual({
      id: event.id,
      type: 'identity.user.role_granted',
      version: 1,
      source: 'identity',
      subject: 'session:1',
      time: '2025-01-02T03:04:05.000Z',
      correlationId: 'corr',
      causationId: null,
      data: { userId, role: 'admin', grantedAt: 'x' },
    });
  });
});

describe('relay', () => {
  it('publishes committed events, woken by NOTIFY (the poll is 60 s)', async () => {
    const r = relay({ pollIntervalMs: 60_000 });
    await eventually(() => r.status().active && r.status().lastCycleAt > 0); // it holds the lock and LISTENs
    const { events } = await store.appendToStream('session:n1', [revoked(), revoked()], { expectedVersion: 'no_stream' });
    const ids = events.map((e) => e.id);
    await eventually(() => ids.every((id) => onBus.includes(id)), 5000);
    expect(onBus.filter((id) => ids.includes(id))).toEqual(ids);
  });

  it('never skips an event whose transaction commits late', async () => {
    const r = relay();
    const appendedA = deferred<RecordedEvent[]>();
    const commitA = deferred();

    // Transaction A appends first (lower global position) and stays open.
    const txA = store.transaction(async (tx) => {
      const { events } = await store.appendToStream('session:A', [revoked()], { expectedVersion: 'no_stream', tx });
      appendedA.resolve(events);
      await commitA.promise;
    });
    const [eventA] = await appendedA.promise;

    // Transaction B appends later (higher global position) and commits at once.
    const { events: eventsB } = await store.appendToStream('session:B', [revoked()], { expectedVersion: 'no_stream' });
    const [eventB] = eventsB;
    expect(BigInt(eventB!.globalPosition)).toBeGreaterThan(BigInt(eventA!.globalPosition));

    // B is committed, but A (an older transaction of this database) is still open: the
    // relay sees B and holds it back.
    r.wake();
    await eventually(() => r.status().heldBack);
    expect(publishedByRelay).not.toContain(eventB!.id);

    commitA.resolve();
    await txA;
    await eventually(() => onBus.includes(eventA!.id) && onBus.includes(eventB!.id));
    await eventually(() => !r.status().heldBack);
    // Exactly once each, in commit-safe order: A before B.
    expect(count(publishedByRelay, eventA!.id)).toBe(1);
    expect(count(publishedByRelay, eventB!.id)).toBe(1);
    expect(count(onBus, eventA!.id)).toBe(1);
    expect(count(onBus, eventB!.id)).toBe(1);
    expect(onBus.indexOf(eventA!.id)).toBeLessThan(onBus.indexOf(eventB!.id));
  });

  it('is not delayed by a transaction left open in another database of the same server', async () => {
    const other = await createTestDatabase();
    const release = deferred();
    const opened = deferred();
    const elsewhere = other.sql.begin(async (tx) => {
      await tx`create table held (x int)`;
      await tx`insert into held values (1)`; // holds a transaction id, like a long write
      opened.resolve();
      await release.promise;
    });
    try {
      await opened.promise;
      const r = relay({ pollIntervalMs: 60_000 });
      await eventually(() => r.status().active);
      const started = performance.now();
      const { events } = await store.appendToStream('session:elsewhere', [revoked()], { expectedVersion: 'no_stream' });
      await eventually(() => onBus.includes(events[0]!.id), 5_000, 2);
      // With the cluster-wide xmin it would wait for the other database's transaction (forever here).
      expect(performance.now() - started).toBeLessThan(1_000);
      // and not waiting on it: held back, it would stay so while the other transaction is open
      // (a moment held back by something of its own database, on a slow machine, passes)
      await eventually(() => !r.status().heldBack, 2_000);
    } finally {
      release.resolve();
      await elsewhere;
      await other.drop();
    }
  });

  it('a rolled-back transaction leaves no gap that blocks the relay', async () => {
    relay();
    await store
      .transaction(async (tx) => {
        await store.appendToStream('session:rollback', [revoked()], { expectedVersion: 'no_stream', tx });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    const { events } = await store.appendToStream('session:after-rollback', [revoked()], { expectedVersion: 'no_stream' });
    await eventually(() => onBus.includes(events[0]!.id));
  });

  it('skips events mapped to null but still advances the checkpoint; many batches', async () => {
    relay({ name: 'batches' });
    const many = Array.from({ length: 450 }, (_, i) =>
      i % 3 === 0 ? revoked() : ({ type: 'SomethingPrivate', data: { note: `n${i}` } } as Private),
    );
    const { events } = await store.appendToStream('session:many', many, { expectedVersion: 'no_stream' });
    const last = events.at(-1)!;
    const publicIds = events.filter((e) => e.type === 'SessionRevoked').map((e) => e.id);
    await eventually(() => publicIds.every((id) => onBus.includes(id)));
    await eventually(async () => {
      const [cp] =
        await db.sql`select transaction_id::text as tx, global_position::text as gp from relay_checkpoints where name = 'batches'`;
      return cp?.gp === last.globalPosition && cp?.tx === last.transactionId;
    });
    // A private trailing event still moves the checkpoint.
    const { events: priv } = await store.appendToStream('session:private', [{ type: 'SomethingPrivate', data: { note: 'x' } }], {
      expectedVersion: 'no_stream',
    });
    await eventually(async () => {
      const [cp] = await db.sql`select global_position::text as gp from relay_checkpoints where name = 'batches'`;
      return cp?.gp === priv[0]!.globalPosition;
    });
  });

  it('tells how long the next event to publish has waited, and null once all are published', async () => {
    await store.appendToStream(`session:${randomUUID()}`, [revoked()], { expectedVersion: 'no_stream' });
    await db.sql`update events set created_at = now() - interval '1 minute'`;
    // A relay of another name has published nothing yet: everything waits.
    expect(await relayBacklogMs(db.sql, 'backlog')).toBeGreaterThanOrEqual(60_000);
    relay({ name: 'backlog' });
    await eventually(async () => (await relayBacklogMs(db.sql, 'backlog')) === null);
  });

  it('resumes from its checkpoint after a restart', async () => {
    const first = relay({ name: 'restart' });
    const { events: before } = await store.appendToStream('session:r1', [revoked()], { expectedVersion: 'no_stream' });
    await eventually(() => count(publishedByRelay, before[0]!.id) === 1);
    await first.stop();
    const { events: during } = await store.appendToStream('session:r2', [revoked()], { expectedVersion: 'no_stream' });
    relay({ name: 'restart' });
    await eventually(() => count(publishedByRelay, during[0]!.id) === 1);
    // Had it started over, it would have published `before` again before `during`.
    expect(count(publishedByRelay, before[0]!.id)).toBe(1);
  });

  it('only one relay per name publishes; a standby takes over when it stops', async () => {
    const active = relay({ name: 'ha', lockRetryMs: 100 });
    await eventually(() => active.status().active);
    const standby = relay({ name: 'ha', lockRetryMs: 100 });
    expect(standby.status().active).toBe(false);

    const { events: one } = await store.appendToStream('session:ha1', [revoked()], { expectedVersion: 'no_stream' });
    await eventually(() => count(publishedByRelay, one[0]!.id) === 1);
    expect(standby.status().active).toBe(false);
    await active.stop();
    await eventually(() => standby.status().active);
    const { events: two } = await store.appendToStream('session:ha2', [revoked()], { expectedVersion: 'no_stream' });
    await eventually(() => count(publishedByRelay, two[0]!.id) === 1);
    // It took over from the checkpoint: `one` would have come again before `two`.
    expect(count(publishedByRelay, one[0]!.id)).toBe(1);
  });

  it('keeps its backoff after a failure however many NOTIFYs come (one with every commit)', async () => {
    // An event the mapping refuses (as a contract drift would) fails every cycle at it.
    const poison = `poison:${randomUUID()}`;
    let attempts = 0;
    const r = relay({
      bus: { publish: async () => undefined },
      toIntegration: (event) => {
        if (event.streamId !== poison) return null;
        attempts += 1;
        throw new Error('does not match its contract');
      },
      name: 'poisoned',
    });
    await store.appendToStream(poison, [{ type: 'SomethingPrivate', data: { note: 'refused' } } as Private], {
      expectedVersion: 'no_stream',
    });
    await expect.poll(() => attempts, { timeout: 5_000 }).toBeGreaterThan(0);
    // 1.5 s of commits, one every 50 ms, each NOTIFYing: retries 250, 500, 1,000 ms apart
    // make at most 4 attempts more, where waking at every NOTIFY made one per commit (30).
    const from = attempts;
    for (let i = 0; i < 30; i++) {
      await store.appendToStream(`other:${randomUUID()}`, [{ type: 'SomethingPrivate', data: { note: 'write' } } as Private], {
        expectedVersion: 'no_stream',
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(attempts - from).toBeLessThanOrEqual(4);
    expect(r.status().failing).toBe(true);
  });

  it('tries again at once when woken from outside (the bus back), not at the end of its back-off', async () => {
    // The bus refuses three publishes (the back-off is then at its longest, 1 s), then takes them.
    let refusals = 0;
    let refusedAt = 0;
    const published: string[] = [];
    const event = revoked();
    const r = relay({
      bus: {
        publish: async (envelope) => {
          if (refusals < 3) {
            refusals += 1;
            refusedAt = performance.now();
            throw new Error('NATS is not connected');
          }
          published.push((envelope.data as { sessionId: string }).sessionId);
        },
      },
      name: 'woken',
    });
    await store.appendToStream(`woken:${randomUUID()}`, [event], { expectedVersion: 'no_stream' });
    await expect.poll(() => refusals, { timeout: 5_000 }).toBe(3);
    // in the back-off after the third refusal: woken as the bus's reconnect wakes it
    await new Promise((resolve) => setTimeout(resolve, 20));
    r.wake();
    await expect.poll(() => published.includes(event.data.sessionId), { timeout: 5_000 }).toBe(true);
    expect(performance.now() - refusedAt).toBeLessThan(500);
  });

  it('tries again at once when woken from outside while the cycle that then fails is in flight', async () => {
    // The bus back while the third publish is on its way: it fails all the same (JetStream
    // not ready yet after a restart), and the wake must not be lost to the back-off after it.
    let calls = 0;
    let failedAt = 0;
    let retriedAt = 0;
    let failThird!: () => void;
    const thirdSent = deferred<void>();
    const event = revoked();
    const r = relay({
      bus: {
        publish: async (envelope) => {
          if ((envelope.data as { sessionId: string }).sessionId !== event.data.sessionId) return;
          calls += 1;
          if (calls < 3) throw new Error('NATS is not connected');
          if (calls === 3) {
            await new Promise<void>((_, reject) => {
              failThird = () => {
                failedAt = performance.now();
                reject(new Error('JetStream not ready'));
              };
              thirdSent.resolve();
            });
          }
          retriedAt = performance.now();
        },
      },
      name: 'woken-in-flight',
    });
    await store.appendToStream(`woken:${randomUUID()}`, [event], { expectedVersion: 'no_stream' });
    await thirdSent.promise;
    r.wake();
    failThird();
    await expect.poll(() => retriedAt, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(retriedAt - failedAt).toBeLessThan(500);
  });

  it("publishes a batch's events together, in the order they committed", async () => {
    await store.appendToStream('session:together', [revoked(), revoked(), revoked(), revoked()], { expectedVersion: 'no_stream' });
    const calls: string[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const slow = {
      publish: async (envelope: EventEnvelope) => {
        calls.push(envelope.id);
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
      },
    };
    relay({ bus: slow, name: 'together', batchSize: 3 });
    // A new relay name starts from the first event: every revocation so far, batches of 3.
    const committed = (
      await db.sql<{ id: string }[]>`select id from events where type = 'SessionRevoked' order by transaction_id, global_position`
    ).map((row) => row.id);
    await eventually(() => calls.length >= committed.length && inFlight === 0, 15_000);
    expect(calls).toEqual(committed);
    expect(mostInFlight).toBe(3);
  });

  it('survives a failed publish: retries with backoff, nothing lost, nothing that landed before it sent again', async () => {
    // Three events of one batch: the middle one's first publish fails.
    const { events } = await store.appendToStream('session:flaky', [revoked(), revoked(), revoked()], { expectedVersion: 'no_stream' });
    const [before, failing, after] = events.map((event) => event.id) as [string, string, string];
    let failed = 0;
    const published: string[] = [];
    const flaky = {
      publish: async (envelope: EventEnvelope) => {
        if (envelope.id === failing && failed === 0) {
          failed += 1;
          throw new Error('NATS is down');
        }
        published.push(envelope.id);
      },
    };
    // every event so far in one batch, whatever the other tests stored
    relay({ bus: flaky, name: 'flaky', batchSize: 100_000 });
    await eventually(() => events.every((e) => published.includes(e.id)), 15_000);
    expect(failed).toBe(1);
    // Everything committed before the failed event (these tests' too) was published once.
    const committed = (
      await db.sql<{ id: string }[]>`select id from events where type = 'SessionRevoked' order by transaction_id, global_position`
    ).map((row) => row.id);
    const landedFirst = committed.slice(0, committed.indexOf(failing));
    expect(landedFirst).toContain(before);
    for (const id of landedFirst) expect(count(published, id), id).toBe(1);
    expect(count(published, failing)).toBe(1);
    // Its batch-mates after it had gone out with it, and go out again with the retry:
    // JetStream drops the second copy (the same msgID), and consumers' inboxes would.
    expect(count(published, after)).toBe(2);
  });
});
