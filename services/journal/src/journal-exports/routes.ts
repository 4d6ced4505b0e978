import { PassThrough } from 'node:stream';
import { calendarDateIn, journalExportFileName, JournalExportQuery, NO_JOURNAL_ENTRIES_MESSAGE } from '@sleepweave/contracts';
import {
  awaitDirectoryUser,
  badRequest,
  notFound,
  personalExportRoute,
  readAfterWrite,
  requireUser,
  type ServiceApp,
} from '@sleepweave/service-kit';
import type { JournalContext } from '../context.ts';
import type { JournalEntry } from '@sleepweave/contracts';
import { markdownEntry, markdownHeader, type JournalHeader } from './business-logic.ts';
import { findAuthor, journalSpan, readEntries } from './queries.ts';

/** Resolves when the stream can take more, or is gone (at once when it is gone already: no event would come). */
function drainedOrClosed(stream: PassThrough): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
}

const CONTENT_TYPES = { pdf: 'application/pdf', md: 'text/markdown; charset=utf-8' } as const;

/**
 * Writes her journal as Markdown into `out`, waiting for a slow reader rather than piling it
 * up in memory, and stopping when she went away (leaving the loop closes the cursor: a
 * download cancelled while a page of entries was read used to wait for ever, its
 * connection held).
 */
export async function writeMarkdown(out: PassThrough, header: JournalHeader, entries: AsyncIterable<JournalEntry>, timeZone: string) {
  out.write(markdownHeader(header));
  let day: string | null = null;
  for await (const entry of entries) {
    if (out.destroyed) return;
    const chunk = `\n${markdownEntry(entry, timeZone, entry.date !== day)}`;
    day = entry.date;
    if (!out.write(chunk)) await drainedOrClosed(out);
    if (out.destroyed) return;
  }
  out.end();
}

export async function journalExportRoutes(app: ServiceApp, ctx: JournalContext): Promise<void> {
  /**
   * Her whole journal, oldest first, as a PDF or as Markdown (docs/personal-exports.md).
   * 400 for another format; 404 with a sentence when she has written nothing yet.
   */
  app.get('/api/journal/export', personalExportRoute(ctx.config.PERSONAL_EXPORTS_PER_10_MINUTES), async (request, reply) => {
    const { sub: userId } = requireUser(request);
    const parsed = JournalExportQuery.safeParse(request.query);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid export request.');
    const { format } = parsed.data;
    const span = await journalSpan(ctx.sql, userId);
    if (span.entries === 0 || !span.first || !span.last) throw notFound(NO_JOURNAL_ENTRIES_MESSAGE);
    await awaitDirectoryUser(ctx.sql, userId);
    const author = await readAfterWrite(ctx.sql, userId, await findAuthor(ctx.sql, userId));
    const today = calendarDateIn(author.timezone, new Date());
    const header: JournalHeader = { name: author.name, entries: span.entries, first: span.first, last: span.last, exportedOn: today };
    const entries = readEntries(ctx.sql, userId);
    const fail = (stream: NodeJS.ReadableStream & { destroy(err?: Error): void }) => (err: unknown) => {
      request.log.error({ err }, 'journal export failed while writing');
      stream.destroy(err instanceof Error ? err : new Error(String(err)));
    };

    let stream;
    if (format === 'pdf') {
      const { startJournalPdf } = await import('./pdf.ts'); // pdfkit loads with the first PDF
      const { report, write } = startJournalPdf(header, author.timezone, entries);
      void write().catch(fail(report.doc));
      stream = report.doc;
    } else {
      const out = new PassThrough();
      writeMarkdown(out, header, entries, author.timezone).catch(fail(out));
      stream = out;
    }
    return reply
      .header('content-type', CONTENT_TYPES[format])
      .header('content-disposition', `attachment; filename="${journalExportFileName(format, today)}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  });
}
