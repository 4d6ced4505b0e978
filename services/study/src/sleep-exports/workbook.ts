import type { Writable } from 'node:stream';
import { calendarDateIn, SLEEP_CHART_METRICS, SLEEP_LOG_FIELD_LIST, utcOffsetMs, type SleepLog } from '@sleepweave/contracts';
import ExcelJS from 'exceljs';
import {
  comparePolyesterLinen,
  COMPARISON_NOTE,
  dateRange,
  longDate,
  NightsDigest,
  nightsText,
  PHASE_NAMES,
  SUMMARY_METRICS,
  studyPhaseDates,
  type SummaryMetric,
} from './business-logic.ts';
import type { ExportCharts } from './charts.ts';
import type { ExportSubject } from './queries.ts';

/**
 * The Excel workbook, streamed (exceljs's WorkbookWriter; images in it through our patch,
 * patches/exceljs+4.4.0.patch): each night is written and let go as it comes from the
 * database. Sheets: Nights (every field, typed), Summary (per phase: nights, mean, min,
 * max of each metric; polyester vs linen), Charts (the five charts and her study details).
 */

/** A calendar date as Excel's date (exceljs writes a Date as its UTC day). */
const excelDate = (date: string) => new Date(`${date}T00:00:00Z`);

/** An instant as the wall-clock time in her timezone, for Excel (which has no time zones). */
export function wallClock(instant: Date, timeZone: string): Date {
  return new Date(instant.getTime() + utcOffsetMs(timeZone, instant.getTime()));
}

type Cell = string | number | boolean | Date | null;

/** Every character XML 1.0 allows (its `Char`): not U+FFFE, U+FFFF, a lone surrogate, nor a C0 control but tab, LF and CR. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Her text without what XML cannot hold: one such character in a cell (a comment may hold
 * any, PostgreSQL keeps U+FFFF) makes a file Excel calls damaged, and exceljs drops the C0
 * controls only. Nothing else she typed is changed.
 */
export const xmlText = (text: string) => text.replace(NOT_XML, '');

const xmlCell = (value: Cell): Cell => (typeof value === 'string' ? xmlText(value) : value);

interface NightColumn {
  header: string;
  width: number;
  numFmt?: string;
  wrap?: boolean;
  value: (log: SleepLog, timeZone: string) => Cell;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The Nights sheet's columns: the night, then every field of the log in its order, durations twice. */
export function nightColumns(timeZone: string): NightColumn[] {
  const fields = SLEEP_LOG_FIELD_LIST.flatMap((spec): NightColumn[] => {
    const raw = (log: SleepLog) => log[spec.key] as Cell;
    switch (spec.kind) {
      case 'duration':
        return [
          { header: `${spec.label} (min)`, width: Math.max(12, spec.label.length + 7), numFmt: '0', value: raw },
          {
            header: `${spec.label} (h:mm)`,
            width: Math.max(12, spec.label.length + 8),
            numFmt: '[h]:mm',
            value: (log) => (typeof log[spec.key] === 'number' ? (log[spec.key] as number) / 1440 : null),
          },
        ];
      case 'integer':
        return [
          {
            header: spec.unit ? `${spec.label} (${spec.unit})` : spec.label,
            width: Math.max(10, spec.label.length + 4),
            numFmt: '0',
            value: raw,
          },
        ];
      case 'decimal':
        return [{ header: `${spec.label} (${spec.unit})`, width: Math.max(10, spec.label.length + 6), numFmt: '0.0', value: raw }];
      case 'text':
        return [{ header: spec.label, width: 60, wrap: true, value: raw }];
      default:
        return [{ header: spec.label, width: Math.max(12, spec.label.length + 3), value: raw }];
    }
  });
  return [
    { header: 'Date', width: 12, numFmt: 'yyyy-mm-dd', value: (log) => excelDate(log.date) },
    { header: 'Weekday', width: 9, value: (log) => WEEKDAYS[excelDate(log.date).getUTCDay()]! },
    { header: 'Study day', width: 10, numFmt: '0', value: (log) => log.studyDay },
    { header: 'Phase', width: 17, value: (log) => PHASE_NAMES[log.phase] },
    { header: 'Recommended material', width: 22, value: (log) => log.recommendedMaterial },
    ...fields,
    {
      header: `Logged at (${timeZone})`,
      width: 24,
      numFmt: 'yyyy-mm-dd hh:mm',
      value: (log, tz) => wallClock(new Date(log.createdAt), tz),
    },
    {
      header: `Last changed (${timeZone})`,
      width: 24,
      numFmt: 'yyyy-mm-dd hh:mm',
      value: (log, tz) => wallClock(new Date(log.updatedAt), tz),
    },
  ];
}

const HEADER_FONT: Partial<ExcelJS.Font> = { bold: true, color: { argb: 'FF1F2937' } };
const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFECE9F8' } };
const TITLE_FONT: Partial<ExcelJS.Font> = { bold: true, size: 14, color: { argb: 'FF4C3F91' } };

function styleHeader(row: ExcelJS.Row): void {
  row.font = HEADER_FONT;
  row.fill = HEADER_FILL;
  row.alignment = { vertical: 'middle', wrapText: true };
  row.height = 30;
}

const metricFormat = (metric: SummaryMetric) => (metric.kind === 'decimal' ? '0.0' : '0');
const meanFormat = '0.0';

export interface WorkbookInput {
  subject: ExportSubject;
  startDate: string;
  endDate: string;
  nights: AsyncIterable<SleepLog>;
  /** Draws the five charts once every night has been read. */
  charts: (digest: NightsDigest) => ExportCharts;
  now: Date;
}

/** Writes the workbook to `out`, night by night; answers the digest of what it wrote. */
export async function writeWorkbook(out: Writable, input: WorkbookInput): Promise<NightsDigest> {
  const subject = { ...input.subject, name: xmlText(input.subject.name) };
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Sleepweave';
  workbook.created = input.now;
  workbook.title = `Sleep data of ${subject.name}, ${dateRange(input.startDate, input.endDate)}`;

  // Nights: one row per night, typed cells.
  const columns = nightColumns(subject.timezone);
  const nights = workbook.addWorksheet('Nights', { views: [{ state: 'frozen', ySplit: 1, xSplit: 1 }] });
  nights.columns = columns.map((column, i) => ({
    header: column.header,
    key: String(i),
    width: column.width,
    style: {
      ...(column.numFmt ? { numFmt: column.numFmt } : {}),
      alignment: column.wrap ? { wrapText: true, vertical: 'top' } : { vertical: 'top' },
    },
  }));
  styleHeader(nights.getRow(1));
  nights.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  const digest = new NightsDigest();
  for await (const log of input.nights) {
    // She went away (the download was cancelled): stop, which closes the cursor.
    if (out.destroyed) return digest;
    digest.add(log);
    nights.addRow(columns.map((column) => xmlCell(column.value(log, subject.timezone)))).commit();
  }
  nights.commit();

  // Summary: per phase, every metric's nights, mean, min and max; then polyester vs linen.
  const summary = workbook.addWorksheet('Summary', { views: [{ state: 'frozen', ySplit: 1 }] });
  summary.columns = [
    { header: 'Phase', key: 'phase', width: 18 },
    { header: 'First night', key: 'first', width: 12, style: { numFmt: 'yyyy-mm-dd' } },
    { header: 'Last night', key: 'last', width: 12, style: { numFmt: 'yyyy-mm-dd' } },
    { header: 'Nights logged', key: 'nights', width: 10, style: { numFmt: '0' } },
    { header: 'Metric', key: 'metric', width: 24 },
    { header: 'Unit', key: 'unit', width: 7 },
    { header: 'Nights with a value', key: 'n', width: 12, style: { numFmt: '0' } },
    { header: 'Mean', key: 'mean', width: 10, style: { numFmt: meanFormat } },
    { header: 'Min', key: 'min', width: 10 },
    { header: 'Max', key: 'max', width: 10 },
  ];
  styleHeader(summary.getRow(1));
  summary.autoFilter = { from: 'A1', to: 'J1' };
  for (const phase of digest.summaries()) {
    for (const metric of SUMMARY_METRICS) {
      const stats = phase.metrics[metric.key];
      const row = summary.addRow({
        phase: phase.name,
        first: phase.first ? excelDate(phase.first) : null,
        last: phase.last ? excelDate(phase.last) : null,
        nights: phase.nights,
        metric: metric.label,
        unit: metric.unit ?? '',
        n: stats.n,
        mean: stats.mean,
        min: stats.min,
        max: stats.max,
      });
      row.getCell('min').numFmt = metricFormat(metric);
      row.getCell('max').numFmt = metricFormat(metric);
      if (phase.phase === null) row.font = { bold: true };
      row.commit();
    }
  }
  const comparison = comparePolyesterLinen(digest);
  summary.addRow([]).commit();
  const title = summary.addRow(['Polyester vs linen, side by side']);
  title.font = TITLE_FONT;
  title.commit();
  if (comparison) {
    const head = summary.addRow([
      'Metric',
      'Unit',
      'Polyester nights',
      'Polyester mean',
      'Linen nights',
      'Linen mean',
      'Linen − polyester',
    ]);
    styleHeader(head);
    head.getCell(2).numFmt = '@';
    head.getCell(3).numFmt = '@';
    head.commit();
    for (const { metric, polyester, linen, difference } of comparison) {
      const row = summary.addRow([metric.label, metric.unit ?? '', polyester.n, polyester.mean, linen.n, linen.mean, difference]);
      // every cell its own format: columns B and C are the phase table's dates above, and
      // a count there showed as one (14 nights as 1900-01-14)
      row.getCell(2).numFmt = '@';
      for (const col of [3, 5]) row.getCell(col).numFmt = '0';
      for (const col of [4, 6, 7]) row.getCell(col).numFmt = meanFormat;
      row.commit();
    }
    summary.addRow([COMPARISON_NOTE]).commit();
  } else {
    summary.addRow(['This range has no polyester nights or no linen nights, so there is nothing to set side by side.']).commit();
  }
  summary.commit();

  // Charts: her study, then the five charts as images.
  const charts = input.charts(digest);
  const sheet = workbook.addWorksheet('Charts');
  sheet.columns = [{ width: 26 }, { width: 14 }, { width: 14 }, { width: 22 }, { width: 16 }, { width: 40 }];
  const rowOf = (values: Cell[], font?: Partial<ExcelJS.Font>) => {
    const row = sheet.addRow(values);
    if (font) row.font = font;
    row.commit();
  };
  rowOf([`Sleep data of ${subject.name}`], TITLE_FONT);
  rowOf([
    `${dateRange(input.startDate, input.endDate)} · ${nightsText(digest.nights)} logged · made ${longDate(calendarDateIn(subject.timezone, input.now))}`,
  ]);
  rowOf([]);
  if (subject.studyStartDate) {
    rowOf(['Her study (protocol version ' + (subject.consentVersion ?? '1.0') + ')'], { bold: true });
    const head = sheet.addRow(['Phase', 'From', 'To', 'Material', 'Nights in range', 'What she wore']);
    styleHeader(head);
    head.getCell(2).numFmt = '@';
    head.getCell(3).numFmt = '@';
    head.commit();
    for (const phase of studyPhaseDates(subject.studyStartDate)) {
      const logged = digest.phase(phase.phase);
      const row = sheet.addRow([
        phase.name,
        excelDate(phase.first),
        phase.last ? excelDate(phase.last) : 'open',
        phase.material,
        logged?.nights ?? 0,
        logged ? logged.materials.map(([material, n]) => `${material} × ${n}`).join(', ') : '',
      ]);
      row.getCell(2).numFmt = 'yyyy-mm-dd';
      row.getCell(3).numFmt = 'yyyy-mm-dd';
      row.commit();
    }
  } else {
    rowOf(['No study start date: she has not given her consent.']);
  }
  rowOf([]);
  rowOf(['Charts: each night of the range on the date axis, the phases shaded, a gap where no night was logged.'], { italic: true });
  const firstChartRow = sheet.lastRow ? sheet.lastRow.number + 1 : 12;
  // 20 px rows: an 800 × 280 px chart spans 14 of them; one blank row between charts.
  SLEEP_CHART_METRICS.forEach((metric, i) => {
    const imageId = workbook.addImage({ buffer: charts[metric.key] as unknown as ExcelJS.Buffer, extension: 'png' });
    sheet.addImage(imageId, { tl: { col: 0, row: firstChartRow - 1 + i * 15 }, ext: { width: 800, height: 280 }, editAs: 'oneCell' });
  });
  sheet.commit();
  await workbook.commit();
  return digest;
}
