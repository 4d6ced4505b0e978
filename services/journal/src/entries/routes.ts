import { randomUUID } from 'node:crypto';
import { JournalEntry, JournalEntryList, JournalEntryRequest } from '@sleepweave/contracts';
import { requestMetadata, requireUser, type ServiceApp } from '@sleepweave/service-kit';
import type { JournalContext } from '../context.ts';
import { writeJournalEntry } from './commands.ts';
import { findEntry, listEntriesOf } from './queries.ts';

export async function entryRoutes(app: ServiceApp, ctx: JournalContext): Promise<void> {
  app.post('/api/journal/entry', { schema: { body: JournalEntryRequest, response: { 201: JournalEntry } } }, async (request, reply) => {
    const userId = requireUser(request).sub;
    const entryId = randomUUID();
    await writeJournalEntry(ctx, { entryId, userId, reflections: request.body, now: new Date() }, requestMetadata(request));
    return reply.status(201).send((await findEntry(ctx.sql, userId, entryId))!);
  });

  app.get('/api/journal/entries', { schema: { response: { 200: JournalEntryList } } }, async (request) => {
    return listEntriesOf(ctx.sql, requireUser(request).sub);
  });
}
