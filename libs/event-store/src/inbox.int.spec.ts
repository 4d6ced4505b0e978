import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { testEnvelope } from '@sleepweave/bus/testing';
import type { EventEnvelope } from '@sleepweave/contracts';
import { afterCommit, applyBatchOnce, applyOnce, INBOX_KEEP_MS, pruneInbox, type OrderKey } from './inbox.ts';
import { migrateEventStore } from './migrate.ts';
import { createTestDatabase, type TestDatabase } from './test-support.ts';
import type { Tx } from './types.ts';

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

  it('keeps what a consumer may read again from its history: applied since a day before it last read it to the end', async () => {
    await db.sql`delete from consumer_catchups`;
    // back after 40 days away: it last read its history to the end 39 days ago
    await applied('back', 100, 45);
    await applied('back', 30, 38.5);
    await applied('back', 20, 36);
    await db.sql`
      insert into consumer_catchups (consumer, position, completed_at, reread_at)
      values ('back', '7:7', now() - interval '300 days', now() - interval '39 days')`;
    // never read to the end yet (a first catch-up stuck for weeks on an event it cannot
    // apply): it reads again the page of what it applied before that event, so all is kept
    await applied('new', 10, 45);
    await db.sql`insert into consumer_catchups (consumer, position, completed_at) values ('new', '3:3', null)`;
    // no history at all: as before
    await applied('none', 10, 45);
    // caught up before consumers read their history again (history.ts passes those over)
    await applied('legacy', 10, 45);
    await db.sql`insert into consumer_catchups (consumer, position, completed_at) values ('legacy', '5:5', now() - interval '300 days')`;
    const deleted = await pruneInbox(db.sql, { before: new Date(Date.now() - 28 * DAY_MS), batchSize: 7 });
    expect(deleted).toBe(120);
    expect(await rows()).toEqual({ back: 50, new: 10 });
    await db.sql`delete from consumer_catchups`;
  });

  it('two prunings at once delete each row once', async () => {
    await applied('old', 4_000, 40);
    const before = new Date(Date.now() - 30 * DAY_MS);
    const counts = await Promise.all([pruneInbox(db.sql, { before, batchSize: 300 }), pruneInbox(db.sql, { before, batchSize: 300 })]);
    expect(counts[0] + counts[1]).toBe(4_000);
    expect(await rows()).toEqual({});
  });
});

describe('work after the commit', () => {
  it('runs once the event is applied and committed (others see what it wrote), in order; not when it rolls back', async () => {
    const seen: string[] = [];
    const envelope = testEnvelope('identity.user.deleted', { userId: randomUUID(), deletedAt: new Date().toISOString() });
    await applyOnce(db.sql, 'after-commit', envelope, async (tx) => {
      afterCommit(tx, async () => {
        // another connection sees the inbox row: committed before
        const [row] = await db.sql`select count(*)::int as n from inbox where consumer = 'after-commit' and event_id = ${envelope.id}`;
        seen.push(`first ${row!.n}`);
      });
      afterCommit(tx, () => void seen.push('second'));
    });
    expect(seen).toEqual(['first 1', 'second']);

    const failing = testEnvelope('identity.user.deleted', { userId: randomUUID(), deletedAt: new Date().toISOString() });
    const batch = applyBatchOnce(db.sql, 'after-commit', [failing], async (tx) => {
      afterCommit(tx, () => void seen.push('rolled back'));
      throw new Error('the handler failed');
    });
    await expect(batch).rejects.toThrow('the handler failed');
    expect(seen).toEqual(['first 1', 'second']);
    // a transaction that is not an inbox's (a rebuild, a test's own): nothing is run
    await db.sql.begin(async (tx) => afterCommit(tx, () => void seen.push('elsewhere')));
    expect(seen).toEqual(['first 1', 'second']);
  });
});

describe('a batch with an order key', () => {
  /**
   * Two consumers' batches at once, each with an event of users A and B, the first in the
   * order A, B and the second B, A; each handler locks her row, and the first of each batch
   * waits (up to 300 ms) until the other batch has locked its first.
   */
  async function twoBatches(orderKey?: OrderKey) {
    await db.sql`create table if not exists her_rows (user_id text primary key, n int not null default 0)`;
    const [a, b] = ['user-a-' + randomUUID(), 'user-b-' + randomUUID()];
    await db.sql`insert into her_rows (user_id) values (${a}), (${b})`;
    let arrived = 0;
    const firsts = new Set<string>();
    const handle = async (tx: Tx, envelope: EventEnvelope) => {
      await tx`update her_rows set n = n + 1 where user_id = ${(envelope.data as { userId: string }).userId}`;
      if (firsts.has(envelope.id)) {
        arrived += 1;
        const until = Date.now() + 300;
        while (arrived < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const event = (userId: string, first: boolean) => {
      const envelope = testEnvelope('journal.entry.written', {
        entryId: randomUUID(),
        userId,
        date: '2026-01-05',
        writtenAt: '2026-01-05T07:00:00.000Z',
      }) as EventEnvelope;
      if (first) firsts.add(envelope.id);
      return envelope;
    };
    const results = await Promise.allSettled([
      applyBatchOnce(db.sql, `journal-${randomUUID().slice(0, 8)}`, [event(a, true), event(b, false)], handle, orderKey),
      applyBatchOnce(db.sql, `nights-${randomUUID().slice(0, 8)}`, [event(b, true), event(a, false)], handle, orderKey),
    ]);
    return results.map((result) => (result.status === 'fulfilled' ? 'applied' : (result.reason as { code?: string }).code));
  }

  it("takes the users' rows in one order: two batches never wait for each other in a circle", async () => {
    expect(await twoBatches((envelope) => (envelope.data as { userId: string }).userId)).toEqual(['applied', 'applied']);
  });

  it('without one, applies them as they came (and those two deadlock: PostgreSQL fails one)', async () => {
    expect((await twoBatches()).sort()).toEqual(['40P01', 'applied']);
  });
});
