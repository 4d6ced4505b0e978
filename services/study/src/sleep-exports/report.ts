import {
  calendarDateIn,
  formatDuration,
  PHASE_COLOURS,
  SLEEP_CHART_METRICS,
  SLEEP_LOG_FIELD_SPECS,
  type SleepLog,
} from '@sleepweave/contracts';
import { PDF_COLORS, PdfReport } from '@sleepweave/documents';
import {
  comparePolyesterLinen,
  COMPARISON_NOTE,
  dateRange,
  datesBetween,
  formatDifference,
  formatMean,
  formatRange,
  longDate,
  type NightsDigest,
  nightsText,
  PHASE_NAMES,
  PHASE_ORDER,
  PHASE_SHORT_NAMES,
  phaseBands,
  studyPhaseDates,
  SUMMARY_METRICS,
  weekdayDate,
  type SummaryMetric,
} from './business-logic.ts';
import { CHART_SIZE } from './charts.ts';
import type { ExportCharts } from './charts.ts';
import type { ExportSubject } from './queries.ts';

/**
 * The PDF report: what she can hand to her doctor. Page 1: who, which dates, her study's
 * phases and the headline numbers; then the five charts with the phases shaded; the
 * phases side by side; her polyester and linen nights compared (descriptive); every night
 * in a table with her comments. pdfkit writes it as it goes (the nights table comes from a
 * second pass over the database, so no night is held).
 */

export interface ReportInput {
  subject: ExportSubject;
  startDate: string;
  endDate: string;
  /** Her nights, first pass: for the numbers and charts. */
  digest: NightsDigest;
  charts: ExportCharts;
  /** Her nights again, oldest first, for the table. */
  nights: () => AsyncIterable<SleepLog>;
  now: Date;
}

const metricOf = (key: SummaryMetric['key']) => SUMMARY_METRICS.find((m) => m.key === key)!;

/** The headline metrics of page 1, in reading order. */
const HEADLINE: SummaryMetric['key'][] = [
  'sleepScore',
  'totalSleepMinutes',
  'deepMinutes',
  'remMinutes',
  'restingHr',
  'avgHrv',
  'sleepQuality110',
];
/** The columns of the per-phase table. */
const PHASE_TABLE: SummaryMetric['key'][] = [
  'sleepScore',
  'totalSleepMinutes',
  'sleepEfficiency',
  'deepMinutes',
  'remMinutes',
  'restingHr',
  'avgHrv',
  'sleepQuality110',
];

/** Starts the report; `write` fills it (call it, then read `doc` as the answer's stream). */
export function startReport(input: ReportInput): { report: PdfReport; write: () => Promise<void> } {
  const { subject } = input;
  const range = dateRange(input.startDate, input.endDate);
  const report = new PdfReport({
    title: `Sleep report: ${subject.name}, ${range}`,
    author: subject.name,
    subject: 'Sleepweave sleep study: personal report',
    footer: `Sleepweave sleep report · ${subject.name} · ${range}`,
  });
  return { report, write: () => writeReport(report, input) };
}

async function writeReport(report: PdfReport, input: ReportInput): Promise<void> {
  const { doc } = report;
  const { subject, digest } = input;
  const all = digest.summaries().at(-1)!;

  // Title
  report.heading('Sleep report', 1);
  report.style({ weight: 'bold', size: 15, color: PDF_COLORS.ink }).paragraph(subject.name);
  report
    .style({ weight: 'regular', size: 10.5, color: PDF_COLORS.muted })
    .paragraph(
      `${dateRange(input.startDate, input.endDate)} · ${nightsText(all.nights)} logged · made ${longDate(
        calendarDateIn(subject.timezone, input.now),
      )} with Sleepweave`,
    );
  doc.moveDown(0.6);
  report
    .body()
    .paragraph(
      'This report is made from the nights she logged in Sleepweave: her sleep ring’s measurements (sleep score, sleep stages, heart rate, ' +
        'HRV) and her own ratings. She took part in a sleep study comparing sleepwear fabrics; the phases of that study are shaded on the charts.',
    );

  // Study phases
  report.heading('Her study');
  if (subject.studyStartDate) {
    const phases = report.table([
      { header: 'Phase', width: 3 },
      { header: 'Dates', width: 4.2 },
      { header: 'Sleepwear', width: 3.4 },
      { header: 'Nights in this report', width: 2.2, align: 'right' },
    ]);
    for (const phase of studyPhaseDates(subject.studyStartDate)) {
      const logged = digest.phase(phase.phase);
      phases.row([
        // 'Washout (cotton), nights 15-28': in brackets, two pairs ran together
        `${phase.name}, ${phase.nights}`,
        phase.last ? dateRange(phase.first, phase.last) : `from ${longDate(phase.first)}`,
        phase.material,
        String(logged?.nights ?? 0),
      ]);
    }
    phases.end();
  } else {
    report.paragraph('She has not joined the study, so her nights have no study phase.');
  }

  // Headline numbers
  report.heading('At a glance');
  report.ensureSpace(80);
  const tiles = HEADLINE.map((key) => metricOf(key));
  const tileWidth = report.width / 4;
  const top = doc.y;
  tiles.forEach((metric, i) => {
    const x = report.left + (i % 4) * tileWidth;
    const y = top + Math.floor(i / 4) * 46;
    const stats = all.metrics[metric.key];
    report.style({ weight: 'regular', size: 8.5, color: PDF_COLORS.muted });
    doc.text(`${metric.label} (mean)`, x, y, { width: tileWidth - 8 });
    report.style({ weight: 'bold', size: 15, color: PDF_COLORS.accent });
    doc.text(formatMean(metric, stats.mean), x, y + 12, { width: tileWidth - 8 });
    report.style({ weight: 'regular', size: 7.5, color: PDF_COLORS.muted });
    doc.text(stats.n === 0 ? 'not recorded' : `${nightsText(stats.n)} · ${formatRange(metric, stats.min, stats.max)}`, x, y + 31, {
      width: tileWidth - 8,
    });
  });
  doc.x = report.left;
  doc.y = top + Math.ceil(tiles.length / 4) * 46 + 6;
  report.body();

  // Charts
  report.heading('Her nights on charts');
  const shown = new Set(phaseBands(subject.studyStartDate, datesBetween(input.startDate, input.endDate)).map((band) => band.phase));
  report
    .style({ size: 9, color: PDF_COLORS.muted })
    .paragraph(
      `Each date of the range on the axis; a gap where no night was logged or the ring gave no value.${shown.size > 0 ? ' Phases:' : ''}`,
    );
  if (shown.size > 0) {
    report.ensureSpace(16);
    let legendX = report.left;
    const legendY = doc.y + 2;
    for (const phase of PHASE_ORDER.filter((p) => shown.has(p))) {
      const label = PHASE_NAMES[phase];
      // a band, as the shade is on the charts (and the screens' legend)
      doc.rect(legendX, legendY + 2, 16, 7).fillAndStroke(PHASE_COLOURS[phase].shade, PDF_COLORS.muted);
      report.style({ size: 8.5, color: PDF_COLORS.ink });
      doc.text(label, legendX + 20, legendY + 1, { lineBreak: false });
      legendX += 30 + doc.widthOfString(label);
    }
    doc.x = report.left;
    doc.y = legendY + 18;
  }
  report.body();
  const chartHeight = (report.width * CHART_SIZE.height) / CHART_SIZE.width;
  for (const metric of SLEEP_CHART_METRICS) report.image(input.charts[metric.key], chartHeight);

  // Per phase
  report.heading('Phase by phase');
  report
    .style({ size: 9, color: PDF_COLORS.muted })
    .paragraph('Mean of each metric over the nights with a value; smallest and largest below it.');
  doc.moveDown(0.3);
  const phaseTable = report.table(
    [
      { header: 'Phase', width: 2.4 },
      { header: 'Nights', width: 1.3, align: 'right' },
      ...PHASE_TABLE.map((key) => ({ header: metricOf(key).label, width: 1.5, align: 'right' as const })),
    ],
    { fontSize: 7.5 },
  );
  for (const phase of digest.summaries()) {
    phaseTable.row(
      [
        phase.name,
        String(phase.nights),
        ...PHASE_TABLE.map((key) => {
          const stats = phase.metrics[key];
          const metric = metricOf(key);
          return stats.n === 0 ? '--' : `${formatMean(metric, stats.mean)}\n${formatRange(metric, stats.min, stats.max)}`;
        }),
      ],
      { bold: phase.phase === null },
    );
  }
  phaseTable.end();

  // Polyester vs linen
  report.heading('Polyester and linen, side by side');
  const comparison = comparePolyesterLinen(digest);
  if (comparison) {
    const table = report.table([
      { header: 'Metric', width: 3 },
      { header: 'Polyester: mean (nights)', width: 2.2, align: 'right' },
      { header: 'Linen: mean (nights)', width: 2.2, align: 'right' },
      { header: 'Linen − polyester', width: 1.8, align: 'right' },
    ]);
    for (const { metric, polyester, linen, difference } of comparison) {
      if (polyester.n === 0 && linen.n === 0) continue;
      table.row([
        metric.label,
        `${formatMean(metric, polyester.mean)} (${polyester.n})`,
        `${formatMean(metric, linen.mean)} (${linen.n})`,
        formatDifference(metric, difference),
      ]);
    }
    table.end();
    report.style({ size: 8.5, color: PDF_COLORS.muted }).paragraph(COMPARISON_NOTE);
  } else {
    report.paragraph('This range has no polyester nights or no linen nights, so there is nothing to set side by side.');
  }

  // Every night
  report.newPage();
  report.heading('Night by night');
  report
    .style({ size: 9, color: PDF_COLORS.muted })
    .paragraph('Her comments, when she wrote any, are under the night. Durations in hours and minutes; HR in bpm; HRV in ms.');
  doc.moveDown(0.3);
  const nights = report.table(
    [
      { header: 'Night', width: 2.3 },
      { header: 'Phase, study day', width: 2.1 },
      { header: 'Wore', width: 1.8 },
      { header: 'Score', width: 1, align: 'right' },
      { header: 'Total sleep', width: 1.4, align: 'right' },
      { header: 'Deep', width: 1.2, align: 'right' },
      { header: 'REM', width: 1.2, align: 'right' },
      { header: 'Resting HR', width: 1.2, align: 'right' },
      { header: 'HRV', width: 1, align: 'right' },
      { header: 'Quality /10', width: 1.1, align: 'right' },
    ],
    { fontSize: 7.5 },
  );
  const value = (v: number | null, text = (x: number) => String(x)) => (v === null ? '--' : text(v));
  for await (const log of input.nights()) {
    if (doc.destroyed) return; // the download was cancelled: leaving the loop closes the cursor
    nights.row(
      [
        weekdayDate(log.date) + `, ${log.date.slice(0, 4)}`,
        `${PHASE_SHORT_NAMES[log.phase]}, day ${log.studyDay}`,
        log.sleepwearMaterial?.replace('100% ', '') ?? '--',
        value(log.sleepScore),
        value(log.totalSleepMinutes, formatDuration),
        value(log.deepMinutes, formatDuration),
        value(log.remMinutes, formatDuration),
        value(log.restingHr),
        value(log.avgHrv, (x) => x.toFixed(1)),
        value(log.sleepQuality110),
      ],
      { note: log.comments ? `${SLEEP_LOG_FIELD_SPECS.comments.label}: ${log.comments}` : null },
    );
  }
  nights.end();
  report.end();
}
