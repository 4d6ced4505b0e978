import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INBOX_KEEP_MS, pruneInbox } from './inbox.ts';
import { migrateEventStore } from './migrate.ts';
import { createTestDatabase, type TestDatabase } from './test-support.ts';

const DAY_MS = 24 * 60 * 60_000;
let db: TestDatabase;

/** `count` inbox rows of `consumer`, applied `daysAgo` days ago (a minute apart, older first). */
async function applied(consumer: string, count: number, daysAgo: number): Promise<void> {
  await db.sql`
    insert into inbox (consumer, event_id, processed_at)
    select ${consumer}, gen_random_uuid(), now() - ${daysAgo} * interval '1 day' - (${count} - g) * interval '1 minute'
    from generate_series(1, ${count}::int) g`;
}

async function rows(): Promise<Record<string, number>> {
  const counted = await db.sql<{ consumer: string; n: number }[]>`
    select consumer, count(*)::int as n from inbox group by consumer order by consumer`;
  return Object.fromEntries(counted.map((row) => [row.consumer, row.n]));
}

beforeAll(async () => {
  db = await createTestDatabase();
  await migrateEventStore(db.sql);
});

beforeEach(async () => {
  await db.sql`delete from inbox`;
});

afterAll(async () => {
  await db?.drop();
});

describe('the inbox', () => {
  it('keeps an event four times as long as the bus can send a copy of it', () => {
    expect(INBOX_KEEP_MS).toBe(28 * DAY_MS);
  });

  it('forgets what was applied before the cutoff, a batch at a time, and keeps the rest', async () => {
    await applied('old', 2_345, 40);
    await applied('recent', 300, 2);
    await applied('mixed', 100, 40);
    await applied('mixed', 50, 1);
    const deleted = await pruneInbox(db.sql, { before: new Date(Date.now() - 30 * DAY_MS), batchSize: 500 });
    expect(deleted).toBe(2_445);
    expect(await rows()).toEqual({ mixed: 50, recent: 300 });
    expect(await pruneInbox(db.sql, { before: new Date(Date.now() - 30 * DAY_MS), batchSize: 500 })).toBe(0);
  });

  it('two prunings at once delete each row once', async () => {
    await applied('old', 4_000, 40);
    const before = new Date(Date.now() - 30 * DAY_MS);
    const counts = await Promise.all([pruneInbox(db.sql, { before, batchSize: 300 }), pruneInbox(db.sql, { before, batchSize: 300 })]);
    expect(counts[0] + counts[1]).toBe(4_000);
    expect(await rows()).toEqual({});
  });
});
