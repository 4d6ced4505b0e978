import { noNightsInRangeMessage, SleepExportQuery } from '@sleepweave/contracts';
import {
  awaitDirectoryUser,
  badRequest,
  notFound,
  personalExportRoute,
  readAfterWrite,
  requireUser,
  type ServiceApp,
} from '@sleepweave/service-kit';
import type { StudyContext } from '../context.ts';
import { countNights, findExportSubject } from './queries.ts';

/** `attachment; filename="a.xlsx"` (our names are plain ASCII: dates, letters and dashes). */
export const attachment = (fileName: string) => `attachment; filename="${fileName}"`;

export async function sleepExportRoutes(app: ServiceApp, ctx: StudyContext): Promise<void> {
  /**
   * Her sleep of a range as an Excel workbook or a PDF report (docs/personal-exports.md).
   * 400 with a sentence for a bad request; 404 with a sentence when the range has no night.
   */
  app.get('/api/sleep/export', personalExportRoute(ctx.config.PERSONAL_EXPORTS_PER_10_MINUTES), async (request, reply) => {
    const { sub: userId } = requireUser(request);
    // Checked here rather than by a route schema, so the answer is the sentence alone.
    const parsed = SleepExportQuery.safeParse(request.query);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid export request.');
    const query = parsed.data;
    if ((await countNights(ctx.sql, userId, query.startDate, query.endDate)) === 0) {
      throw notFound(noNightsInRangeMessage(query.startDate, query.endDate));
    }
    await awaitDirectoryUser(ctx.sql, userId);
    const subject = await readAfterWrite(ctx.sql, userId, await findExportSubject(ctx.sql, userId));
    // exceljs, Chart.js and its canvas, pdfkit: loaded with the first export, not at start
    const { startSleepExport } = await import('./export.ts');
    const file = await startSleepExport(ctx.sql, subject, query, { now: new Date(), logger: request.log });
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', attachment(file.fileName))
      .header('cache-control', 'no-store')
      .send(file.stream);
  });
}
