/**
 * An index added after the first release is built without holding off appends: on a store
 * that already holds events, `create index` in the migration's transaction waited for the
 * appends in progress and made every new one wait behind it until it was built.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATION_LOCK } from './locks.ts';
import { CONCURRENT_INDEXES, migrateEventStore } from './migrate.ts';
import { createTestDatabase, untilWaitingForLock, type TestDatabase } from './test-support.ts';

let db: TestDatabase;
const [index] = CONCURRENT_INDEXES;

beforeEach(async () => {
  db = await createTestDatabase();
  await migrateEventStore(db.sql);
  // a store from before the index
  await db.sql.unsafe(`drop index ${index!.name}`);
});
afterEach(async () => {
  await db?.drop();
});

const appendOne = (q: typeof db.sql) =>
  q`insert into events (id, stream_id, stream_position, type, data) values (${randomUUID()}, ${`s:${randomUUID()}`}, 1, 'Happened', '{}')`;

async function indexState(): Promise<string> {
  const [row] = await db.sql<{ valid: boolean }[]>`
    select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = ${index!.name}`;
  return row === undefined ? 'missing' : row.valid ? 'valid' : 'invalid';
}

describe('migrateEventStore on a store that holds events', () => {
  it('builds a later index while appends go on', async () => {
    for (let i = 0; i < 100; i++) await appendOne(db.sql);
    // an append in progress: the build waits for it to end
    const inProgress = await db.sql.reserve();
    await inProgress`begin`;
    await appendOne(inProgress as never);
    const migrating = migrateEventStore(db.sql);
    await untilWaitingForLock(db.sql);
    // meanwhile a new append goes through at once (behind a plain create index it would wait)
    const other = await db.sql.reserve();
    try {
      await other`set lock_timeout = '2s'`;
      await appendOne(other as never);
    } finally {
      other.release();
    }
    expect(await indexState()).not.toBe('valid');
    await inProgress`commit`;
    inProgress.release();
    await migrating;
    expect(await indexState()).toBe('valid');
  });

  it("waits for another process's migration without waiting inside a statement (its snapshot would hold up that one's index build)", async () => {
    const other = await db.sql.reserve();
    await other`select pg_advisory_lock(${MIGRATION_LOCK.classId}, ${MIGRATION_LOCK.objId})`;
    const migrating = migrateEventStore(db.sql);
    for (let sample = 0; sample < 15; sample++) {
      await sleep(20);
      const waiting = await db.sql<{ pid: number }[]>`
        select pid from pg_stat_activity
        where datname = current_database() and (wait_event_type = 'Lock' or state = 'idle in transaction')`;
      expect(waiting).toEqual([]);
    }
    expect(await indexState()).toBe('missing');
    await other`select pg_advisory_unlock(${MIGRATION_LOCK.classId}, ${MIGRATION_LOCK.objId})`;
    other.release();
    await migrating;
    expect(await indexState()).toBe('valid');
  });

  it('builds again an index an interrupted build left invalid, and processes starting together build it once', async () => {
    await db.sql.unsafe(`create index ${index!.name} ${index!.definition}`);
    await db.sql`update pg_index set indisvalid = false where indexrelid = ${index!.name}::regclass`;
    expect(await indexState()).toBe('invalid');
    await Promise.all([migrateEventStore(db.sql), migrateEventStore(db.sql), migrateEventStore(db.sql)]);
    expect(await indexState()).toBe('valid');
    const [count] = await db.sql<{ n: number }[]>`select count(*)::int as n from pg_indexes where indexname = ${index!.name}`;
    expect(count!.n).toBe(1);
  });
});

describe('migrateEventStore on a store from before a later column', () => {
  it("adds it, keeping the table's rows, and then leaves it be", async () => {
    await db.sql`alter table consumer_catchups drop column reread_at`;
    await db.sql`insert into consumer_catchups (consumer, position, completed_at) values ('old', '4:2', now())`;
    await migrateEventStore(db.sql);
    const rows = await db.sql`select consumer, position, reread_at from consumer_catchups`;
    expect(rows).toEqual([{ consumer: 'old', position: '4:2', reread_at: null }]);
    await migrateEventStore(db.sql);
  });
});
