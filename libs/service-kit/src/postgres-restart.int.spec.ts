/**
 * A PostgreSQL restart under a steady load of writes (its own cluster, its own port): the
 * service does not crash (postgres.js 3.4.9 threw from a setImmediate when a connection
 * closed with a write buffered; patches/postgres+3.4.9.patch), answers a clear 503 while
 * the database is down, serves again when it is back, without a restart, and its relay
 * publishes every acknowledged write.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { EventEnvelope } from '@sleepweave/contracts';
import { defineProjection, toEnvelope, type Decider, type DomainEvent } from '@sleepweave/event-store';
import { createEventStore } from '@sleepweave/event-store';
import { startPostgresServer, type PostgresServer } from '@sleepweave/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { requestMetadata, runCommand } from './commands.ts';
import { BaseConfig, loadConfig } from './config.ts';
import { TEMPORARILY_UNAVAILABLE_MESSAGE } from '@sleepweave/contracts';
import type { ServiceConfig, ServiceDefinition } from './runtime.ts';
import { startTestService, testEnv, type TestService } from './testing.ts';

type NoteWritten = DomainEvent<'NoteWritten', { noteId: string; userId: string; body: string; at: string }>;
const noteDecider: Decider<{ noteId: string; userId: string; body: string; now: Date }, null, NoteWritten> = {
  initialState: () => null,
  evolve: (state) => state,
  decide: ({ noteId, userId, body, now }) => [{ type: 'NoteWritten', data: { noteId, userId, body, at: now.toISOString() } }],
};
const notes = defineProjection<NoteWritten>({
  name: 'notes',
  tables: ['notes'],
  handles: ['NoteWritten'],
  async apply(tx, event) {
    await tx`insert into notes (id, body, created_at) values (${event.data.noteId}, ${event.data.body}, ${event.data.at})`;
  },
});

type Ctx = { sql: TestService<ServiceConfig, unknown>['deps']['sql']; store: ReturnType<typeof createEventStore> };
const notesService: ServiceDefinition<ServiceConfig, Ctx> = {
  name: 'restart-test',
  migrationsDir: fileURLToPath(new URL('../test/restart-migrations', import.meta.url)),
  streams: ['IDENTITY'],
  context: async ({ sql }) => ({ sql, store: createEventStore(sql, { projections: [notes] }) }),
  projections: [notes],
  routes: async (app, ctx) => {
    app.post('/notes', { schema: { body: z.object({ body: z.string() }) } }, async (request, reply) => {
      const noteId = randomUUID();
      const command = { noteId, userId: randomUUID(), body: request.body.body, now: new Date() };
      await runCommand(ctx, `note:${noteId}`, noteDecider, command, { metadata: requestMetadata(request) });
      return reply.status(201).send({ noteId });
    });
  },
  // Any contract will do for the relay: each note becomes a role grant on the bus.
  toIntegration: (event) =>
    event.type === 'NoteWritten'
      ? toEnvelope(event, {
          source: 'identity',
          type: 'identity.user.role_granted',
          data: { userId: (event.data as NoteWritten['data']).userId, role: 'participant', grantedAt: event.createdAt.toISOString() },
        })
      : null,
};

let pg: PostgresServer;
let service: TestService<ServiceConfig, Ctx>;
const uncaught: unknown[] = [];
const onUncaught = (err: unknown) => void uncaught.push(err);

beforeAll(async () => {
  pg = await startPostgresServer();
  process.on('uncaughtException', onUncaught);
  const config = loadConfig(BaseConfig.extend({ PORT: z.coerce.number().default(0) }), testEnv({ DATABASE_URL: pg.url }));
  service = await startTestService(notesService, config);
});
afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await service?.stop().catch(() => undefined);
  await pg?.destroy();
});

describe('a PostgreSQL restart under load', () => {
  it('costs clear 503s while it is down and nothing once it is back', async () => {
    const published = new Set<string>();
    const watch = await service.deps.bus.watch({
      stream: 'IDENTITY',
      types: ['identity.user.role_granted'],
      since: new Date(Date.now() - 1_000),
      handler: (e: EventEnvelope) => void published.add(e.id),
    });
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    const unavailable = new Set<string>();
    let writing = true;
    const load = (async () => {
      while (writing) {
        const response = await service.app.inject({ method: 'POST', url: '/notes', payload: { body: 'a night' } });
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        if (response.statusCode === 201) acknowledged.push(response.json().noteId);
        else if (response.statusCode === 503) unavailable.add(response.json().message);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      await expect.poll(() => acknowledged.length, { timeout: 10_000 }).toBeGreaterThan(20);
      await pg.stop('immediate');
      await expect.poll(() => statuses.get(503) ?? 0, { timeout: 10_000 }).toBeGreaterThan(5);
      const health = await service.app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json().checks.postgres).toBe('down');

      await pg.start();
      const before = acknowledged.length;
      await expect.poll(() => acknowledged.length, { timeout: 30_000 }).toBeGreaterThan(before + 20);
    } finally {
      writing = false;
      await load;
    }
    try {
      expect(uncaught).toEqual([]);
      expect([...statuses.keys()].sort()).toEqual([201, 503]); // never a 500
      expect([...unavailable]).toEqual([TEMPORARILY_UNAVAILABLE_MESSAGE]);
      // every acknowledged write is stored once, and reaches the bus
      const rows = await service.deps.sql<{ id: string }[]>`select id from notes`;
      expect(new Set(rows.map((r) => r.id))).toEqual(new Set(acknowledged));
      await expect.poll(() => published.size, { timeout: 15_000 }).toBe(acknowledged.length);
      expect((await service.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await watch.stop();
    }
  });
});
