import { randomBytes } from 'node:crypto';
import type { EventStore, Tx } from '@sleepweave/event-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLOCK_RETRIES, execute } from './commands.ts';
import { connectDatabase, dropDatabase, ensureDatabase, type Sql } from './database.ts';

const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const database = `sw_test_commands_${randomBytes(4).toString('hex')}`;
let sql: Sql;
let ctx: { sql: Sql; store: EventStore };

beforeAll(async () => {
  await ensureDatabase(SERVER, database);
  sql = connectDatabase(SERVER, database, { max: 4 });
  // execute needs only the store's transaction here: the work locks rows, it decides nothing
  ctx = {
    sql,
    store: { transaction: (fn: (tx: Tx) => Promise<unknown>) => sql.begin((tx) => fn(tx as unknown as Tx)) } as unknown as EventStore,
  };
});
afterAll(async () => {
  await sql?.end();
  await dropDatabase(SERVER, database);
});

/** Two commands that take the same two locks in opposite orders, each waiting until the other holds its first. */
function crossedCommands() {
  const runs = { first: 0, second: 0 };
  let holding = 0;
  let bothHold!: () => void;
  const both = new Promise<void>((resolve) => (bothHold = resolve));
  const command = (name: 'first' | 'second', locks: [number, number]) =>
    execute(ctx, { metadata: { correlationId: null } }, async ({ tx }) => {
      runs[name] += 1;
      await tx`select pg_advisory_xact_lock(7001, ${locks[0]})`;
      if (runs[name] === 1) {
        if (++holding === 2) bothHold();
        await both;
      }
      await tx`select pg_advisory_xact_lock(7001, ${locks[1]})`;
      return name;
    });
  return { runs, results: Promise.allSettled([command('first', [1, 2]), command('second', [2, 1])]) };
}

describe('execute', () => {
  it('runs a command again that PostgreSQL failed to break a deadlock: both commands succeed', async () => {
    const { runs, results } = crossedCommands();
    expect((await results).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    // one of them lost the deadlock once and ran again
    expect(runs.first + runs.second).toBe(3);
  });

  it('gives up after its retries: a deadlock every time stays an error', async () => {
    let runs = 0;
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const failing = execute(
      {
        sql,
        store: {
          transaction: async () => {
            runs += 1;
            throw deadlock;
          },
        } as unknown as EventStore,
      },
      { metadata: { correlationId: null } },
      async () => 'never',
    );
    await expect(failing).rejects.toBe(deadlock);
    expect(runs).toBe(1 + DEADLOCK_RETRIES);
  });
});
