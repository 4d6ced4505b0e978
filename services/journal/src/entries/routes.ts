import { JournalEntry, JournalEntryList, JournalEntryRequest } from '@sleepweave/contracts';
import {
  createdId,
  cursorParam,
  decodeCursor,
  keyReused,
  limitParam,
  NEXT_CURSOR_HEADER,
  perUserLimit,
  readAfterWrite,
  requestMetadata,
  requireUser,
  type ServiceApp,
} from '@sleepweave/service-kit';
import { isConcurrencyError } from '@sleepweave/event-store';
import { z } from 'zod';
import type { JournalContext } from '../context.ts';
import { writeJournalEntry } from './commands.ts';
import { findEntry, JOURNAL_LIST_LIMIT, JournalCursor, listEntriesOf } from './queries.ts';

/** Optional keyset paging (docs/architecture.md, Paging): 365 a page by default and at most. */
const EntriesQuery = z.object({ limit: limitParam(JOURNAL_LIST_LIMIT, JOURNAL_LIST_LIMIT), cursor: cursorParam() });

export const journalEntryLimitMessage = (max: number) => `You can save up to ${max} journal entries an hour. Please try again later.`;

export async function entryRoutes(app: ServiceApp, ctx: JournalContext): Promise<void> {
  const { JOURNAL_ENTRY_LIMIT_PER_HOUR: perHour } = ctx.config;
  app.post(
    '/api/journal/entry',
    {
      schema: { body: JournalEntryRequest, response: { 201: JournalEntry } },
      config: perUserLimit(perHour, '1 hour', journalEntryLimitMessage(perHour)),
    },
    async (request, reply) => {
      const userId = requireUser(request).sub;
      const entryId = createdId(request, 'journal_entry', userId);
      try {
        await writeJournalEntry(ctx, { entryId, userId, reflections: request.body, now: new Date() }, requestMetadata(request));
      } catch (err) {
        // sent again with its Idempotency-Key: the entry the first try wrote, if it is this one
        if (!isConcurrencyError(err)) throw err;
        const written = await findEntry(ctx.sql, userId, entryId);
        if (!written) throw err;
        const { affirmation, gratitude, forgiveness } = request.body;
        if (written.affirmation !== affirmation || written.gratitude !== gratitude || written.forgiveness !== forgiveness)
          throw keyReused();
        return reply.status(201).send(written);
      }
      return reply.status(201).send(await readAfterWrite(ctx.sql, userId, await findEntry(ctx.sql, userId, entryId)));
    },
  );

  app.get(
    '/api/journal/entries',
    { schema: { querystring: EntriesQuery, response: { 200: JournalEntryList } } },
    async (request, reply) => {
      const { limit, cursor } = request.query;
      const page = await listEntriesOf(ctx.sql, requireUser(request).sub, {
        limit,
        cursor: cursor === undefined ? undefined : decodeCursor(cursor, JournalCursor),
      });
      if (page.next) void reply.header(NEXT_CURSOR_HEADER, page.next);
      return page.items;
    },
  );
}
