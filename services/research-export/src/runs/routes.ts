import { ResearchRun, ResearchRunList, ResearchRunStarted, ResearchSchedule, Uuid } from '@sleepweave/contracts';
import {
  cursorParam,
  decodeCursor,
  limitParam,
  NEXT_CURSOR_HEADER,
  notFound,
  requestMetadata,
  requireAdmin,
  type ServiceApp,
} from '@sleepweave/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ResearchExportContext } from '../context.ts';
import type { DownloadedRun } from '../admin/audit.ts';
import { AUDITED_READ_HAS_NO_HEAD, recordExport } from '../admin/commands.ts';
import { requestRun } from './commands.ts';
import { findRun, listRuns, RunCursor, RUNS_LIMIT, runFile } from './queries.ts';

const RunParams = z.object({ id: z.string() });
/** Keyset paging (docs/architecture.md "Paging"): without it, the newest 100 as before. */
const RunsQuery = z.object({ limit: limitParam(RUNS_LIMIT, RUNS_LIMIT), cursor: cursorParam() });
const isUuid = (value: string) => Uuid.safeParse(value).success;
const RUN_NOT_FOUND = 'No such research run.';
const fileNotKept = (kept: number) =>
  `This run has no file to download: it has not finished, or its zip is no longer kept (the last ${kept} are).`;
/** No finished run has its zip: none has finished, or each one's was removed (a participant in it deleted her account) or not kept. */
export const NO_LATEST_FILE =
  'No research run has a zip to download: none has finished yet, or the zips of those that did were removed or are no longer kept. Start a run with Run now.';
export const FILE_REMOVED = "This run's zip was removed: a participant who may be in it deleted her account, and nothing of hers is kept.";

/** Sends a zip as a download under its name. */
export function sendZip(reply: FastifyReply, fileName: string, content: Buffer) {
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('content-length', content.length)
    .send(content);
}

/** Admin routes of the research runs (the role is checked here and in the gateway). */
export async function runRoutes(app: ServiceApp, ctx: ResearchExportContext): Promise<void> {
  app.post('/api/admin/research/runs', { schema: { response: { 202: ResearchRunStarted } } }, async (request, reply) => {
    const admin = requireAdmin(request);
    const id = await requestRun(ctx, { requestedBy: admin.sub, now: new Date() }, requestMetadata(request));
    ctx.wakeRunWorker();
    return reply.status(202).send({ id });
  });

  app.get(
    '/api/admin/research/runs',
    { schema: { querystring: RunsQuery, response: { 200: ResearchRunList } } },
    async (request, reply) => {
      requireAdmin(request);
      const { limit, cursor } = request.query;
      const page = await listRuns(ctx.sql, { limit, cursor: cursor === undefined ? undefined : decodeCursor(cursor, RunCursor) });
      if (page.next) void reply.header(NEXT_CURSOR_HEADER, page.next);
      return page.items;
    },
  );

  /** When the nightly run starts, for the screen to say (null: off, on demand only). */
  app.get('/api/admin/research/schedule', { schema: { response: { 200: ResearchSchedule } } }, async (request) => {
    requireAdmin(request);
    const time = ctx.config.RESEARCH_EXPORT_TIME;
    return { nightly: time === 'off' ? null : { time, timeZone: ctx.config.RESEARCH_EXPORT_TIMEZONE } };
  });

  app.get('/api/admin/research/runs/:id', { schema: { params: RunParams, response: { 200: ResearchRun } } }, async (request) => {
    requireAdmin(request);
    const run = isUuid(request.params.id) ? await findRun(ctx.sql, request.params.id) : null;
    if (!run) throw notFound(RUN_NOT_FOUND);
    return run;
  });

  // Everyone's nights (under research ids): in the audit trail, as the sleep CSV, before it is sent.
  const recordDownload = (request: FastifyRequest, actorId: string, run: DownloadedRun) =>
    recordExport(ctx, { actorId, action: 'research_downloaded', run, now: new Date() }, requestMetadata(request));

  app.get(
    '/api/admin/research/runs/:id/download',
    { schema: { params: RunParams }, exposeHeadRoute: AUDITED_READ_HAS_NO_HEAD },
    async (request, reply) => {
      const admin = requireAdmin(request);
      const file = isUuid(request.params.id) ? await runFile(ctx.sql, request.params.id) : null;
      if (!file) {
        const run = isUuid(request.params.id) ? await findRun(ctx.sql, request.params.id) : null;
        throw notFound(!run ? RUN_NOT_FOUND : run.fileRemoved ? FILE_REMOVED : fileNotKept(ctx.config.RESEARCH_RUNS_KEPT));
      }
      await recordDownload(request, admin.sub, file.run);
      return sendZip(reply, file.run.fileName, file.content);
    },
  );

  app.get('/api/admin/research/latest/download', { exposeHeadRoute: AUDITED_READ_HAS_NO_HEAD }, async (request, reply) => {
    const admin = requireAdmin(request);
    const file = await runFile(ctx.sql, 'latest');
    if (!file) throw notFound(NO_LATEST_FILE);
    await recordDownload(request, admin.sub, file.run);
    return sendZip(reply, file.run.fileName, file.content);
  });
}
