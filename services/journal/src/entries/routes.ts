import { randomUUID } from 'node:crypto';
import { JOURNAL_ENTRY_EMPTY_MESSAGE, JournalEntry, JournalEntryList, JournalEntryRequest } from '@sleepweave/contracts';
import { badRequest, lockDirectoryUser, requireUser, type ServiceApp } from '@sleepweave/service-kit';
import type { JournalContext } from '../context.ts';
import { EmptyJournalEntry, journalEntryDecider } from './business-logic.ts';
import { calendarDateIn } from './calendar.ts';
import { journalEntryStreamId } from './journal-entry.ts';
import { findEntry, listEntriesOf } from './queries.ts';

export async function entryRoutes(app: ServiceApp, ctx: JournalContext): Promise<void> {
  app.post('/api/journal/entry', { schema: { body: JournalEntryRequest, response: { 201: JournalEntry } } }, async (request, reply) => {
    const userId = requireUser(request).sub;
    const entryId = randomUUID();
    const now = new Date();
    try {
      const entry = await ctx.store.transaction(async (tx) => {
        // 503 while her registration is on its way, 401 once she is deleted (libs/service-kit user-directory.ts).
        const { timezone } = await lockDirectoryUser(tx, userId);
        await ctx.store.handle(
          journalEntryStreamId(userId, entryId),
          journalEntryDecider,
          { type: 'WriteJournalEntry', data: { entryId, userId, date: calendarDateIn(timezone, now), ...request.body, now } },
          { tx, metadata: { correlationId: request.correlationId, userId } },
        );
        return (await findEntry(tx, userId, entryId))!;
      });
      return reply.status(201).send(entry);
    } catch (err) {
      // The schema refuses blank entries first; the decider's own rule is the backstop.
      if (err instanceof EmptyJournalEntry) throw badRequest(JOURNAL_ENTRY_EMPTY_MESSAGE);
      throw err;
    }
  });

  app.get('/api/journal/entries', { schema: { response: { 200: JournalEntryList } } }, async (request) => {
    return listEntriesOf(ctx.sql, requireUser(request).sub);
  });
}
