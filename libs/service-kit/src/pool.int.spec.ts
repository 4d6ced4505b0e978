/**
 * A service's pool stays within its budget (DB_POOL_MAX) under a burst of writes, and an
 * idle pool gives its connections back (DB_IDLE_TIMEOUT_SECONDS), while the relay keeps
 * its LISTEN connection: two instances of every service fit under max_connections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notesService, type Ctx } from '../test/notes-service.ts';
import { BaseConfig, loadConfig } from './config.ts';
import { connectDatabase, type Sql } from './database.ts';
import { databaseName, type ServiceConfig } from './runtime.ts';
import { startTestService, testEnv, type TestService } from './testing.ts';

let service: TestService<ServiceConfig, Ctx>;
let database: string;
/** Watches from outside the service: a connection of its own, to another database. */
let observer: Sql;

beforeAll(async () => {
  const config = loadConfig(
    BaseConfig.extend({ PORT: z.coerce.number().default(0) }),
    testEnv({ DB_POOL_MAX: '3', DB_IDLE_TIMEOUT_SECONDS: '1' }),
  );
  service = await startTestService(notesService, config);
  database = databaseName(config, notesService.name);
  observer = connectDatabase(config.DATABASE_URL, 'postgres', { max: 1 });
});
afterAll(async () => {
  await observer?.end();
  await service?.cleanup();
});

/** Connections to the service's database. */
async function connections(): Promise<number> {
  const [row] = await observer<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = ${database}`;
  return row!.n;
}

describe("a service's database pool", () => {
  it('opens at most DB_POOL_MAX connections under a burst, and closes them once idle; the relay keeps its own', async () => {
    const writes = Array.from({ length: 40 }, (_, i) =>
      service.app.inject({ method: 'POST', url: '/notes', payload: { body: `note ${i}` } }),
    );
    let most = 0;
    const watching = (async () => {
      for (let i = 0; i < 20; i++) {
        most = Math.max(most, await connections());
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    for (const response of await Promise.all(writes)) expect(response.statusCode).toBe(201);
    await watching;
    // the pool (3) and the relay's LISTEN connection
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(3 + 1);
    await expect.poll(connections, { timeout: 5_000, interval: 200 }).toBe(1);
  });
});
