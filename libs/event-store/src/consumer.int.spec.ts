import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { connectBus, type Bus } from '@sleepweave/bus';
import { testEnvelope } from '@sleepweave/bus/testing';
import type { EventEnvelope } from '@sleepweave/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsumer, type ConsumerOptions } from './consumer.ts';
import { emptyHistory, type HistorySource } from './history.ts';
import { applyBatchOnce, applyOnce } from './inbox.ts';
import { migrateEventStore } from './migrate.ts';
import {
  NATS_URL,
  createTestDatabase,
  deleteStreamsOfPrefix,
  eventually,
  randomBusPrefix,
  testLogger,
  type TestDatabase,
} from './test-support.ts';
import type { Tx } from './types.ts';

const logger = testLogger();
const prefix = randomBusPrefix();
let db: TestDatabase;
let bus: Bus;

function consentGiven(): EventEnvelope<'study.consent.given'> {
  const data = { userId: randomUUID(), consentVersion: '1', acceptedAt: new Date().toISOString(), studyStartDate: '2025-01-01' };
  return testEnvelope('study.consent.given', data);
}

/** The read-model effect: one row per handled event, counting applications. */
async function countConsent(tx: Tx, envelope: EventEnvelope): Promise<void> {
  await tx`insert into consents (event_id, applied) values (${envelope.id}, 1)
           on conflict (event_id) do update set applied = consents.applied + 1`;
}

async function applied(eventId: string): Promise<number> {
  const [row] = await db.sql<{ applied: number }[]>`select applied from consents where event_id = ${eventId}`;
  return row?.applied ?? 0;
}

beforeAll(async () => {
  db = await createTestDatabase();
  await migrateEventStore(db.sql);
  await db.sql`create table consents (event_id uuid primary key, applied int not null)`;
  bus = await connectBus({ servers: NATS_URL, prefix, name: 'consumer-test', logger });
  await bus.ensureStreams(['STUDY']);
});

afterAll(async () => {
  await bus?.close();
  await db?.drop();
  await deleteStreamsOfPrefix(NATS_URL, prefix);
});

describe('applyOnce', () => {
  it('applies a redelivered event once', async () => {
    const envelope = consentGiven();
    expect(await applyOnce(db.sql, 'research-study-consents', envelope, countConsent)).toBe(true);
    expect(await applyOnce(db.sql, 'research-study-consents', envelope, countConsent)).toBe(false);
    expect(await applied(envelope.id)).toBe(1);
    // Another consumer has its own inbox.
    expect(await applyOnce(db.sql, 'other-study-consents', envelope, async () => {})).toBe(true);
  });

  it('applies concurrent duplicates once', async () => {
    const envelope = consentGiven();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => applyOnce(db.sql, 'research-study-consents', envelope, countConsent)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await applied(envelope.id)).toBe(1);
  });

  it('a failing handler records nothing, so the redelivery applies it', async () => {
    const envelope = consentGiven();
    await expect(
      applyOnce(db.sql, 'research-study-consents', envelope, async (tx, e) => {
        await countConsent(tx, e);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await applied(envelope.id)).toBe(0);
    expect(await applyOnce(db.sql, 'research-study-consents', envelope, countConsent)).toBe(true);
    expect(await applied(envelope.id)).toBe(1);
  });
});

describe('applyBatchOnce', () => {
  it('applies each event of a batch once, in order, skipping those applied before and repeated ones', async () => {
    const [a, b, c] = [consentGiven(), consentGiven(), consentGiven()];
    expect(await applyOnce(db.sql, 'research-study-batch', b, countConsent)).toBe(true);
    const seen: string[] = [];
    const handle = async (tx: Tx, e: EventEnvelope) => {
      seen.push(e.id);
      await countConsent(tx, e);
    };
    expect(await applyBatchOnce(db.sql, 'research-study-batch', [a, b, c, a], handle)).toBe(2);
    expect(seen).toEqual([a.id, c.id]);
    expect([await applied(a.id), await applied(b.id), await applied(c.id)]).toEqual([1, 1, 1]);
    expect(await applyBatchOnce(db.sql, 'research-study-batch', [a, b, c], handle)).toBe(0);
  });

  it('a failing handler rolls the whole batch back', async () => {
    const [a, b] = [consentGiven(), consentGiven()];
    await expect(
      applyBatchOnce(db.sql, 'research-study-batch', [a, b], async (tx, e) => {
        await countConsent(tx, e);
        if (e.id === b.id) throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect([await applied(a.id), await applied(b.id)]).toEqual([0, 0]);
    expect(await applyBatchOnce(db.sql, 'research-study-batch', [a, b], countConsent)).toBe(2);
  });
});

describe('startConsumer', () => {
  it('applies each event once through NATS, across failures and a full replay', async () => {
    let failNext = true;
    const handle = async (tx: Tx, envelope: EventEnvelope) => {
      await countConsent(tx, envelope);
      if (failNext) {
        failNext = false;
        throw new Error('transient'); // rolled back, nak'ed, redelivered
      }
    };
    const sub = startConsumer({
      sql: db.sql,
      bus,
      name: 'research-study-c',
      stream: 'STUDY',
      types: ['study.consent.given'],
      handle,
      history: emptyHistory('study'),
      logger,
    });
    await eventually(() => sub.state() === 'following');
    const a = consentGiven();
    const b = consentGiven();
    await bus.publish(a);
    await bus.publish(b);
    await eventually(async () => (await applied(a.id)) === 1 && (await applied(b.id)) === 1);
    await sub.stop();

    // A second durable replays the whole stream (DeliverPolicy.All) into the same inbox:
    // every event is delivered again, and nothing is applied twice.
    let deliveries = 0;
    const replay = await bus.consume({
      stream: 'STUDY',
      durable: 'research-study-c-replay',
      types: ['study.consent.given'],
      handler: async (envelope) => {
        deliveries += 1;
        await applyOnce(db.sql, 'research-study-c', envelope, countConsent);
      },
    });
    await eventually(() => deliveries >= 2);
    await replay.stop();
    expect(await applied(a.id)).toBe(1);
    expect(await applied(b.id)).toBe(1);
  });

  it('says a producer that is not listening yet (a system starting together) as information, not an error', async () => {
    const lines: { level: number; msg: string }[] = [];
    const captured = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
          done();
        },
      }),
    );
    let asked = 0;
    const starting = {
      name: 'identity',
      page: async (after: string) => {
        asked += 1;
        if (asked <= 2) {
          const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4181'), { code: 'ECONNREFUSED' });
          throw new TypeError('fetch failed', { cause: refused });
        }
        return { events: [], next: after, end: true };
      },
    };
    const sub = startConsumer({
      sql: db.sql,
      bus,
      name: 'research-identity-starting',
      stream: 'STUDY',
      types: ['study.consent.given'],
      handle: countConsent,
      history: starting,
      logger: captured,
    });
    await eventually(() => sub.state() === 'following');
    await sub.stop();
    expect(asked).toBe(3);
    expect(lines.filter((line) => line.msg === 'identity does not answer yet (starting?); retrying').map((line) => line.level)).toEqual([
      30, 30,
    ]);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});

/**
 * A producer's history kept in memory: the events it published, in order, some of which
 * the bus lost (they are only here). `down` makes it refuse to be read.
 */
function memoryHistory(): HistorySource & { events: EventEnvelope[]; down: boolean; reads: number } {
  const source = {
    name: 'study',
    events: [] as EventEnvelope[],
    down: false,
    reads: 0,
    page: async (after: string, types: readonly string[]) => {
      source.reads += 1;
      if (source.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4182'), { code: 'ECONNREFUSED' });
      const from = Number(after.split(':')[1]);
      const events = source.events.slice(from).filter((event) => types.includes(event.type));
      return { events, next: `0:${source.events.length}`, end: true };
    },
  };
  return source;
}

/** A consumer of consents named `name`, counting them (the rest as given). */
function consents(name: string, options: Partial<ConsumerOptions> = {}): ConsumerOptions {
  return {
    sql: db.sql,
    bus,
    name,
    stream: 'STUDY',
    types: ['study.consent.given'],
    handle: countConsent,
    history: emptyHistory('study'),
    logger,
    ...options,
  };
}

/** A handler that counts consents but refuses `broken` while `refusing()` (a handler bug). */
function refusing(broken: EventEnvelope, refuse: () => boolean) {
  return async (tx: Tx, envelope: EventEnvelope) => {
    if (envelope.id === broken.id && refuse()) throw new Error('a handler bug');
    await countConsent(tx, envelope);
  };
}

describe('what the bus lost or forgot', () => {
  it('reads its history again while it follows the bus: an event the bus lost is applied at the next reading, once', async () => {
    const history = memoryHistory();
    const sub = startConsumer(consents('research-study-lost', { history, sweepIntervalMs: 200 }));
    try {
      await eventually(() => sub.state() === 'following');
      const [lost, delivered] = [consentGiven(), consentGiven()];
      history.events.push(lost, delivered); // the producer committed both...
      await bus.publish(delivered); // ...and the bus holds only the second (its store was lost meanwhile)
      await eventually(async () => (await applied(lost.id)) === 1 && (await applied(delivered.id)) === 1);
      const reads = history.reads;
      await eventually(() => history.reads >= reads + 2); // read again since: nothing applied twice
      expect([await applied(lost.id), await applied(delivered.id)]).toEqual([1, 1]);
      expect(sub.state()).toBe('following');
    } finally {
      await sub.stop();
    }
  });

  it('back after the bus forgot some of its events, applies them from the history first, in their order', async () => {
    const history = memoryHistory();
    const order: string[] = [];
    const handle = async (tx: Tx, envelope: EventEnvelope) => {
      order.push(envelope.id);
      await countConsent(tx, envelope);
    };
    const options = consents('research-study-back', { handle, history });
    const first = startConsumer(options);
    await eventually(() => first.state() === 'following');
    await first.stop(); // down for more than a week
    const [forgotten, kept] = [consentGiven(), consentGiven()];
    history.events.push(forgotten, kept);
    await bus.publish(kept); // the first aged out of the stream; the second is still there
    const back = startConsumer(options);
    try {
      await eventually(async () => (await applied(forgotten.id)) === 1 && (await applied(kept.id)) === 1);
      // (the stream also holds the earlier tests' events, which the first one applied)
      expect(order.filter((id) => id === forgotten.id || id === kept.id)).toEqual([forgotten.id, kept.id]);
      await eventually(() => back.state() === 'following');
    } finally {
      await back.stop();
    }
    expect([await applied(forgotten.id), await applied(kept.id)]).toEqual([1, 1]);
  });

  it('back while its producer cannot be read, follows the bus meanwhile if it caught up before, and applies the rest once it can', async () => {
    const history = memoryHistory();
    const options = consents('research-study-away', { history });
    const first = startConsumer(options);
    await eventually(() => first.state() === 'following');
    await first.stop();
    const [forgotten, kept] = [consentGiven(), consentGiven()];
    history.events.push(forgotten, kept);
    await bus.publish(kept);
    history.down = true;
    const back = startConsumer(options);
    try {
      await back.caughtUp; // (a consumer declared after it may start)
      await eventually(async () => (await applied(kept.id)) === 1);
      expect(back.state()).toBe('following');
      expect(await applied(forgotten.id)).toBe(0);
      history.down = false;
      await eventually(async () => (await applied(forgotten.id)) === 1, 5_000);
    } finally {
      await back.stop();
    }
    // a consumer that never caught up waits for the producer: it has no read model to serve yet
    const fresh = startConsumer({ ...options, name: 'research-study-away-new', history: Object.assign(memoryHistory(), { down: true }) });
    try {
      await eventually(() => fresh.state() === 'failing');
    } finally {
      await fresh.stop();
    }
  });

  it('back with an event of the history it cannot apply, follows the bus, is stuck, and the consumers after it start', async () => {
    const history = memoryHistory();
    const broken = consentGiven();
    let refuse = true;
    const options = consents('research-study-restarted', { handle: refusing(broken, () => refuse), history, stuckAfterFailures: 2 });
    const first = startConsumer(options);
    await eventually(() => first.state() === 'following');
    await first.stop();
    history.events.push(broken); // failing when the service was restarted (only in the history by now)
    const back = startConsumer(options);
    const next = startConsumer({
      ...options,
      name: 'research-study-after',
      handle: async () => {}, // (counts nothing: the table counts the first one's)
      history: memoryHistory(),
      after: back.caughtUp,
    });
    try {
      await eventually(() => next.state() === 'following');
      const later = consentGiven();
      history.events.push(later);
      await bus.publish(later);
      await eventually(async () => (await applied(later.id)) === 1);
      await eventually(() => back.state() === 'stuck');
      refuse = false;
      await eventually(async () => (await applied(broken.id)) === 1);
      await eventually(() => back.state() === 'following');
    } finally {
      await Promise.all([back.stop(), next.stop()]);
    }
  });

  it('a checkpoint from before consumers read their history again: follows the bus first, and passes over what the inbox has forgotten', async () => {
    const history = memoryHistory();
    const old = testEnvelope(
      'study.consent.given',
      consentGiven().data,
      { time: new Date(Date.now() - 40 * 24 * 60 * 60_000).toISOString() }, // applied from the bus then; its inbox row is gone
    );
    const recent = consentGiven();
    history.events.push(old, recent);
    // months of history to read: it answers only once let
    let let_!: () => void;
    const held = new Promise<void>((resolve) => (let_ = resolve));
    const slow: HistorySource = { name: 'study', page: async (after, types) => (await held, history.page(after, types)) };
    const name = 'research-study-legacy';
    await db.sql`insert into consumer_catchups (consumer, position, completed_at) values (${name}, '0:0', now() - interval '300 days')`;
    const sub = startConsumer(consents(name, { history: slow }));
    try {
      await sub.caughtUp;
      await eventually(() => sub.state() === 'following');
      const live = consentGiven();
      await bus.publish(live);
      await eventually(async () => (await applied(live.id)) === 1);
      let_();
      await eventually(async () => (await applied(recent.id)) === 1);
      expect(await applied(old.id)).toBe(0);
      await eventually(async () => {
        const [row] = await db.sql<{ position: string; reread: boolean }[]>`
          select position, reread_at is not null as reread from consumer_catchups where consumer = ${name}`;
        return row?.position === '0:2' && row.reread;
      });
    } finally {
      let_();
      await sub.stop();
    }
  });

  it('stops at once when stopped while it subscribes to the bus', async () => {
    let subscribed!: () => void;
    const subscribing = new Promise<void>((resolve) => (subscribed = resolve));
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    const slowBus = {
      consume: async () => {
        asked();
        await subscribing; // NATS slow to answer
        return { state: () => 'following' as const, stop: async () => {} };
      },
    };
    const sub = startConsumer(consents('research-study-slow', { bus: slowBus }));
    await wasAsked;
    const stopped = sub.stop();
    subscribed();
    const started = Date.now();
    await stopped;
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('stops at once when stopped while a page of the history is read (a producer that hangs)', async () => {
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    const hanging: HistorySource = {
      name: 'study',
      page: (_after, _types, signal) =>
        new Promise((_resolve, reject) => {
          asked();
          signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        }),
    };
    const sub = startConsumer(consents('research-study-hanging', { history: hanging }));
    await wasAsked;
    const started = Date.now();
    await sub.stop();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('an event of the history it cannot apply makes it stuck until it applies; a producer away does not', async () => {
    const history = memoryHistory();
    const broken = consentGiven();
    let refuse = true;
    const sub = startConsumer(
      consents('research-study-stuck', { handle: refusing(broken, () => refuse), history, sweepIntervalMs: 100, stuckAfterFailures: 2 }),
    );
    try {
      await eventually(() => sub.state() === 'following');
      history.events.push(broken); // only in the history: the bus forgot it
      await eventually(() => sub.state() === 'stuck');
      expect(await applied(broken.id)).toBe(0);
      refuse = false; // the fix is deployed
      await eventually(async () => (await applied(broken.id)) === 1);
      await eventually(() => sub.state() === 'following');
      history.down = true;
      const reads = history.reads;
      await eventually(() => history.reads >= reads + 3); // failed three times in a row
      expect(sub.state()).toBe('following');
      history.down = false;
      await eventually(() => sub.state() === 'following');
    } finally {
      await sub.stop();
    }
  });

  it('a reading that takes long but goes through is not stuck (a checkpoint from before, read in the background)', async () => {
    const history = memoryHistory();
    let slowMs = 0;
    const slow: HistorySource = {
      name: 'study',
      page: async (after, types) => {
        await new Promise((r) => setTimeout(r, slowMs));
        return history.page(after, types);
      },
    };
    const sub = startConsumer(consents('research-study-slow-read', { history: slow, sweepIntervalMs: 100, stuckUnreadMs: 300 }));
    try {
      await eventually(() => sub.state() === 'following');
      slowMs = 1_000;
      const states = new Set<string>();
      const deadline = Date.now() + 2_500;
      while (Date.now() < deadline) {
        states.add(sub.state());
        await new Promise((r) => setTimeout(r, 50));
      }
      expect([...states]).toEqual(['following']);
    } finally {
      await sub.stop();
    }
  });

  it('a history it has not read to the end for long makes it stuck, until a reading goes through', async () => {
    // the producer away for good, or answering an error for one page every time: the bus's
    // losses are not applied meanwhile, and its inbox is kept whole (pruneInbox)
    const history = memoryHistory();
    const sub = startConsumer(consents('research-study-unread', { history, sweepIntervalMs: 100, stuckUnreadMs: 1_500 }));
    try {
      await eventually(() => sub.state() === 'following');
      history.down = true;
      await eventually(() => sub.state() === 'stuck');
      history.down = false;
      await eventually(() => sub.state() === 'following', 20_000);
    } finally {
      await sub.stop();
    }
  }, 30_000);
});
