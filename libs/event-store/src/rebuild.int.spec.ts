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
});
