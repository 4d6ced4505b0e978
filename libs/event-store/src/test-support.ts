import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { pino, type Logger } from 'pino';
import type { Sql } from './types.ts';

export { deleteStreamsOfPrefix, randomBusPrefix } from '@sleepweave/bus/testing';

/** Integration-test helpers (not exported from the package entry). */

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

function urlFor(database: string): string {
  const url = new URL(DATABASE_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

export interface TestDatabase {
  name: string;
  url: string;
  sql: Sql;
  /** Closes `sql` and drops the database (WITH (FORCE)). */
  drop(): Promise<void>;
}

/** A fresh, empty database `sw_test_<random>`; call drop() in afterAll. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `sw_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(urlFor('postgres'), { max: 1, onnotice: () => undefined });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = urlFor(name);
  const sql = postgres(url, { max: 10, onnotice: () => undefined });
  return {
    name,
    url,
    sql,
    async drop() {
      await sql.end({ timeout: 5 });
      const admin = postgres(urlFor('postgres'), { max: 1, onnotice: () => undefined });
      try {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}

export function testLogger(): Logger {
  return pino({ level: process.env.LOG_LEVEL ?? 'silent' });
}

/** Polls `check` until it returns true (or throws after `timeoutMs`). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, stepMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

/** A promise with its resolve outside (Node 20 has no Promise.withResolvers): a test holds a transaction open until it lets it go, or waits until one got somewhere. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Resolves once a session of this database waits for a lock (a statement blocked by an open transaction). */
export async function untilWaitingForLock(sql: Sql): Promise<void> {
  await eventually(async () => {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
    return row!.n > 0;
  });
}
