import { calendarDateIn, wallClockIn } from '@sleepweave/contracts';
import type { ResearchExportContext } from '../context.ts';
import { pairedDifference } from '../statistics/paired.ts';
import { qaHeadline, writeDataFiles } from './build.ts';
import { COMPARISONS_FILE, METRICS, RESEARCH_FILES, type FileSpec } from './columns.ts';
import { qaReportMarkdown } from './qa-report.ts';
import { ZipWriter } from './zip.ts';

/** Her own comparison: descriptive, night by night, never a test (her nights are not independent). */
export const MY_COMPARISON_FILE: FileSpec = {
  file: 'my_comparison.csv',
  description:
    'Descriptive only: her means of her analysed nights in polyester and in linen, side by side, for each metric (as in phase_summary.csv).',
  columns: [
    { name: 'metric', label: 'Metric (phase_summary column)', type: 'category', unit: null, allowed: null, notes: null },
    { name: 'label', label: 'Metric label', type: 'text', unit: null, allowed: null, notes: null },
    { name: 'unit', label: 'Unit', type: 'text', unit: null, allowed: null, notes: null },
    {
      name: 'nights_polyester',
      label: 'Her analysed polyester nights with a value',
      type: 'integer',
      unit: null,
      allowed: null,
      notes: null,
    },
    { name: 'mean_polyester', label: 'Her mean in polyester', type: 'decimal', unit: null, allowed: null, notes: null },
    { name: 'nights_linen', label: 'Her analysed linen nights with a value', type: 'integer', unit: null, allowed: null, notes: null },
    { name: 'mean_linen', label: 'Her mean in linen', type: 'decimal', unit: null, allowed: null, notes: null },
    {
      name: 'difference',
      label: 'Linen - polyester',
      type: 'decimal',
      unit: null,
      allowed: null,
      notes: "Descriptive: one person's nights are not independent observations, so no p-value or effect size is given.",
    },
  ],
};

/** Her zip's CSV files: the research zip's, with her descriptive comparison instead of the paired tests. */
const PERSONAL_FILES: readonly FileSpec[] = [...RESEARCH_FILES.filter((file) => file !== COMPARISONS_FILE), MY_COMPARISON_FILE];

export class NotEnrolled extends Error {}

/**
 * A participant's own export: the research files of her data only (under her research id),
 * and a descriptive side-by-side of her polyester and linen nights. Nothing of anyone else.
 */
export async function buildPersonalZip(ctx: ResearchExportContext, userId: string, now: Date): Promise<{ zip: Buffer; fileName: string }> {
  const [enrolled] = await ctx.sql<{ timezone: string }[]>`
    select d.timezone from research_participants p join user_directory d on d.user_id = p.user_id where p.user_id = ${userId}`;
  if (!enrolled) throw new NotEnrolled();
  const minNights = ctx.config.RESEARCH_MIN_NIGHTS_PER_PHASE;
  const lateRecordDays = ctx.config.RESEARCH_LATE_RECORD_DAYS;
  const zip = new ZipWriter(now);
  // Her analysed nights of each phase with a value of each metric, counted in the same read
  // as the other files; her means are phase_summary.csv's own.
  const withValue = { polyester: METRICS.map(() => 0), linen: METRICS.map(() => 0) };
  const findings = await writeDataFiles(ctx.sql, zip, {
    now,
    minNights,
    lateRecordDays,
    userId,
    codebookFiles: PERSONAL_FILES,
    onAnalysedNight: (phase, values) => {
      if (phase !== 'polyester' && phase !== 'linen') return;
      METRICS.forEach((metric, i) => {
        const value = values[metric.index];
        if (typeof value === 'number' || typeof value === 'boolean') withValue[phase][i]! += 1;
      });
    },
  });
  const csv = zip.csv(MY_COMPARISON_FILE);
  const meanOf = (phase: 'polyester' | 'linen', column: string) =>
    findings.phaseMeans.find((phaseMean) => phaseMean.phase === phase)?.values[column] ?? null;
  for (const [i, metric] of METRICS.entries()) {
    const meanPoly = meanOf('polyester', metric.column);
    const meanLinen = meanOf('linen', metric.column);
    await csv.write({
      metric: metric.column,
      label: metric.label,
      unit: metric.unit,
      nights_polyester: withValue.polyester[i],
      mean_polyester: meanPoly,
      nights_linen: withValue.linen[i],
      mean_linen: meanLinen,
      difference: meanPoly !== null && meanLinen !== null ? pairedDifference(meanPoly, meanLinen) : null,
    });
  }
  await csv.end();
  zip.add('qa_report.md', qaReportMarkdown(findings, { minNights, lateRecordDays, headline: qaHeadline(findings) }));
  zip.add(
    'README.md',
    [
      '# Your Sleepweave research export',
      '',
      `Made ${madeAt(now, enrolled.timezone)}. These are your own study data, under your research id, in the same format researchers receive (codebook.csv describes every column).`,
      '',
      '- `nights.csv`: every night you logged (your comments are not included).',
      '- `phase_summary.csv`: your mean of each metric in each phase, over the nights the study analyses: a night counts once saved after it ended (nights.csv says of each whether it is analysed, and qa_report.md why not). A phase with no such night has no row yet.',
      '- `my_comparison.csv`: your means in polyester and in linen side by side. This is descriptive: the nights of one person are not independent, so it gives no p-values or effect sizes; the study answers its question across all participants.',
      '- `participants.csv`, `qa_report.csv`, `qa_report.md`: your row, and the quality checks of your nights.',
      '',
    ].join('\n'),
  );
  // dated on her calendar, as her other exports are
  const date = calendarDateIn(enrolled.timezone, now);
  return { zip: await zip.finish(), fileName: `sleepweave-research-export-${date}.zip` };
}

/** When her zip was made, on her clock: "7 December 2026, 06:17 (Europe/London)" (it was an ISO time in UTC). */
function madeAt(now: Date, timeZone: string): string {
  const { date, hour, minute } = wallClockIn(timeZone, now);
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const monthName = new Date(Date.UTC(year, month - 1, 1)).toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' });
  return `${day} ${monthName} ${year}, ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')} (${timeZone})`;
}
