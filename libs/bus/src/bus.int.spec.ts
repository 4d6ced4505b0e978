import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import type { EventEnvelope } from '@sleepweave/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnvelope } from './testing.ts';
import { ACK_WAIT_MS, connectBus, PULL_HEARTBEAT_MS } from './nats-bus.ts';
import { deleteStreamsOfPrefix, randomBusPrefix } from './testing.ts';
import type { Bus } from './types.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const logger = pino({ level: process.env.LOG_LEVEL ?? 'silent' });
const prefix = randomBusPrefix();

let bus: Bus;
let nc: NatsConnection;
let jsm: JetStreamManager;

function revoked(sessionId = randomUUID()): EventEnvelope<'identity.session.revoked'> {
  const data = { sessionId, userId: randomUUID(), reason: 'logout' as const, revokedAt: new Date().toISOString() };
  return testEnvelope('identity.session.revoked', data, { subject: `session:${sessionId}` });
}

function roleGranted(): EventEnvelope<'identity.user.role_granted'> {
  const userId = randomUUID();
  return testEnvelope(
    'identity.user.role_granted',
    { userId, role: 'admin', grantedAt: new Date().toISOString() },
    { correlationId: 'c-1' },
  );
}

/** A type the registry does not know: passes envelope validation with any data. */
function other(): EventEnvelope {
  return { ...revoked(), type: 'identity.other.happened' as EventEnvelope['type'], data: {} as never };
}

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  bus = await connectBus({ servers: NATS_URL, prefix, name: 'bus-test', logger });
  nc = await connect({ servers: NATS_URL });
  jsm = await jetstreamManager(nc);
});

afterAll(async () => {
  await bus?.close();
  await nc?.close();
  await deleteStreamsOfPrefix(NATS_URL, prefix);
});

describe('streams', () => {
  it('ensureStreams creates prefixed file streams, idempotently', async () => {
    await bus.ensureStreams(['IDENTITY', 'STUDY']);
    await bus.ensureStreams(['IDENTITY', 'STUDY']);
    const info = await jsm.streams.info(`${prefix.toUpperCase()}_IDENTITY`);
    expect(info.config.subjects).toEqual([`${prefix}.identity.>`]);
    expect(info.config.storage).toBe('file');
    expect(info.config.retention).toBe('limits');
    expect(info.config.duplicate_window).toBe(nanos(120_000));
    // events (with personal data) leave the bus after 7 days
    expect(info.config.max_age).toBe(nanos(7 * 24 * 3600 * 1000));
    expect(bus.prefix).toBe(prefix);
    expect(bus.isConnected()).toBe(true);
  });

  it('publishes on the prefixed subject and de-duplicates by envelope id', async () => {
    const envelope = revoked();
    await bus.publish(envelope);
    await bus.publish(envelope);
    const stream = `${prefix.toUpperCase()}_IDENTITY`;
    const msg = await jsm.streams.getMessage(stream, { last_by_subj: `${prefix}.identity.session.revoked` });
    expect(msg?.json()).toEqual(envelope);
    const info = await jsm.streams.info(stream);
    expect(info.state.messages).toBe(1);
  });

  it('stores publishes made one after another without waiting in that order, from a first publish on', async () => {
    // A bus of its own prefix: its first publishes wait for the stream together.
    const own = randomBusPrefix();
    const fresh = await connectBus({ servers: NATS_URL, prefix: own, name: 'bus-test-order', logger });
    try {
      for (const round of [1, 2]) {
        // mixed types of one stream: some envelopes are larger than others
        const envelopes = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? roleGranted() : revoked()));
        await Promise.all(envelopes.map((envelope) => fresh.publish(envelope)));
        const stored: string[] = [];
        const first = (round - 1) * envelopes.length + 1;
        for (let seq = first; seq < first + envelopes.length; seq++) {
          stored.push((await jsm.streams.getMessage(`${own.toUpperCase()}_IDENTITY`, { seq }))!.json<EventEnvelope>().id);
        }
        expect(stored, `round ${round}`).toEqual(envelopes.map((envelope) => envelope.id));
      }
    } finally {
      await fresh.close();
      await deleteStreamsOfPrefix(NATS_URL, own);
    }
  });
});

describe('consume', () => {
  it('one type: durable, prefixed consumer filtered on that subject', async () => {
    const received: EventEnvelope[] = [];
    const sub = await bus.consume({
      stream: 'IDENTITY',
      durable: 'test-identity-one',
      types: ['identity.session.revoked'],
      handler: async (e) => {
        received.push(e);
      },
    });
    const consumer = await jsm.consumers.info(`${prefix.toUpperCase()}_IDENTITY`, `${prefix}-test-identity-one`);
    expect(consumer.config.filter_subject).toBe(`${prefix}.identity.session.revoked`);
    expect(consumer.config.ack_policy).toBe('explicit');
    const next = revoked();
    await bus.publish(roleGranted());
    await bus.publish(next);
    // Delivers everything on the stream since the start (DeliverPolicy.All): the earlier one too.
    await eventually(() => received.some((e) => e.id === next.id));
    expect(received.every((e) => e.type === 'identity.session.revoked')).toBe(true);
    expect(received.length).toBe(2);
    await sub.stop();
  });

  it('several types: filters on the stream wildcard and skips the other types', async () => {
    const received: string[] = [];
    const sub = await bus.consume({
      stream: 'IDENTITY',
      durable: 'test-identity-many',
      types: ['identity.session.revoked', 'identity.user.role_granted'],
      handler: async (e) => {
        received.push(e.type);
      },
    });
    await bus.publish(other());
    const last = roleGranted();
    await bus.publish(last);
    await eventually(() => received.length === 4);
    expect(received.filter((t) => t === 'identity.other.happened')).toEqual([]);
    expect(received.sort()).toEqual([
      'identity.session.revoked',
      'identity.session.revoked',
      'identity.user.role_granted',
      'identity.user.role_granted',
    ]);
    // Everything acked, skipped types included.
    await eventually(async () => {
      const info = await jsm.consumers.info(`${prefix.toUpperCase()}_IDENTITY`, `${prefix}-test-identity-many`);
      return info.num_ack_pending === 0 && info.num_pending === 0;
    });
    await sub.stop();
  });

  it('changing the types of a durable brings its filter up to date', async () => {
    const durable = `${prefix}-test-identity-change`;
    const stream = `${prefix.toUpperCase()}_IDENTITY`;
    const handler = async () => {};
    let sub = await bus.consume({
      stream: 'IDENTITY',
      durable: 'test-identity-change',
      types: ['identity.session.revoked', 'identity.user.role_granted'],
      handler,
    });
    await sub.stop();
    expect((await jsm.consumers.info(stream, durable)).config.filter_subject).toBe(`${prefix}.identity.>`);
    sub = await bus.consume({ stream: 'IDENTITY', durable: 'test-identity-change', types: ['identity.user.role_granted'], handler });
    await sub.stop();
    expect((await jsm.consumers.info(stream, durable)).config.filter_subject).toBe(`${prefix}.identity.user.role_granted`);
  });

  it('refuses a type of another stream', async () => {
    await expect(
      bus.consume({ stream: 'IDENTITY', durable: 'bad', types: ['study.consent.given'], handler: async () => {} }),
    ).rejects.toThrow(/not published on stream IDENTITY/);
  });

  it('redelivers after a failing handler, terminates malformed messages, resumes after restart', async () => {
    await bus.ensureStreams(['STUDY']);
    const attempts = new Map<string, number>();
    const handled: string[] = [];
    const handler = async (e: EventEnvelope) => {
      const n = (attempts.get(e.id) ?? 0) + 1;
      attempts.set(e.id, n);
      if (n === 1 && e.subject === 'fail-once') throw new Error('transient');
      handled.push(e.id);
    };
    const options = { stream: 'STUDY' as const, durable: 'test-study-retry', types: ['study.consent.given'], handler };
    let sub = await bus.consume(options);

    // Malformed: not an envelope at all, then an envelope whose data fails the schema.
    const js = (await import('@nats-io/jetstream')).jetstream(nc);
    await js.publish(`${prefix}.study.consent.given`, 'not json');
    await js.publish(`${prefix}.study.consent.given`, JSON.stringify({ ...consent(), data: { userId: 'nope' } }));

    const flaky = { ...consent(), subject: 'fail-once' };
    await bus.publish(flaky);
    const fine = consent();
    await bus.publish(fine);
    await eventually(() => handled.includes(flaky.id) && handled.includes(fine.id));
    expect(attempts.get(flaky.id)).toBe(2);
    expect(attempts.get(fine.id)).toBe(1);

    await sub.stop();
    {
      // Malformed messages were terminated, not left pending.
      const info = await jsm.consumers.info(`${prefix.toUpperCase()}_STUDY`, `${prefix}-test-study-retry`);
      expect(info.num_ack_pending).toBe(0);
    }
    const afterRestart = consent();
    await bus.publish(afterRestart);
    sub = await bus.consume(options);
    await eventually(() => handled.includes(afterRestart.id));
    expect(handled.filter((id) => id === fine.id)).toHaveLength(1);
    await eventually(
      async () => (await jsm.consumers.info(`${prefix.toUpperCase()}_STUDY`, `${prefix}-test-study-retry`)).num_ack_pending === 0,
    );
    await sub.stop();
  });

  it('reports stuck while an event has failed again and again, and following once it is applied', async () => {
    await bus.ensureStreams(['STUDY']);
    let failing = true;
    let attempts = 0;
    const sub = await bus.consume({
      stream: 'STUDY',
      durable: 'test-study-stuck',
      types: ['study.consent.given'],
      stuckAfterDeliveries: 3,
      handler: async () => {
        attempts += 1;
        if (failing) throw new Error('a bug in the handler');
      },
    });
    await bus.publish(consent());
    // delivered, then again after 0.25 s and 0.5 s: stuck from the third failure on
    await eventually(() => attempts >= 2);
    expect(sub.state()).toBe('following');
    await eventually(() => sub.state() === 'stuck');
    expect(attempts).toBeGreaterThanOrEqual(3);
    failing = false;
    const applied = attempts + 1;
    await eventually(() => attempts >= applied);
    await eventually(() => sub.state() === 'following');
    await sub.stop();
  });

  it('a consumer busy with a backlog still says following (its pull waits for it, not for the server)', async () => {
    // While a batch is applied it reads no further than APPLY_BATCH events ahead, so it asks
    // for no more, and the server, holding no pull, sends no heartbeats: that is not NATS away.
    await bus.ensureStreams(['STUDY']);
    for (let i = 0; i < 400; i++) await bus.publish(consent());
    let slow = true;
    let applied = 0;
    const sub = await bus.consume({
      stream: 'STUDY',
      durable: `test-study-busy-${randomUUID().slice(0, 8)}`,
      types: ['study.consent.given'],
      handler: async () => {
        applied += 1;
      },
      handleBatch: async (events) => {
        if (slow) {
          slow = false;
          await new Promise((r) => setTimeout(r, 3 * PULL_HEARTBEAT_MS + 1_000)); // longer than two heartbeats missed
        }
        applied += events.length;
      },
    });
    const states = new Set<string>();
    const deadline = Date.now() + 3 * PULL_HEARTBEAT_MS + 1_000;
    while (Date.now() < deadline) {
      states.add(sub.state());
      await new Promise((r) => setTimeout(r, 100));
    }
    expect([...states]).toEqual(['following']);
    await eventually(() => applied >= 400);
    await sub.stop();
  }, 40_000);

  it('hands events that arrived together to handleBatch, in order; a failing batch goes one by one', async () => {
    await bus.ensureStreams(['STUDY']);
    const published = Array.from({ length: 300 }, (_, i) => ({ ...consent(), subject: i === 150 ? 'poison' : `n-${i}` }));
    for (const e of published) await bus.publish(e);
    const mine = new Set(published.map((e) => e.id));
    const batches: string[][] = [];
    const single: string[] = [];
    let poisonAttempts = 0;
    const sub = await bus.consume({
      stream: 'STUDY',
      durable: 'test-study-batch',
      types: ['study.consent.given'],
      handleBatch: async (envelopes) => {
        if (envelopes.some((e) => e.subject === 'poison')) throw new Error('one of them cannot be applied');
        batches.push(envelopes.map((e) => e.id).filter((id) => mine.has(id)));
      },
      handler: async (e) => {
        if (e.subject === 'poison' && ++poisonAttempts === 1) throw new Error('not yet');
        if (mine.has(e.id)) single.push(e.id);
      },
    });
    await eventually(() => batches.flat().length + single.length >= published.length);
    await sub.stop();

    const applied = [...batches.flat(), ...single];
    expect(applied).toHaveLength(published.length); // each once
    expect(new Set(applied)).toEqual(mine);
    expect(Math.max(...batches.map((b) => b.length))).toBeGreaterThan(1);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(128);
    // in publish order within every batch and from batch to batch
    const order = new Map(published.map((e, i) => [e.id, i]));
    const batched = batches.flat().map((id) => order.get(id)!);
    expect(batched).toEqual([...batched].sort((a, b) => a - b));
    // the poisoned batch went one by one; its poison was redelivered and then applied
    expect(poisonAttempts).toBe(2);
    expect(single).toContain(published[150]!.id);
    const info = await jsm.consumers.info(`${prefix.toUpperCase()}_STUDY`, `${prefix}-test-study-batch`);
    expect(info.num_ack_pending).toBe(0);
  });

  it('stop() waits for the handler in flight', async () => {
    let finished = false;
    let started = false;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const sub = await bus.consume({
      stream: 'STUDY',
      durable: 'test-study-slow',
      types: ['study.consent.given'],
      handler: async () => {
        started = true;
        await released;
        finished = true;
      },
    });
    await bus.publish(consent());
    await eventually(() => started);
    let stopped = false;
    const stopping = sub.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false); // still waiting for the handler
    release();
    await stopping;
    expect(finished).toBe(true);
  });

  it('pulls again within seconds when the server no longer holds its pull (its heartbeats stop)', async () => {
    // A pull the server refused or dropped leaves the client waiting for messages that are
    // not coming; only the missing heartbeats tell it (a CI run saw a consumer silent ~30 s).
    // Made here by a consumer with room for one waiting pull, held by another client.
    await bus.ensureStreams(['IDENTITY']);
    const stream = `${prefix.toUpperCase()}_IDENTITY`;
    const durable = `${prefix}-test-identity-refused`;
    await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
      ack_wait: nanos(ACK_WAIT_MS),
      max_deliver: -1,
      max_ack_pending: 1000,
      filter_subject: `${prefix}.identity.session.revoked`,
      max_waiting: 1,
    });
    // the other client's pull: it hands the first event back (nak) and pulls no more
    const other = nc.subscribe(`_INBOX.${randomUUID()}`, {
      max: 1,
      callback: (_err, m) => {
        if (m.reply) nc.publish(m.reply, '-NAK');
      },
    });
    nc.publish(`$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`, JSON.stringify({ batch: 1, expires: nanos(60_000) }), {
      reply: other.getSubject(),
    });
    await nc.flush();
    const received: string[] = [];
    const sub = await bus.consume({
      stream: 'IDENTITY',
      durable: 'test-identity-refused',
      types: ['identity.session.revoked'],
      handler: async (e) => {
        received.push(e.id);
      },
    });
    await new Promise((r) => setTimeout(r, 500)); // its pull refused (409, max waiting)
    const event = revoked();
    await bus.publish(event);
    await eventually(() => received.includes(event.id), 25_000); // nats.js's default took 30-45 s
    await sub.stop();
  }, 40_000);
});

function consent(): EventEnvelope<'study.consent.given'> {
  const data = { userId: randomUUID(), consentVersion: '1', acceptedAt: new Date().toISOString(), studyStartDate: '2025-01-01' };
  return testEnvelope('study.consent.given', data);
}

describe('watch', () => {
  it("asks for the same heartbeat as a durable consumer's pull, so a lost pull is noticed as soon", async () => {
    await bus.ensureStreams(['IDENTITY']);
    const pulls: { idle_heartbeat?: number }[] = [];
    const snoop = nc.subscribe(`$JS.API.CONSUMER.MSG.NEXT.${prefix.toUpperCase()}_IDENTITY.>`, {
      callback: (_err, m) => void pulls.push(m.json()),
    });
    await nc.flush();
    const watch = await bus.watch({ stream: 'IDENTITY', types: ['identity.session.revoked'], since: new Date(), handler: () => {} });
    await eventually(() => pulls.length > 0);
    expect(pulls[0]!.idle_heartbeat).toBe(nanos(PULL_HEARTBEAT_MS));
    await watch.stop();
    snoop.unsubscribe();
  });

  it('delivers events published since the given time to every watcher', async () => {
    await bus.publish(revoked());
    // Just after the last stored message (the server's own time stamp):
    const { state } = await jsm.streams.info(`${prefix.toUpperCase()}_IDENTITY`);
    const since = new Date(Date.parse(state.last_ts) + 1);
    await eventually(() => Date.now() > since.getTime() + 1); // the same clock on this machine
    const a: string[] = [];
    const b: string[] = [];
    const subA = await bus.watch({ stream: 'IDENTITY', types: ['identity.session.revoked'], since, handler: (e) => void a.push(e.id) });
    const subB = await bus.watch({
      stream: 'IDENTITY',
      types: ['identity.session.revoked', 'identity.user.role_granted'],
      since,
      handler: async (e) => void b.push(e.id),
    });
    const first = revoked();
    const granted = roleGranted();
    await bus.publish(first);
    await bus.publish(granted);
    await bus.publish(other());
    await eventually(() => a.length === 1 && b.length === 2);
    expect(a).toEqual([first.id]);
    expect(b).toEqual([first.id, granted.id]);
    await subA.stop();
    await subB.stop();
  });

  it('says when it has gone through what was already stored: after the last of it, or at once when there was none', async () => {
    const since = new Date();
    const stored = Array.from({ length: 2_000 }, () => revoked());
    await Promise.all(stored.map((envelope) => bus.publish(envelope)));
    await bus.publish(roleGranted()); // the last one stored is of a type not watched
    await bus.publish(other()); // and one no watcher knows
    const seen = new Set<string>();
    const handler = async (envelope: EventEnvelope) => {
      await new Promise((resolve) => setImmediate(resolve));
      seen.add(envelope.id);
    };
    const revocations = await bus.watch({ stream: 'IDENTITY', types: ['identity.session.revoked'], since, handler });
    expect(revocations.state()).toBe('catching_up');
    await revocations.caughtUp;
    expect(revocations.state()).toBe('following');
    expect(stored.filter((envelope) => !seen.has(envelope.id))).toEqual([]);
    await revocations.stop();
    seen.clear();
    const both = await bus.watch({ stream: 'IDENTITY', types: ['identity.session.revoked', 'identity.user.role_granted'], since, handler });
    await both.caughtUp;
    expect(stored.filter((envelope) => !seen.has(envelope.id))).toEqual([]);
    await both.stop();

    const none = await bus.watch({
      stream: 'IDENTITY',
      types: ['identity.session.revoked'],
      since: new Date(Date.now() + 60_000),
      handler,
    });
    await none.caughtUp;
    await none.stop();
  });
});

describe('costs', () => {
  it('makes no error objects up front for a publish (nats.js async traces off: docs/performance.md)', async () => {
    // nats.js makes its errors from its errors module's exports when it needs one: counted
    // here by putting counting subclasses there for the time of the publishes.
    const require = createRequire(import.meta.url);
    const errors = require(join(dirname(require.resolve('@nats-io/nats-core')), 'errors.js')) as Record<string, unknown> & {
      errors: Record<string, unknown>;
    };
    const made: string[] = [];
    const count = (holder: Record<string, unknown>, name: string) => {
      const Original = holder[name] as new (...args: unknown[]) => Error;
      holder[name] = class extends Original {
        constructor(...args: unknown[]) {
          super(...args);
          made.push(name);
        }
      };
      return () => void (holder[name] = Original);
    };
    const restore = [
      count(errors, 'TimeoutError'),
      count(errors, 'RequestError'),
      count(errors.errors, 'TimeoutError'),
      count(errors.errors, 'RequestError'),
    ];
    try {
      for (let i = 0; i < 3; i++) await bus.publish(revoked());
      expect(made).toEqual([]);
      // what is counted is what nats.js makes: a bus with async traces on makes two a publish
      const traced = await connect({ servers: NATS_URL });
      try {
        await jetstream(traced).publish(`${prefix}.identity.session.revoked`, JSON.stringify(revoked()));
      } finally {
        await traced.close();
      }
      expect(made).toContain('RequestError');
      expect(made).toContain('TimeoutError');
    } finally {
      for (const undo of restore) undo();
    }
  });
});

describe('close', () => {
  it('stops the subscriptions and closes the connection', async () => {
    const second = await connectBus({ servers: NATS_URL, prefix, name: 'bus-test-2', logger });
    await second.watch({ stream: 'IDENTITY', types: ['identity.session.revoked'], since: new Date(), handler: () => {} });
    await second.consume({ stream: 'IDENTITY', durable: 'test-close', types: ['identity.session.revoked'], handler: async () => {} });
    expect(second.isConnected()).toBe(true);
    await second.close();
    expect(second.isConnected()).toBe(false);
  });
});
