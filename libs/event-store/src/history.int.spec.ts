import { randomUUID } from 'node:crypto';
import { connectBus, type Bus } from '@sleepweave/bus';
import { isEventOfType, type EventEnvelope } from '@sleepweave/contracts';
import { testEnvelope } from '@sleepweave/bus/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsumer } from './consumer.ts';
import { applyOnce } from './inbox.ts';
import { catchUp, hasCaughtUp, readIntegrationHistory, rebuildConsumer, HISTORY_START, type HistorySource } from './history.ts';
import { migrateEventStore } from './migrate.ts';
import { toEnvelope } from './relay.ts';
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
import type { DomainEvent, RecordedEvent, Tx } from './types.ts';

type ConsentGiven = DomainEvent<'ConsentGiven', { userId: string; studyStartDate: string }>;
type Private = DomainEvent<'NoteTaken', { note: string }>;

const logger = testLogger();
let producer: TestDatabase;
let consumer: TestDatabase;
let store: EventStore;

/** The producer's relay mapping: consents are public, notes private. */
function toIntegration(event: RecordedEvent): EventEnvelope | null {
  if (event.type !== 'ConsentGiven') return null;
  const { userId, studyStartDate } = event.data as ConsentGiven['data'];
  return toEnvelope(event, {
    source: 'study',
    type: 'study.consent.given',
    data: { userId, consentVersion: '1.0', acceptedAt: event.createdAt.toISOString(), studyStartDate },
  });
}

const consent = (): ConsentGiven => ({ type: 'ConsentGiven', data: { userId: randomUUID(), studyStartDate: '2026-01-05' } });
const note = (): Private => ({ type: 'NoteTaken', data: { note: 'private' } });

/** The producer's history read in process, in small pages so paging is exercised. */
const source: HistorySource = {
  name: 'study',
  page: (after, types) => readIntegrationHistory(producer.sql, { toIntegration, after, types, limit: 3 }),
};

/** The consumer's read model: one row per consent. */
async function project(tx: Tx, envelope: EventEnvelope): Promise<void> {
  if (!isEventOfType(envelope, 'study.consent.given')) return;
  const { userId } = envelope.data;
  await tx`insert into participants (user_id, applied) values (${userId}, 1)
           on conflict (user_id) do update set applied = participants.applied + 1`;
}
const participants = async () =>
  (await consumer.sql<{ user_id: string; applied: number }[]>`select user_id, applied from participants order by user_id`).map((r) => ({
    ...r,
  }));

beforeAll(async () => {
  producer = await createTestDatabase();
  consumer = await createTestDatabase();
  await migrateEventStore(producer.sql);
  await migrateEventStore(consumer.sql);
  await consumer.sql`create table participants (user_id uuid primary key, applied int not null)`;
  store = createEventStore(producer.sql);
});

afterAll(async () => {
  await producer?.drop();
  await consumer?.drop();
});

describe('readIntegrationHistory', () => {
  it('pages through the integration events in commit order, private ones left out, the position moving past them', async () => {
    const appended: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { events } = await store.appendToStream(`consent:${randomUUID()}`, [consent(), note()], { expectedVersion: 'no_stream' });
      appended.push(events[0]!.id);
    }
    const seen: string[] = [];
    let position = HISTORY_START;
    let pages = 0;
    for (;;) {
      const page = await source.page(position, ['study.consent.given']);
      pages += 1;
      for (const e of page.events) {
        expect(e.type).toBe('study.consent.given');
        seen.push(e.id);
      }
      position = page.next;
      if (page.end) break;
    }
    expect(seen).toEqual(expect.arrayContaining(appended));
    expect(pages).toBeGreaterThan(2);
    // Asking for other types gives nothing, yet reaches the same end.
    const none = await readIntegrationHistory(producer.sql, { toIntegration, after: HISTORY_START, types: ['study.sleep_log.recorded'] });
    expect(none.events).toEqual([]);
    expect(none.next).toBe(position);
  });

  it('stops before a transaction still open in its database, so it is never skipped', async () => {
    const before = await readIntegrationHistory(producer.sql, { toIntegration, after: HISTORY_START, types: ['study.consent.given'] });
    const release = deferred();
    const slowAppended = deferred<string>();
    const slow = store.transaction(async (tx) => {
      const { events } = await store.appendToStream(`consent:${randomUUID()}`, [consent()], { expectedVersion: 'no_stream', tx });
      slowAppended.resolve(events[0]!.id);
      await release.promise;
    });
    const slowId = await slowAppended.promise;
    const { events: later } = await store.appendToStream(`consent:${randomUUID()}`, [consent()], { expectedVersion: 'no_stream' });

    const during = await readIntegrationHistory(producer.sql, { toIntegration, after: before.next, types: ['study.consent.given'] });
    expect(during.events.map((e) => e.id)).not.toContain(later[0]!.id); // held back behind the open one
    expect(during.next).toBe(before.next);

    release.resolve();
    await slow;
    const after = await readIntegrationHistory(producer.sql, { toIntegration, after: during.next, types: ['study.consent.given'] });
    expect(after.events.map((e) => e.id)).toEqual([slowId, later[0]!.id]);
  });
});

describe('catchUp', () => {
  it('applies the whole history once, records how far it got, and does nothing the second time', async () => {
    const name = `c-${randomUUID().slice(0, 8)}`;
    expect(await hasCaughtUp(consumer.sql, name)).toBe(false);
    const applied = await catchUp(consumer.sql, { name, types: ['study.consent.given'], handle: project, source }, logger);
    const [count] = await producer.sql<{ n: number }[]>`select count(*)::int as n from events where type = 'ConsentGiven'`;
    expect(applied).toBe(count!.n);
    expect(await hasCaughtUp(consumer.sql, name)).toBe(true);
    expect(await catchUp(consumer.sql, { name, types: ['study.consent.given'], handle: project, source }, logger)).toBe(0);
    expect((await participants()).every((p) => p.applied === 1)).toBe(true);
  });

  it('resumes where a failure stopped it, applying nothing twice', async () => {
    await consumer.sql`truncate participants`;
    const name = `c-${randomUUID().slice(0, 8)}`;
    let pagesLeft = 2;
    const flaky: HistorySource = {
      name: 'study',
      page: async (after, types) => {
        if (pagesLeft-- === 0) throw new Error('producer went away');
        return source.page(after, types);
      },
    };
    await expect(catchUp(consumer.sql, { name, types: ['study.consent.given'], handle: project, source: flaky }, logger)).rejects.toThrow(
      'producer went away',
    );
    expect(await hasCaughtUp(consumer.sql, name)).toBe(false);
    const partial = (await participants()).length;
    expect(partial).toBeGreaterThan(0);
    await catchUp(consumer.sql, { name, types: ['study.consent.given'], handle: project, source }, logger);
    const [count] = await producer.sql<{ n: number }[]>`select count(*)::int as n from events where type = 'ConsentGiven'`;
    const rows = await participants();
    expect(rows).toHaveLength(count!.n);
    expect(rows.every((p) => p.applied === 1)).toBe(true);
  });
});

describe('catchUp, two instances at once', () => {
  it('never moves the recorded position back: one that read less, saving last, leaves where the other got to', async () => {
    // Two instances of a service start together: each reads the history from the checkpoint
    // it found. Had the slower one's earlier position been saved over the end, the next read
    // would apply again what lies between (the inbox may have forgotten it).
    for (let i = 0; i < 7; i++) await store.appendToStream(`consent:${randomUUID()}`, [consent()], { expectedVersion: 'no_stream' });
    const name = `c-${randomUUID().slice(0, 8)}`;
    const types = ['study.consent.given'];
    const gate = deferred<void>();
    const asked = deferred<void>();
    const slow = new AbortController();
    const behind: HistorySource = {
      name: 'study',
      page: async (after, t) => {
        asked.resolve();
        await gate.promise;
        slow.abort(); // it stops after this page
        return source.page(after, t);
      },
    };
    const b = catchUp(consumer.sql, { name, types, handle: project, source: behind, signal: slow.signal }, logger);
    await asked.promise;
    await catchUp(consumer.sql, { name, types, handle: project, source }, logger);
    const [end] = await consumer.sql<{ position: string }[]>`select position from consumer_catchups where consumer = ${name}`;
    gate.resolve();
    await b;
    const [after] = await consumer.sql<{ position: string }[]>`select position from consumer_catchups where consumer = ${name}`;
    expect(after!.position).toBe(end!.position);
  });
});

describe('catchUp, a page at a time', () => {
  it('applies a page in one transaction; an event of it that cannot be applied yet leaves those before it applied', async () => {
    await consumer.sql`truncate participants`;
    const name = `c-${randomUUID().slice(0, 8)}`;
    const pages: EventEnvelope[][] = [];
    const whole: HistorySource = {
      name: 'study',
      page: async (after, types) => {
        const page = await readIntegrationHistory(producer.sql, { toIntegration, after, types, limit: 1000 });
        pages.push(page.events);
        return page;
      },
    };
    const [count] = await producer.sql<{ n: number }[]>`select count(*)::int as n from events where type = 'ConsentGiven'`;
    expect(count!.n).toBeGreaterThan(3);
    // the third event of the page cannot be applied in the batch nor on its own the first time
    let third: string | null = null;
    let refused = 0;
    const handle = async (tx: Tx, envelope: EventEnvelope) => {
      third ??= pages[0]![2]!.id;
      if (envelope.id === third && refused++ < 2) throw new Error('its registration is not here yet');
      await project(tx, envelope);
    };
    await expect(catchUp(consumer.sql, { name, types: ['study.consent.given'], handle, source: whole }, logger)).rejects.toThrow(
      'its registration is not here yet',
    );
    expect((await participants()).length).toBe(2); // the two before it, one by one after the batch failed
    expect(await catchUp(consumer.sql, { name, types: ['study.consent.given'], handle, source: whole }, logger)).toBe(count!.n - 2);
    const rows = await participants();
    expect(rows).toHaveLength(count!.n);
    expect(rows.every((p) => p.applied === 1)).toBe(true);
  });
});

describe('rebuildConsumer', () => {
  it('empties the read model and replays the history, while a delivery waits and then changes nothing', async () => {
    const name = `c-${randomUUID().slice(0, 8)}`;
    await consumer.sql`truncate participants`;
    await catchUp(consumer.sql, { name, types: ['study.consent.given'], handle: project, source }, logger);
    await consumer.sql`update participants set applied = 99`; // damage the read model
    // A new event, not applied yet: its bus delivery arrives while the rebuild runs.
    const { events } = await store.appendToStream(`consent:${randomUUID()}`, [consent()], { expectedVersion: 'no_stream' });
    const fresh = toIntegration(events[0]!)!;

    let delivered: Promise<boolean> | undefined;
    const slowSource: HistorySource = {
      name: 'study',
      page: async (after, types) => {
        if (!delivered) {
          delivered = applyOnce(consumer.sql, name, fresh, project);
          // Go on only once the delivery is blocked (by the consumer's lock: it must not get
          // as far as its inbox row, or it and the replay would deadlock).
          await eventually(async () => {
            const [row] = await consumer.sql<{ n: number }[]>`
              select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
            return row!.n > 0;
          });
        }
        return source.page(after, types);
      },
    };
    const applied = await rebuildConsumer(consumer.sql, {
      name,
      types: ['study.consent.given'],
      handle: project,
      source: slowSource,
      tables: ['participants'],
    });
    const [count] = await producer.sql<{ n: number }[]>`select count(*)::int as n from events where type = 'ConsentGiven'`;
    expect(applied).toBe(count!.n);
    // The delivery waited for the rebuild (which replayed its event), then changed nothing.
    expect(await delivered).toBe(false);
    const rows = await participants();
    expect(rows).toHaveLength(count!.n);
    expect(rows.every((r) => r.applied === 1)).toBe(true);
  });
});

describe('rebuildConsumer, after the producer was restored from a backup', () => {
  it('records where the history ends now, even before the position it had (which would find nothing again)', async () => {
    const name = `c-${randomUUID().slice(0, 8)}`;
    const types = ['study.consent.given'];
    await catchUp(consumer.sql, { name, types, handle: project, source }, logger);
    const [end] = await consumer.sql<{ position: string }[]>`select position from consumer_catchups where consumer = ${name}`;
    await consumer.sql`update consumer_catchups set position = '999999999:999999999' where consumer = ${name}`;
    await rebuildConsumer(consumer.sql, { name, types, handle: project, source, tables: [] });
    const [after] = await consumer.sql<{ position: string }[]>`select position from consumer_catchups where consumer = ${name}`;
    expect(after!.position).toBe(end!.position);
  });
});

describe('rebuildConsumer, over many streams', () => {
  it('takes no lock a stream, however many streams its handlers record to', async () => {
    const name = `c-${randomUUID().slice(0, 8)}`;
    // 2,000 consents, each recorded by the handler as an event of its own stream (as the
    // services' consumers record one on her stream): a lock a stream would be 2,000 slots
    // of the lock table PostgreSQL shares between every database (64 a connection)
    const envelopes = Array.from({ length: 2_000 }, () =>
      testEnvelope('study.consent.given', {
        userId: randomUUID(),
        consentVersion: '1.0',
        acceptedAt: '2026-01-04T08:00:00.000Z',
        studyStartDate: '2026-01-05',
      }),
    );
    const many: HistorySource = { name: 'study', page: async () => ({ events: envelopes, next: 'end', end: true }) };
    const own = createEventStore(consumer.sql);
    let held = 0;
    const recorded = async (tx: Tx, envelope: EventEnvelope) => {
      if (!isEventOfType(envelope, 'study.consent.given')) return;
      await own.appendToStream(`participant:${envelope.data.userId}`, [consent()], { expectedVersion: 'no_stream', tx });
      if (envelope === envelopes.at(-1)) {
        const [row] = await tx<
          { n: number }[]
        >`select count(*)::int as n from pg_locks where pid = pg_backend_pid() and locktype = 'advisory'`;
        held = row!.n;
      }
    };
    const applied = await rebuildConsumer(consumer.sql, {
      name,
      types: ['study.consent.given'],
      handle: recorded,
      source: many,
      tables: [],
    });
    expect(applied).toBe(2_000);
    // the consumer's own only
    expect(held).toBe(1);
    const [streams] = await consumer.sql<
      { n: number }[]
    >`select count(distinct stream_id)::int as n from events where stream_id like 'participant:%'`;
    expect(streams!.n).toBeGreaterThanOrEqual(2_000);
  });

  it("lets the service's own commands go on meanwhile (nothing of theirs waits for the rebuild)", async () => {
    const name = `c-${randomUUID().slice(0, 8)}`;
    const own = createEventStore(consumer.sql);
    const started = deferred();
    const finish = deferred();
    const slow: HistorySource = {
      name: 'study',
      page: async () => {
        started.resolve();
        await finish.promise;
        return { events: [], next: 'end', end: true };
      },
    };
    const rebuild = rebuildConsumer(consumer.sql, { name, types: ['study.consent.given'], handle: project, source: slow, tables: [] });
    await started.promise;
    try {
      await own.appendToStream(`participant:${randomUUID()}`, [consent()], { expectedVersion: 'no_stream' });
    } finally {
      finish.resolve();
      await rebuild;
    }
  });
});

describe('startConsumer', () => {
  let bus: Bus;
  const prefix = randomBusPrefix();
  beforeAll(async () => {
    bus = await connectBus({ servers: NATS_URL, prefix, name: 'history-test', logger });
    await bus.ensureStreams(['STUDY']);
  });
  afterAll(async () => {
    await bus?.close();
    await deleteStreamsOfPrefix(NATS_URL, prefix);
  });

  it('catches up with what the bus no longer holds, then follows the bus, each event once', async () => {
    await consumer.sql`truncate participants`;
    const name = `research-study-${randomUUID().slice(0, 6)}`;
    // History only (never on this bus): as if the stream had been purged.
    const { events: old } = await store.appendToStream(`consent:${randomUUID()}`, [consent()], { expectedVersion: 'no_stream' });
    // On both: published and in the history (the overlap the inbox absorbs).
    const { events: both } = await store.appendToStream(`consent:${randomUUID()}`, [consent()], { expectedVersion: 'no_stream' });
    await bus.publish(toIntegration(both[0]!)!);

    const c = startConsumer({
      sql: consumer.sql,
      bus,
      name,
      stream: 'STUDY',
      types: ['study.consent.given'],
      handle: project,
      history: source,
      logger,
    });
    try {
      await eventually(() => c.state() === 'following');
      // Bus only: published after it caught up.
      const { events: fresh } = await store.appendToStream(`consent:${randomUUID()}`, [consent()], { expectedVersion: 'no_stream' });
      await bus.publish(toIntegration(fresh[0]!)!);
      const users = [old, both, fresh].map((events) => (events[0]!.data as ConsentGiven['data']).userId);
      await eventually(async () => {
        const rows = await participants();
        return users.every((u) => rows.some((r) => r.user_id === u));
      });
      expect((await participants()).every((r) => r.applied === 1)).toBe(true);
    } finally {
      await c.stop();
    }
  });
});
