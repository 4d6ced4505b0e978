/**
 * A service of one write (POST /notes) for the runtime's own tests: a decider, a
 * projection into `notes`, and a relay that publishes each note (as a role grant: any
 * contract will do).
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createEventStore, defineProjection, toEnvelope, type Decider, type DomainEvent } from '@sleepweave/event-store';
import { z } from 'zod';
import { requestMetadata, runCommand } from '../src/commands.ts';
import type { ServiceConfig, ServiceDefinition } from '../src/runtime.ts';
import type { TestService } from '../src/testing.ts';

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

export type Ctx = { sql: TestService<ServiceConfig, unknown>['deps']['sql']; store: ReturnType<typeof createEventStore> };
export const notesService: ServiceDefinition<ServiceConfig, Ctx> = {
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
