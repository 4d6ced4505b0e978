import { randomUUID } from 'node:crypto';
import {
  SLEEP_LOG_PAGE_MAX,
  SleepLog,
  SleepLogDateParams,
  SleepLogIdParams,
  SleepLogInput,
  SleepLogUpdate,
  SleepLogList,
  toSleepLogValues,
} from '@sleepweave/contracts';
import {
  cursorParam,
  decodeCursor,
  limitParam,
  NEXT_CURSOR_HEADER,
  notFound,
  readAfterWrite,
  requestMetadata,
  requireUser,
  type ServiceApp,
} from '@sleepweave/service-kit';
import { z } from 'zod';
import type { StudyContext } from '../context.ts';
import { toSleepLog } from './columns.ts';
import { recordSleepLog, reviseSleepLog, SLEEP_LOG_NOT_FOUND } from './commands.ts';
import { findSleepLogByDate, findSleepLogById, listSleepLogs, SLEEP_LOG_PAGE_DEFAULT, SleepLogCursor } from './queries.ts';

/** Optional keyset paging (docs/architecture.md, Paging): 100 nights a page by default, 366 at most. */
const SleepLogsQuery = z.object({ limit: limitParam(SLEEP_LOG_PAGE_DEFAULT, SLEEP_LOG_PAGE_MAX), cursor: cursorParam() });

export async function sleepLogRoutes(app: ServiceApp, ctx: StudyContext): Promise<void> {
  app.get('/api/sleep/logs', { schema: { querystring: SleepLogsQuery, response: { 200: SleepLogList } } }, async (request, reply) => {
    const { sub } = requireUser(request);
    const { limit, cursor } = request.query;
    const page = await listSleepLogs(ctx.sql, sub, {
      limit,
      cursor: cursor === undefined ? undefined : decodeCursor(cursor, SleepLogCursor),
    });
    if (page.next) void reply.header(NEXT_CURSOR_HEADER, page.next);
    return page.items.map(toSleepLog);
  });

  app.get('/api/sleep/log/:date', { schema: { params: SleepLogDateParams, response: { 200: SleepLog } } }, async (request) => {
    const { sub } = requireUser(request);
    const row = await findSleepLogByDate(ctx.sql, sub, request.params.date);
    if (!row) throw notFound('No sleep log for this date.');
    return toSleepLog(row);
  });

  app.post('/api/sleep/log', { schema: { body: SleepLogInput, response: { 201: SleepLog } } }, async (request, reply) => {
    const { sub: userId } = requireUser(request);
    const { date, ...fields } = request.body;
    await recordSleepLog(
      ctx,
      { logId: randomUUID(), userId, date, values: toSleepLogValues(fields), now: new Date() },
      requestMetadata(request),
    );
    return reply.status(201).send(toSleepLog(await readAfterWrite(ctx.sql, userId, await findSleepLogByDate(ctx.sql, userId, date))));
  });

  /** Anyone else's log id answers 404. */
  app.put(
    '/api/sleep/log/:id',
    { schema: { params: SleepLogIdParams, body: SleepLogUpdate, response: { 200: SleepLog } } },
    async (request) => {
      const { sub: userId } = requireUser(request);
      const existing = await findSleepLogById(ctx.sql, userId, request.params.id);
      if (!existing) throw notFound(SLEEP_LOG_NOT_FOUND);
      const { date, expectedUpdatedAt, ...fields } = request.body;
      const input = { logId: existing.id, userId, loggedDate: existing.date, date, values: toSleepLogValues(fields), expectedUpdatedAt };
      await reviseSleepLog(ctx, input, requestMetadata(request));
      return toSleepLog(await readAfterWrite(ctx.sql, userId, await findSleepLogById(ctx.sql, userId, existing.id)));
    },
  );
}
