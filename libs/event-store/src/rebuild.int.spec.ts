import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateEventStore } from './migrate.ts';
import { rebuildProjection } from './rebuild.ts';
import { createEventStore, type EventStore } from './store.ts';
import { createTestDatabase, type TestDatabase } from './test-support.ts';
import { defineProjection, type DomainEvent } from './types.ts';

type NightLogged = DomainEvent<'NightLogged', { userId: string; date: string; hours: number }>;
type NightCorrected = DomainEvent<'NightCorrected', { userId: string; date: string; hours: number }>;
type NightDeleted = DomainEvent<'NightDeleted', { userId: string; date: string }>;
type Unrelated = DomainEvent<'ProfileChanged', { userId: string }>;
type NightEvent = NightLogged | NightCorrected | NightDeleted;

/** A tiny read model over two tables: nights, and per-user totals. */
const nightsProjection = defineProjection<NightEvent>({
  name: 'nights',
  tables: ['nights', 'night_totals'],
  handles: ['NightLogged', 'NightCorrected', 'NightDeleted'],
  async apply(tx, event) {
    switch (event.type) {
      case 'NightLogged':
        await tx`insert into nights (user_id, date, hours, revision) values (${event.data.userId}, ${event.data.date}, ${event.data.hours}, 1)`;
        break;
      case 'NightCorrected':
        await tx`update nights set hours = ${event.data.hours}, revision = revision + 1
                 where user_id = ${event.data.userId} and date = ${event.data.date}`;
        break;
      case 'NightDeleted':
        await tx`delete from nights where user_id = ${event.data.userId} and date = ${event.data.date}`;
        break;
    }
    await tx`insert into night_totals (user_id, nights, hours)
             select ${event.data.userId}, count(*), coalesce(sum(hours), 0) from nights where user_id = ${event.data.userId}
             on conflict (user_id) do update set nights = excluded.nights, hours = excluded.hours`;
  },
});

let db: TestDatabase;
let store: EventStore;

async function snapshot() {
  const nights = await db.sql`select user_id, date, hours, revision from nights order by user_id, date`;
  const totals = await db.sql`select user_id, nights, hours from night_totals order by user_id`;
  return { nights: [...nights], totals: [...totals] };
}

beforeAll(async () => {
  db = await createTestDatabase();
  await migrateEventStore(db.sql);
  await db.sql`create table nights (user_id text, date text, hours numeric not null, revision int not null, primary key (user_id, date))`;
  await db.sql`create table night_totals (user_id text primary key, nights int not null, hours numeric not null)`;
  store = createEventStore(db.sql, { projections: [nightsProjection] });
});

afterAll(async () => {
  await db?.drop();
});

describe('rebuildProjection', () => {
  it('gives the same read model as the inline projection', async () => {
    const users = ['u1', 'u2', 'u3'];
    let expected = 0;
    for (const userId of users) {
      for (let day = 1; day <= 12; day++) {
        const date = `2025-01-${String(day).padStart(2, '0')}`;
        const events: (NightEvent | Unrelated)[] = [{ type: 'NightLogged', data: { userId, date, hours: 6 + (day % 3) } }];
        if (day % 4 === 0) events.push({ type: 'NightCorrected', data: { userId, date, hours: 7.5 } });
        if (day % 5 === 0) events.push({ type: 'NightDeleted', data: { userId, date } });
        events.push({ type: 'ProfileChanged', data: { userId } });
        expected += events.length - 1;
        await store.appendToStream(`sleep_log:${userId}:${date}`, events, { expectedVersion: 'no_stream' });
      }
    }
    const before = await snapshot();
    expect(before.nights.length).toBeGreaterThan(20);

    // Damage the read model, then rebuild it from the events.
    await db.sql`update nights set hours = 0`;
    await db.sql`delete from night_totals where user_id = 'u2'`;
    await db.sql`insert into nights (user_id, date, hours, revision) values ('ghost', '2025-01-01', 1, 1)`;

    const replayed = await rebuildProjection(db.sql, nightsProjection);
    expect(replayed).toBe(expected);
    expect(await snapshot()).toEqual(before);

    // Rebuilding twice changes nothing.
    await rebuildProjection(db.sql, nightsProjection);
    expect(await snapshot()).toEqual(before);
  });

  it('replays every event once, in order, over many pages (positions past 999, 9,999 ...)', async () => {
    type Counted = DomainEvent<'Counted', { n: number }>;
    const seen: number[] = [];
    const counting = defineProjection<Counted>({
      name: 'counting',
      tables: [],
      handles: ['Counted'],
      async apply(_tx, event) {
        seen.push(event.data.n);
      },
    });
    // 1,200 events in one stream: their global positions cross 999 on the second page
    const events: Counted[] = Array.from({ length: 1_200 }, (_, n) => ({ type: 'Counted', data: { n } }));
    for (let from = 0; from < events.length; from += 400) {
      await store.appendToStream('counted:1', events.slice(from, from + 400), { expectedVersion: 'any' });
    }
    expect(await rebuildProjection(db.sql, counting)).toBe(1_200);
    // each once, in the order they were appended (pages ordered by the text of the
    // positions lost some and replayed others twice)
    expect(seen).toEqual(events.map((event) => event.data.n));
  });

  it("gives a projection's replay state to every event, and writes it at the end, in the rebuild's transaction", async () => {
    type Tallied = DomainEvent<'Tallied', { key: string }>;
    await db.sql`create table tallies (key text primary key, n int not null)`;
    const applied: (Map<string, number> | undefined)[] = [];
    const tallying = defineProjection<Tallied, Map<string, number>>({
      name: 'tallying',
      tables: ['tallies'],
      handles: ['Tallied'],
      async apply(tx, event, replay) {
        applied.push(replay);
        if (replay) replay.set(event.data.key, (replay.get(event.data.key) ?? 0) + 1);
        else await tx`insert into tallies (key, n) values (${event.data.key}, 1) on conflict (key) do update set n = tallies.n + 1`;
      },
      replay: {
        start: () => new Map(),
        async end(tx, state) {
          for (const [key, n] of state) await tx`insert into tallies (key, n) values (${key}, ${n})`;
          // still inside the transaction: a failure here leaves the tables as they were
          if (state.has('fail')) throw new Error('end failed');
        },
      },
    });
    const tallyStore = createEventStore(db.sql, { projections: [tallying] });
    const keys = ['a', 'b', 'a', 'c', 'a', 'b'];
    await tallyStore.appendToStream(
      'tallied:1',
      keys.map((key) => ({ type: 'Tallied' as const, data: { key } })),
      { expectedVersion: 'any' },
    );
    // appended: applied row by row, without a replay state
    expect(applied).toEqual(keys.map(() => undefined));
    const tallies = async () => [...(await db.sql`select key, n from tallies order by key`)];
    const live = await tallies();
    expect(live).toEqual([
      { key: 'a', n: 3 },
      { key: 'b', n: 2 },
      { key: 'c', n: 1 },
    ]);

    applied.length = 0;
    expect(await rebuildProjection(db.sql, tallying)).toBe(6);
    expect(new Set(applied).size).toBe(1);
    expect(applied[0]).toBeInstanceOf(Map);
    expect(await tallies()).toEqual(live);

    await tallyStore.appendToStream('tallied:1', [{ type: 'Tallied', data: { key: 'fail' } }], { expectedVersion: 'any' });
    const before = await tallies();
    await expect(rebuildProjection(db.sql, tallying)).rejects.toThrow('end failed');
    expect(await tallies()).toEqual(before);
  });
});
