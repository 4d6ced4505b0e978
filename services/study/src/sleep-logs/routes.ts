import { randomUUID } from 'node:crypto';
import { SleepLog, SleepLogDateParams, SleepLogIdParams, SleepLogInput, SleepLogList, toSleepLogValues } from '@sleepweave/contracts';
import { isConcurrencyError } from '@sleepweave/event-store';
import {
  awaitDirectoryUser,
  badRequest,
  conflict,
  HttpError,
  lockDirectoryUser,
  notFound,
  requireUser,
  type ServiceApp,
} from '@sleepweave/service-kit';
import { findConsent } from '../consents/queries.ts';
import type { StudyContext } from '../context.ts';
import { ConsentRequired, InvalidSleepLogDate, SleepLogAlreadyRecorded, SleepLogNotFound, sleepLogDecider } from './business-logic.ts';
import { toSleepLog } from './columns.ts';
import { findSleepLogByDate, findSleepLogById, listSleepLogs } from './queries.ts';
import { sleepLogStreamId } from './sleep-log.ts';

const ALREADY_EXISTS = 'A sleep log for this date already exists.';
const NOT_FOUND = 'Sleep log not found.';

function toHttpError(err: unknown): unknown {
  if (err instanceof SleepLogAlreadyRecorded) return conflict(ALREADY_EXISTS);
  if (err instanceof SleepLogNotFound) return notFound(NOT_FOUND);
  if (err instanceof InvalidSleepLogDate) return badRequest(`date: ${err.message}`);
  if (err instanceof ConsentRequired) return new HttpError(403, 'consent_required', err.message);
  return err;
}

export async function sleepLogRoutes(app: ServiceApp, ctx: StudyContext): Promise<void> {
  app.get('/api/sleep/logs', { schema: { response: { 200: SleepLogList } } }, async (request) => {
    const { sub } = requireUser(request);
    return (await listSleepLogs(ctx.sql, sub)).map(toSleepLog);
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
    await awaitDirectoryUser(ctx.sql, userId);
    try {
      await ctx.store.transaction(async (tx) => {
        // Her directory row stays until we commit: a deletion in flight waits for us (and
        // removes this night) or we wait for it and answer 401 (libs/service-kit user-directory.ts).
        const { timezone } = await lockDirectoryUser(tx, userId);
        const consent = await findConsent(tx, userId);
        await ctx.store.handle(
          sleepLogStreamId(userId, date),
          sleepLogDecider,
          {
            type: 'RecordSleepLog',
            data: {
              logId: randomUUID(),
              userId,
              date,
              values: toSleepLogValues(fields),
              studyStartDate: consent?.study_start_date ?? null,
              timezone,
              now: new Date(),
            },
          },
          { tx, metadata: { correlationId: request.correlationId, userId } },
        );
      });
    } catch (err) {
      // Another create for the same night committed first.
      if (isConcurrencyError(err)) throw conflict(ALREADY_EXISTS);
      throw toHttpError(err);
    }
    const row = await findSleepLogByDate(ctx.sql, userId, date);
    return reply.status(201).send(toSleepLog(row!));
  });

  /** Replaces the fields of one of her nights. Anyone else's log id answers 404. */
  app.put(
    '/api/sleep/log/:id',
    { schema: { params: SleepLogIdParams, body: SleepLogInput, response: { 200: SleepLog } } },
    async (request) => {
      const { sub: userId } = requireUser(request);
      const existing = await findSleepLogById(ctx.sql, userId, request.params.id);
      if (!existing) throw notFound(NOT_FOUND);
      const { date, ...fields } = request.body;
      const command = {
        type: 'ReviseSleepLog' as const,
        data: { logId: existing.id, userId, date, values: toSleepLogValues(fields), now: new Date() },
      };
      // Two saves of the same night at once: the later one is applied on top (whole-night replace).
      for (let attempt = 1; ; attempt++) {
        try {
          await ctx.store.transaction(async (tx) => {
            await lockDirectoryUser(tx, userId); // as for a new night
            await ctx.store.handle(sleepLogStreamId(userId, existing.date), sleepLogDecider, command, {
              tx,
              metadata: { correlationId: request.correlationId, userId },
            });
          });
          break;
        } catch (err) {
          if (isConcurrencyError(err) && attempt < 3) continue;
          throw toHttpError(err);
        }
      }
      return toSleepLog((await findSleepLogById(ctx.sql, userId, existing.id))!);
    },
  );
}
