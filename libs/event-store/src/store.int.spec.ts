import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConcurrencyError } from './errors.ts';
import { migrateEventStore } from './migrate.ts';
import { createEventStore, TAIL_READ, type EventStore } from './store.ts';
import { createTestDatabase, deferred, untilWaitingForLock, type TestDatabase } from './test-support.ts';
import type { Decider, DomainEvent, Projection } from './types.ts';

let db: TestDatabase;
let store: EventStore;

type Added = DomainEvent<'Added', { amount: number; at: string }>;
type Reset = DomainEvent<'Reset', Record<string, never>>;
type CounterEvent = Added | Reset;
type CounterCommand = { type: 'Add'; amount: number; at: Date } | { type: 'Reset' };
class TooMuch extends Error {}

const counter: Decider<CounterCommand, { total: number }, CounterEvent> = {
  initialState: () => ({ total: 0 }),
  evolve: (state, event) => (event.type === 'Added' ? { total: state.total + event.data.amount } : { total: 0 }),
  decide(command, state) {
    if (command.type === 'Reset') return state.total === 0 ? [] : [{ type: 'Reset', data: {} }];
    if (state.total + command.amount > 10) throw new TooMuch(`total would exceed 10`);
    return [{ type: 'Added', data: { amount: command.amount, at: command.at.toISOString() } }];
  },
};

const added = (amount: number): Added => ({ type: 'Added', data: { amount, at: '2025-01-01T00:00:00.000Z' } });

beforeAll(async () => {
  db = await createTestDatabase();
  await migrateEventStore(db.sql);
  await migrateEventStore(db.sql); // idempotent
  store = createEventStore(db.sql);
});

afterAll(async () => {
  await db?.drop();
});

describe('migrateEventStore', () => {
  it('is safe when several processes run it at once', async () => {
    await Promise.all([migrateEventStore(db.sql), migrateEventStore(db.sql), migrateEventStore(db.sql)]);
  });
});

describe('appendToStream: expected version', () => {
  it('no_stream appends to a new stream and refuses an existing one', async () => {
    const result = await store.appendToStream('counter:a', [added(1), added(2)], { expectedVersion: 'no_stream' });
    expect(result.version).toBe(2);
    expect(result.events.map((e) => e.streamPosition)).toEqual([1, 2]);
    const err = await store.appendToStream('counter:a', [added(1)], { expectedVersion: 'no_stream' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConcurrencyError);
    expect(err).toMatchObject({ name: 'ConcurrencyError', streamId: 'counter:a', expected: 'no_stream', actual: 2 });
  });

  it('exists refuses a missing stream and appends to an existing one', async () => {
    await expect(store.appendToStream('counter:b', [added(1)], { expectedVersion: 'exists' })).rejects.toBeInstanceOf(ConcurrencyError);
    await store.appendToStream('counter:b', [added(1)], { expectedVersion: 'no_stream' });
    const result = await store.appendToStream('counter:b', [added(1)], { expectedVersion: 'exists' });
    expect(result.version).toBe(2);
  });

  it('a number must equal the current version', async () => {
    await store.appendToStream('counter:c', [added(1)], { expectedVersion: 0 });
    await store.appendToStream('counter:c', [added(1)], { expectedVersion: 1 });
    await expect(store.appendToStream('counter:c', [added(1)], { expectedVersion: 1 })).rejects.toMatchObject({
      name: 'ConcurrencyError',
      expected: 1,
      actual: 2,
    });
    await expect(store.appendToStream('counter:c', [added(1)], { expectedVersion: 3 })).rejects.toBeInstanceOf(ConcurrencyError);
    const { version } = await store.appendToStream('counter:c', [added(1)], { expectedVersion: 2 });
    expect(version).toBe(3);
  });

  it('any appends whatever the version', async () => {
    await store.appendToStream('counter:d', [added(1)], { expectedVersion: 'any' });
    const { version } = await store.appendToStream('counter:d', [added(1)], { expectedVersion: 'any' });
    expect(version).toBe(2);
  });

  it('records metadata, time, ids and positions, and reads them back', async () => {
    const now = new Date('2025-03-04T05:06:07.000Z');
    const metadata = { correlationId: 'corr-1', causationId: null, userId: 'u-1' };
    const appended = await store.appendToStream('counter:e', [added(3)], { expectedVersion: 'no_stream', metadata, now });
    const read = await store.readStream('counter:e');
    expect(read.version).toBe(1);
    expect(read.events).toEqual(appended.events);
    const [event] = read.events;
    expect(event).toMatchObject({
      streamId: 'counter:e',
      streamPosition: 1,
      type: 'Added',
      data: { amount: 3, at: '2025-01-01T00:00:00.000Z' },
      metadata,
      createdAt: now,
    });
    expect(event?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(event?.globalPosition).toMatch(/^\d+$/);
    expect(event?.transactionId).toMatch(/^\d+$/);
    expect(await store.readStream('counter:none')).toEqual({ events: [], version: 0 });
  });

  it('20 concurrent appends at the same expected version: exactly one wins', async () => {
    await store.appendToStream('counter:race', [added(1), added(1), added(1)], { expectedVersion: 'no_stream' });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => store.appendToStream('counter:race', [added(1)], { expectedVersion: 3 })),
    );
    const fulfilled = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(19);
    for (const r of rejected) expect(r.reason).toBeInstanceOf(ConcurrencyError);
    expect((await store.readStream('counter:race')).version).toBe(4);
  });

  it('maps a unique (stream_id, stream_position) violation to ConcurrencyError', async () => {
    await store.appendToStream('counter:raw', [added(1)], { expectedVersion: 'no_stream' });
    // A writer that bypasses the store's per-stream lock holds position 2, uncommitted.
    const inserted = deferred();
    const commit = deferred();
    const raw = db.sql.begin(async (tx) => {
      await tx`insert into events (id, stream_id, stream_position, type, data) values (gen_random_uuid(), 'counter:raw', 2, 'Added', '{}')`;
      inserted.resolve();
      await commit.promise;
    });
    await inserted.promise;
    // The append reads version 1 (the raw row is invisible), inserts position 2 and waits on the index.
    const appending = store.appendToStream('counter:raw', [added(1)], { expectedVersion: 1 }).catch((e: unknown) => e);
    await untilWaitingForLock(db.sql);
    commit.resolve();
    await raw;
    const err = await appending;
    expect(err).toBeInstanceOf(ConcurrencyError);
    expect(err).toMatchObject({ streamId: 'counter:raw', expected: 1, actual: null });
  });

  it('appends to two streams atomically inside a caller transaction', async () => {
    await expect(
      store.transaction(async (tx) => {
        await store.appendToStream('counter:tx1', [added(1)], { expectedVersion: 'no_stream', tx });
        await store.appendToStream('counter:tx2', [added(1)], { expectedVersion: 'exists', tx }); // fails
      }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect((await store.readStream('counter:tx1')).version).toBe(0);

    await store.transaction(async (tx) => {
      await store.appendToStream('counter:tx1', [added(1)], { expectedVersion: 'no_stream', tx });
      await store.appendToStream('counter:tx2', [added(2)], { expectedVersion: 'no_stream', tx });
    });
    expect((await store.readStream('counter:tx1')).version).toBe(1);
    expect((await store.readStream('counter:tx2')).version).toBe(1);
  });
});

describe('handle', () => {
  it('folds, decides and appends; returns the new events, state and version', async () => {
    const at = new Date('2025-05-01T10:00:00.000Z');
    const first = await store.handle('counter:h', counter, { type: 'Add', amount: 4, at });
    expect(first.version).toBe(1);
    expect(first.state).toEqual({ total: 4 });
    expect(first.events.map((e) => [e.type, e.data])).toEqual([['Added', { amount: 4, at: at.toISOString() }]]);

    const second = await store.handle('counter:h', counter, { type: 'Add', amount: 5, at }, { metadata: { userId: 'u' } });
    expect(second).toMatchObject({ version: 2, state: { total: 9 } });
    expect(second.events[0]?.metadata).toEqual({ userId: 'u' });
  });

  it('lets domain errors through unchanged and appends nothing', async () => {
    const at = new Date();
    await store.handle('counter:err', counter, { type: 'Add', amount: 8, at });
    const err = await store.handle('counter:err', counter, { type: 'Add', amount: 8, at }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TooMuch);
    expect((await store.readStream('counter:err')).version).toBe(1);
  });

  it('decides nothing without appending', async () => {
    const result = await store.handle('counter:nothing', counter, { type: 'Reset' });
    expect(result).toEqual({ events: [], state: { total: 0 }, version: 0 });
  });

  it('concurrent commands on one aggregate take turns: each decides on the latest state', async () => {
    const at = new Date();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => store.handle('counter:hrace', counter, { type: 'Add', amount: 1, at })),
    );
    expect(results.map((r) => r.state.total).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await store.readStream('counter:hrace')).version).toBe(10);
  });

  it('an explicit expectedVersion still conflicts', async () => {
    const at = new Date();
    await store.handle('counter:explicit', counter, { type: 'Add', amount: 1, at });
    await expect(store.handle('counter:explicit', counter, { type: 'Add', amount: 1, at }, { expectedVersion: 0 })).rejects.toBeInstanceOf(
      ConcurrencyError,
    );
  });
});

describe("handle with expectedVersion 'no_stream' (a stream the caller has just named)", () => {
  it('decides on the initial state and appends at position 1, without reading the stream', async () => {
    const statements: string[] = [];
    const watchedSql = postgres(db.url, { max: 1, debug: (_connection, query) => void statements.push(query.replace(/\s+/g, ' ').trim()) });
    const watched = createEventStore(watchedSql);
    const at = new Date('2025-06-01T08:00:00.000Z');
    const result = await watched
      .handle('counter:fresh', counter, { type: 'Add', amount: 3, at }, { expectedVersion: 'no_stream' })
      .finally(() => watchedSql.end());
    expect(result.version).toBe(1);
    expect(result.state).toEqual({ total: 3 });
    expect(result.events.map((e) => [e.type, e.streamPosition, e.data])).toEqual([['Added', 1, { amount: 3, at: at.toISOString() }]]);
    expect((await store.readStream('counter:fresh')).version).toBe(1);
    // Its lock is taken (ahead of the insert), its events are not read.
    expect(statements.some((q) => q.includes('pg_advisory_xact_lock'))).toBe(true);
    expect(statements.filter((q) => /^select .* from events/.test(q))).toEqual([]);
    expect(statements.findIndex((q) => q.includes('pg_advisory_xact_lock'))).toBeLessThan(
      statements.findIndex((q) => q.startsWith('insert into events')),
    );
  });

  it('a stream that exists after all: ConcurrencyError, nothing appended', async () => {
    const at = new Date();
    await store.handle('counter:taken', counter, { type: 'Add', amount: 1, at });
    const err = await store
      .handle('counter:taken', counter, { type: 'Add', amount: 1, at }, { expectedVersion: 'no_stream' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConcurrencyError);
    expect(err).toMatchObject({ streamId: 'counter:taken', expected: 'no_stream' });
    expect((await store.readStream('counter:taken')).version).toBe(1);
  });

  it('five at once on one new stream: one appends, the others get ConcurrencyError', async () => {
    const at = new Date();
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        store.handle('counter:both', counter, { type: 'Add', amount: 2, at }, { expectedVersion: 'no_stream' }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) expect(r.reason).toBeInstanceOf(ConcurrencyError);
    expect((await store.readStream('counter:both')).version).toBe(1);
  });

  it('holds the stream lock: a deletion of the stream waits for the command and removes what it wrote', async () => {
    const at = new Date();
    const commit = deferred();
    const appended = deferred();
    const command = store.transaction(async (tx) => {
      await store.handle('counter:held', counter, { type: 'Add', amount: 1, at }, { expectedVersion: 'no_stream', tx });
      appended.resolve();
      await commit.promise;
    });
    await appended.promise;
    const deleting = store.deleteStreams(['counter:held']);
    await untilWaitingForLock(db.sql);
    commit.resolve();
    await command;
    expect(await deleting).toBe(1);
    expect((await store.readStream('counter:held')).version).toBe(0);
  });
});

describe('handle with evolvesOn', () => {
  // Its state is who opened it: the notes are events its state does not read.
  type Noted = DomainEvent<'Noted', { text: string }>;
  type Opened = DomainEvent<'Opened', { by: string }>;
  const folded: string[] = [];
  const ledger: Decider<{ type: 'Note'; text: string } | { type: 'Open'; by: string }, { openedBy: string | null }, Noted | Opened> = {
    initialState: () => ({ openedBy: null }),
    evolve: (state, event) => {
      folded.push(event.type);
      return event.type === 'Opened' ? { openedBy: event.data.by } : state;
    },
    decide: (command, state) => {
      if (command.type === 'Open') return state.openedBy ? [] : [{ type: 'Opened', data: { by: command.by } }];
      if (!state.openedBy) throw new TooMuch('not opened');
      return [{ type: 'Noted', data: { text: command.text } }];
    },
    evolvesOn: ['Opened'],
  };

  it("folds only the declared types, and appends at the stream's true version", async () => {
    await store.handle('ledger:1', ledger, { type: 'Open', by: 'ann' });
    for (let i = 0; i < 5; i++) await store.handle('ledger:1', ledger, { type: 'Note', text: `n${i}` });
    folded.length = 0;
    const result = await store.handle('ledger:1', ledger, { type: 'Note', text: 'last' });
    // read: only 'Opened'; then the new event is evolved once
    expect(folded).toEqual(['Opened', 'Noted']);
    expect(result.version).toBe(7);
    expect(result.state).toEqual({ openedBy: 'ann' });
    const read = await store.readStream('ledger:1');
    expect(read.events.map((e) => e.streamPosition)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // a second open decides nothing, seeing the state though 'Opened' is not the last event
    expect(await store.handle('ledger:1', ledger, { type: 'Open', by: 'bob' })).toMatchObject({ events: [], version: 7 });
  });

  it('an empty stream reads as version 0 (no_stream)', async () => {
    await expect(store.handle('ledger:empty', ledger, { type: 'Note', text: 'x' })).rejects.toBeInstanceOf(TooMuch);
    expect((await store.handle('ledger:empty', ledger, { type: 'Open', by: 'c' })).version).toBe(1);
  });
});

describe('handle with tailCovers', () => {
  // A log whose state is its first event and the positions of the events it folded.
  type Ticked = DomainEvent<'Ticked', { n: number }>;
  /** How many positions the tail must span for the state (events before it do not count). */
  let span = 0;
  const seen: number[] = [];
  const log: Decider<{ type: 'Tick' }, { ticks: number }, Ticked> = {
    initialState: () => ({ ticks: 0 }),
    evolve: (state, event) => ({ ticks: state.ticks + 1 + event.data.n * 0 }),
    decide: (_command, state) => [{ type: 'Ticked', data: { n: state.ticks } }],
    tailCovers: (oldest, newest) => {
      seen.push(oldest.streamPosition, newest.streamPosition);
      return newest.streamPosition - oldest.streamPosition >= span;
    },
  };

  it(`folds the first event and as much of the end as the state needs, however long the stream`, async () => {
    const stream = 'log:1';
    await store.appendToStream(
      stream,
      Array.from({ length: 999 }, (_, n) => ({ type: 'Ticked' as const, data: { n } })),
      { expectedVersion: 'no_stream' },
    );
    // the last 32 cover it: positions 968 to 999 and the first, then the new one
    seen.length = 0;
    const tail = await store.handle(stream, log, { type: 'Tick' });
    expect(seen).toEqual([999 - TAIL_READ + 1, 999]);
    expect(tail).toMatchObject({ version: 1000, state: { ticks: 1 + TAIL_READ + 1 } });

    // it needs 100 positions back: 32, then 128 more before them (160 of 1,000)
    span = 100;
    seen.length = 0;
    const further = await store.handle(stream, log, { type: 'Tick' });
    expect(seen).toEqual([1000 - TAIL_READ + 1, 1000, 1000 - TAIL_READ * 5 + 1, 1000]);
    expect(further).toMatchObject({ version: 1001, state: { ticks: 1 + TAIL_READ * 5 + 1 } });

    // never covered: back to the second event, all of it
    span = Infinity;
    const whole = await store.handle(stream, log, { type: 'Tick' });
    expect(whole).toMatchObject({ version: 1002, state: { ticks: 1002 } });
    span = 0;

    // a stream shorter than the tail is read whole without asking
    seen.length = 0;
    expect(await store.handle('log:short', log, { type: 'Tick' })).toMatchObject({ version: 1, state: { ticks: 1 } });
    expect(await store.handle('log:short', log, { type: 'Tick' })).toMatchObject({ version: 2, state: { ticks: 2 } });
    expect(seen).toEqual([]);
  });
});

describe('inline projections', () => {
  it('run in the append transaction, and roll back with it', async () => {
    await db.sql`create table totals (stream_id text primary key, total int not null)`;
    const totals: Projection = {
      name: 'totals',
      tables: ['totals'],
      handles: ['Added'],
      async apply(tx, event) {
        const amount = (event.data as { amount: number }).amount;
        await tx`insert into totals (stream_id, total) values (${event.streamId}, ${amount})
                 on conflict (stream_id) do update set total = totals.total + excluded.total`;
      },
    };
    const projected = createEventStore(db.sql, { projections: [totals] });
    await projected.appendToStream('counter:p', [added(2), added(3), { type: 'Reset', data: {} }], {
      expectedVersion: 'no_stream',
    });
    expect(await db.sql`select total from totals where stream_id = 'counter:p'`).toEqual([{ total: 5 }]);

    await expect(
      projected.transaction(async (tx) => {
        await projected.appendToStream('counter:p', [added(10)], { expectedVersion: 3, tx });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await db.sql`select total from totals where stream_id = 'counter:p'`).toEqual([{ total: 5 }]);
  });
});

describe('notify', () => {
  it('an append notifies the channel on commit', async () => {
    let notified = 0;
    const listener = await db.sql.listen('sw_test_channel', () => (notified += 1));
    const notifying = createEventStore(db.sql, { notifyChannel: 'sw_test_channel' });
    await notifying.appendToStream('counter:n', [added(1)], { expectedVersion: 'any' });
    const deadline = Date.now() + 5000;
    while (notified === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await listener.unlisten();
    expect(notified).toBeGreaterThan(0);
  });
});

describe('deleting streams', () => {
  it('deletes streams by id and by prefix', async () => {
    await store.appendToStream('sleep_log:u1:2025-01-01', [added(1)], { expectedVersion: 'no_stream' });
    await store.appendToStream('sleep_log:u1:2025-01-02', [added(1), added(1)], { expectedVersion: 'no_stream' });
    await store.appendToStream('sleep_log:u10:2025-01-01', [added(1)], { expectedVersion: 'no_stream' });
    await store.appendToStream('profile:u1', [added(1)], { expectedVersion: 'no_stream' });
    // next to the prefix in byte order, and in a linguistic collation's order ('_' and ':'
    // ignored at its first level)
    await store.appendToStream('sleep_log:u1;', [added(1)], { expectedVersion: 'no_stream' });
    await store.appendToStream('sleep_logu1:2025-01-01', [added(1)], { expectedVersion: 'no_stream' });
    await store.appendToStream('sleep_log:U1:2025-01-01', [added(1)], { expectedVersion: 'no_stream' });

    expect(await store.deleteStreams(['profile:u1', 'profile:missing'])).toBe(1);
    expect(await store.deleteStreams([])).toBe(0);
    expect(await store.deleteStreamsByPrefix('sleep_log:u1:')).toBe(3);
    expect((await store.readStream('sleep_log:u1:2025-01-02')).version).toBe(0);
    expect((await store.readStream('sleep_log:u10:2025-01-01')).version).toBe(1);
    expect((await store.readStream('profile:u1')).version).toBe(0);
    for (const kept of ['sleep_log:u1;', 'sleep_logu1:2025-01-01', 'sleep_log:U1:2025-01-01']) {
      expect((await store.readStream(kept)).version, kept).toBe(1);
    }
    // Prefix matching is literal: LIKE wildcards mean nothing.
    expect(await store.deleteStreamsByPrefix('sleep_log:u_')).toBe(0);
    await expect(store.deleteStreamsByPrefix('sleep_log:é')).rejects.toThrow(/ending in ASCII/);
  });

  it('renames streams by prefix, the rest of each id kept, merging into their events’ data', async () => {
    await store.appendToStream('audit:u2:e1', [added(1), added(2)], { expectedVersion: 'no_stream' });
    await store.appendToStream('audit:u2:e2', [added(3)], { expectedVersion: 'no_stream' });
    await store.appendToStream('audit:u20:e3', [added(4)], { expectedVersion: 'no_stream' });

    expect(await store.renameStreamsByPrefix('audit:u2:', 'audit:all:', { data: { amount: null, cleared: true } })).toBe(3);
    expect((await store.readStream('audit:u2:e1')).version).toBe(0);
    const moved = await store.readStream('audit:all:e1');
    expect(moved.events.map((e) => [e.streamPosition, e.data])).toEqual([
      [1, { amount: null, at: '2025-01-01T00:00:00.000Z', cleared: true }],
      [2, { amount: null, at: '2025-01-01T00:00:00.000Z', cleared: true }],
    ]);
    expect((await store.readStream('audit:all:e2')).version).toBe(1);
    expect((await store.readStream('audit:u20:e3')).events.map((e) => e.data)).toEqual([added(4).data]);
    // (a new event on a renamed stream follows its last)
    await store.appendToStream('audit:all:e1', [added(5)], { expectedVersion: 2 });
    expect(await store.renameStreamsByPrefix('audit:u_', 'x:', { data: {} })).toBe(0);
    await expect(store.renameStreamsByPrefix('audit:é:', 'x:', { data: {} })).rejects.toThrow(/ASCII/);
  });
});
