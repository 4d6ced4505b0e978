import { randomUUID } from 'node:crypto';
import { JournalEntry, JournalEntryList, JournalEntryRequest } from '@sleepweave/contracts';
import {
  cursorParam,
  decodeCursor,
  limitParam,
  NEXT_CURSOR_HEADER,
  readAfterWrite,
  requestMetadata,
  requireUser,
  type ServiceApp,
} from '@sleepweave/service-kit';
import { z } from 'zod';
import type { JournalContext } from '../context.ts';
import { writeJournalEntry } from './commands.ts';
import { findEntry, JOURNAL_LIST_LIMIT, JournalCursor, listEntriesOf } from './queries.ts';

/** Optional keyset paging (docs/architecture.md, Paging): 365 a page by default and at most. */
const EntriesQuery = z.object({ limit: limitParam(JOURNAL_LIST_LIMIT, JOURNAL_LIST_LIMIT), cursor: cursorParam() });

export async function entryRoutes(app: ServiceApp, ctx: JournalContext): Promise<void> {
  app.post('/api/journal/entry', { schema: { body: JournalEntryRequest, response: { 201: JournalEntry } } }, async (request, reply) => {
    const userId = requireUser(request).sub;
    const entryId = randomUUID();
    await writeJournalEntry(ctx, { entryId, userId, reflections: request.body, now: new Date() }, requestMetadata(request));
    return reply.status(201).send(await readAfterWrite(ctx.sql, userId, await findEntry(ctx.sql, userId, entryId)));
  });

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
