import { PassThrough, type Readable } from 'node:stream';
import { sleepExportFileName, type SleepExportQuery } from '@sleepweave/contracts';
import type { Sql } from '@sleepweave/service-kit';
import type { Logger } from 'pino';
import { NightsDigest } from './business-logic.ts';
import { drawCharts } from './charts.ts';
import { readNights, type ExportSubject } from './queries.ts';
import { startReport } from './report.ts';
import { writeWorkbook } from './workbook.ts';

export const CONTENT_TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
} as const;

export interface SleepExport {
  fileName: string;
  contentType: string;
  /** The file as it is written; it ends when the file is complete (or is destroyed with the error). */
  stream: Readable;
  /** Settles when writing is over. */
  done: Promise<void>;
}

/**
 * Starts writing her export of `query` (the caller checked that the range has nights):
 * the stream is readable at once and the file is written into it as nights come from the
 * database. An error while writing destroys the stream (the download fails; nothing
 * half-written is passed off as complete) and is logged.
 */
export async function startSleepExport(
  sql: Sql,
  subject: ExportSubject,
  query: SleepExportQuery,
  options: { now: Date; logger: Logger },
): Promise<SleepExport> {
  const { startDate, endDate } = query;
  const nights = () => readNights(sql, subject.userId, startDate, endDate);
  const fileName = sleepExportFileName(query);
  const fail = (stream: Readable) => (err: unknown) => {
    options.logger.error({ err }, 'sleep export failed while writing');
    stream.destroy(err instanceof Error ? err : new Error(String(err)));
  };

  if (query.format === 'xlsx') {
    const stream = new PassThrough();
    const done = writeWorkbook(stream, {
      subject,
      startDate,
      endDate,
      nights: nights(),
      charts: (digest) => drawCharts(subject, startDate, endDate, digest),
      now: options.now,
    }).then(() => undefined, fail(stream));
    return { fileName, contentType: CONTENT_TYPES.xlsx, stream, done };
  }

  // The PDF shows the numbers and charts before the nights: a first pass digests them.
  const digest = new NightsDigest();
  for await (const log of nights()) digest.add(log);
  const charts = drawCharts(subject, startDate, endDate, digest);
  const { report, write } = startReport({ subject, startDate, endDate, digest, charts, nights, now: options.now });
  const done = write().then(() => undefined, fail(report.doc));
  return { fileName, contentType: CONTENT_TYPES.pdf, stream: report.doc, done };
}
