import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { connectBus, type Bus } from '@sleepweave/bus';
import { testEnvelope } from '@sleepweave/bus/testing';
import type { EventEnvelope } from '@sleepweave/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsumer } from './consumer.ts';
import { emptyHistory } from './history.ts';
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
