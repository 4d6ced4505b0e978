/**
 * /health tells the truth: 200 only while the database answers, NATS is connected, every
 * consumer follows the bus and no event has waited too long for the relay; else a 503
 * "degraded" that names what is wrong.
 */
import type { HistoryPage, HistorySource } from '@sleepweave/event-store';
import { emptyHistory } from '@sleepweave/event-store';
import { startNatsServer, type NatsServer } from '@sleepweave/test-servers';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notesService } from '../test/notes-service.ts';
import { BaseConfig, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { RELAY_BEHIND_AFTER_MS, type ServiceConfig, type ServiceDefinition } from './runtime.ts';
import { startTestService, testEnv, type TestService } from './testing.ts';

const Config = BaseConfig.extend({ PORT: z.coerce.number().default(0) });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const running: TestService<ServiceConfig, any>[] = [];
let nats: NatsServer | undefined;

afterEach(async () => {
  for (const service of running.splice(0)) await service.cleanup().catch(() => undefined);
});
afterAll(async () => {
  await nats?.destroy();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function start(definition: ServiceDefinition<ServiceConfig, any>, env: NodeJS.ProcessEnv = {}, options = {}) {
  const service = await startTestService(definition, loadConfig(Config, testEnv(env)), options);
  running.push(service);
  return service;
}

async function health(service: TestService<ServiceConfig, unknown>) {
  const response = await service.app.inject({ method: 'GET', url: '/health' });
  return { status: response.statusCode, body: response.json() as { status: string; checks: Record<string, string>; relay?: string } };
}

/** A directory-keeping service: its consumers catch up with identity's history, then follow. */
const directoryService: ServiceDefinition<ServiceConfig, null> = {
  name: 'health-test',
  migrationsDir: notesService.migrationsDir,
  streams: ['IDENTITY'],
  context: async () => null,
  projections: [],
  routes: async () => {},
  userDirectory: true,
};

describe('/health', () => {
  it('is ok when everything is', async () => {
    const service = await start(notesService);
    await expect
      .poll(async () => (await health(service)).body)
      .toEqual({
        status: 'ok',
        service: 'restart-test',
        checks: { postgres: 'ok', nats: 'ok', relay: 'ok' },
        relay: 'active', // the only instance publishes
      });
  });

  it('is not logged when it answers (it is polled every few seconds), while other requests are', async () => {
    // Only the request log is looked at: the relay and the consumers log on their own time
    // (CI once caught "relay is the active publisher" between the two lines below).
    const lines: { msg: string; reqId?: string }[] = [];
    const logger = createLogger('restart-test', 'info', 'json', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const requestLines = () => lines.filter((line) => line.reqId !== undefined).map((line) => line.msg);
    const service = await start(notesService, {}, { logger });
    await expect.poll(async () => (await health(service)).status).toBe(200);
    lines.length = 0;
    await health(service);
    expect(requestLines()).toEqual([]);
    await service.app.inject({ method: 'GET', url: '/no-such-route' });
    expect(requestLines()).toEqual(['incoming request', 'request completed']);
  });

  it('is degraded while the next event to publish has waited too long (the relay is behind)', async () => {
    const service = await start(notesService, {}, { background: false }); // no relay runs
    expect((await service.app.inject({ method: 'POST', url: '/notes', payload: { body: 'a night' } })).statusCode).toBe(201);
    expect((await health(service)).body.checks.relay).toBe('ok'); // just written: not behind yet
    await service.deps.sql`update events set created_at = now() - ${RELAY_BEHIND_AFTER_MS + 1_000} * interval '1 millisecond'`;
    expect(await health(service)).toMatchObject({ status: 503, body: { status: 'degraded', checks: { relay: 'behind' } } });
  });

  it('is degraded while a consumer has not caught up with its producer', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const stalled = (stream: Parameters<typeof emptyHistory>[0]): HistorySource => {
      const empty = emptyHistory(stream);
      return { name: empty.name, page: async (...args): Promise<HistoryPage> => (await released, empty.page(...args)) };
    };
    const lines: string[] = [];
    const logger = createLogger('health-test', 'info', 'json', { write: (line: string) => void lines.push(line) });
    const service = await start(directoryService, {}, { history: stalled, logger });
    lines.length = 0;
    expect(await health(service)).toMatchObject({
      status: 503,
      body: { checks: { 'consumer:health-test-identity-users': 'catching_up' } },
    });
    // its answer is not logged (it is polled), but what is wrong is, at each poll
    const said = lines.map((line) => JSON.parse(line) as { msg: string; checks?: Record<string, string> });
    expect(said.filter((line) => line.msg === 'degraded').map((line) => line.checks?.['consumer:health-test-identity-users'])).toEqual([
      'catching_up',
    ]);
    release();
    await expect.poll(async () => (await health(service)).status, { timeout: 10_000 }).toBe(200);
  });

  it('is degraded while NATS is away, and ok again once it is back', async () => {
    nats = await startNatsServer();
    const service = await start(directoryService, { NATS_URL: nats.url });
    await expect.poll(async () => (await health(service)).status, { timeout: 10_000 }).toBe(200);
    await nats.stop();
    await expect
      .poll(async () => (await health(service)).body.checks, { timeout: 10_000 })
      .toMatchObject({ nats: 'down', 'consumer:health-test-identity-users': 'failing' });
    expect((await health(service)).status).toBe(503);
    await nats.start();
    await expect.poll(async () => (await health(service)).status, { timeout: 20_000 }).toBe(200);
  });
});
