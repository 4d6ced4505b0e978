import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CURRENT_PROTOCOL, wallClockIn, type ResearchRunSummary } from '@sleepweave/contracts';
import { packageRoot } from '@sleepweave/service-kit';
import type { ResearchExportContext } from '../context.ts';
import type { RunOutput } from '../runs/worker.ts';
import {
  comparisonRecord,
  compareAllPhases,
  DZ_CI_METHOD,
  REFERENCES,
  STATISTICAL_METHODS,
  type ComparisonRow,
} from '../statistics/analysis.ts';
import { analysisR } from '../statistics/analysis-r.ts';
import { count, interimOf, ORDER_CAVEAT, qaHeadline, writeDataFiles, type DataFindings } from './build.ts';
import { COMPARISONS_FILE, FORM_DEFAULTS, METRICS, RESEARCH_FILES } from './columns.ts';
import { QA_RULES } from './qa.ts';
import { qaReportMarkdown } from './qa-report.ts';
import { reportPdf } from './report-pdf.ts';
import { yieldToDeflate, ZipWriter } from './zip.ts';

/** The metrics as the statistics see them: keyed by their phase_summary column. */
export const COMPARED_METRICS = METRICS.map((metric) => ({ key: metric.column, label: metric.label, unit: metric.unit }));

/** The QA rules of one action, by id, as qa_report.md and qa_flags name them. */
const rulesOf = (action: (typeof QA_RULES)[keyof typeof QA_RULES]['action']) =>
  Object.values(QA_RULES)
    .filter((rule) => rule.action === action)
    .map((rule) => `\`${rule.id}\``)
    .join(', ');

const packageJson = JSON.parse(readFileSync(join(packageRoot(import.meta.url), 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const SOFTWARE = [
  'simple-statistics',
  '@stdlib/math-base-special-betainc',
  '@stdlib/stats-base-dists-gamma-pdf',
  '@stdlib/stats-base-dists-t-cdf',
  '@stdlib/stats-base-dists-t-quantile',
  'archiver',
  'pdfkit',
]
  .filter((name) => packageJson.dependencies[name])
  .map((name) => `${name} ${packageJson.dependencies[name]}`);

/** The primary comparison as the admin screen and the PDF show it. */
export function runSummary(findings: DataFindings, comparisons: readonly ComparisonRow[], headline: string): ResearchRunSummary {
  const inclusions = [...findings.inclusion.values()];
  const included = inclusions.filter((i) => i.included).length;
  return {
    participantsIncluded: included,
    participantsExcluded: findings.participants.length - included,
    participantsIncludedInStudy: inclusions.filter((i) => i.included && !i.studyComplete).length,
    nights: findings.nights,
    qaHeadline: headline,
    primary: comparisons
      .filter((row) => row.role === 'primary')
      .map((row) => ({
        metric: row.metric,
        label: row.label,
        nPairs: row.n,
        dz: row.dz,
        dzLow: row.dzLow,
        dzHigh: row.dzHigh,
        pHolm: row.pHolm,
        note: noteOf(row),
      })),
  };
}

/**
 * Why a metric's d_z, or its interval, is empty, as a sentence for the admin screen and the
 * PDF ("No complete pairs."): comparisons.csv's note lists every empty column with its
 * reason, some twenty names.
 */
function noteOf(row: ComparisonRow): string | null {
  if (row.dz === null) return reasonInWords(row.notComputable.dz);
  if (row.dzLow !== null && row.dzHigh !== null) return null;
  const words = reasonInWords(row.notComputable.dzLow ?? row.notComputable.dzHigh);
  return words === null ? null : `95% CI not computable: ${words.charAt(0).toLowerCase()}${words.slice(1)}`;
}

function reasonInWords(reason: string | undefined): string | null {
  if (!reason) return null;
  const words = reason.replace(/^not computable: /, '');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}

function readme(input: { runAt: Date; minNights: number; lateRecordDays: number; summary: ResearchRunSummary }): string {
  const phases = CURRENT_PROTOCOL.phases.map((p) => `${p.name} (${p.nights} nights, ${p.material})`).join(', then ');
  return [
    '# Sleepweave fabric sleep study: research export',
    '',
    `Made ${input.runAt.toISOString()} by the research-export service. Participants: ${count(input.summary.participantsIncluded)} in the primary analysis${interimOf(input.summary)}, ${count(input.summary.participantsExcluded)} not; ${count(input.summary.nights)} nights.`,
    '',
    `It holds the study as it was when the run began: a night saved or changed later, a consent given later, is in the next run (nightly, or when an admin asks), not in this one.`,
    '',
    '## Design',
    '',
    `A within-person study of sleepwear fabric: each participant sleeps ${phases} (protocol ${CURRENT_PROTOCOL.version}), wears a sleep ring and logs every night. Study day 1 is the day she consented, in her time zone. The question: do participants sleep differently in linen than in polyester (primary comparison); polyester vs washout and washout vs linen are secondary.`,
    '',
    `${ORDER_CAVEAT}`,
    '',
    `An interim run: a participant still in her linen phase is in a comparison once she has the minimum of analysed nights in both of its phases; participants.csv's \`study_complete\` tells her from a completer, for an analysis of completers only.`,
    '',
    '## Who and what is analysed',
    '',
    `- The unit of analysis is the participant's **phase mean** of a metric (phase_summary.csv), never the night.`,
    `- A night enters her phase means unless a QA rule leaves it out (qa_report.md says each rule): ${rulesOf('night excluded')}. Implausible values are treated as missing for that metric (${rulesOf('value excluded')}).`,
    `- The form starts some answers at a value, as the spec has it: ${FORM_DEFAULTS}. A night saved with that value may be one she left as it was: the form cannot tell (codebook.csv says so of each).`,
    `- A participant enters a comparison when she has at least ${input.minNights} analysed nights in both of its phases (RESEARCH_MIN_NIGHTS_PER_PHASE); participants.csv says who is in the primary analysis and, if not, why. When RESEARCH_EXCLUDE_DEMO is true, demo accounts are listed there and never analysed.`,
    `- Flagged, not excluded: ${rulesOf('flag')}; \`recorded_late\` is a night first recorded more than ${input.lateRecordDays} days after its morning.`,
    `- Metrics: every number of the nightly log, and every yes/no as the share of nights (e.g. hot flashes).`,
    '',
    '## Statistics',
    '',
    ...STATISTICAL_METHODS.map((m) => `- **${m.statistic}.** ${m.method}`),
    '',
    `The 95% CI of d_z: ${DZ_CI_METHOD.name}.`,
    '',
    '`analysis.R` recomputes comparisons.csv from phase_summary.csv with base R only (`Rscript analysis.R` in this folder writes comparisons_r.csv).',
    '',
    '## Files',
    '',
    ...RESEARCH_FILES.map((spec) => `- \`${spec.file}\`: ${spec.description}`),
    '- `qa_report.md`: every QA rule, what it does, how many rows it hit and which.',
    '- `analysis.R`: the independent check above.',
    '- `report.pdf`: a two-minute summary with the forest plot of d_z, linen vs polyester.',
    '',
    '## QA rules',
    '',
    ...Object.values(QA_RULES).map((rule) => `- \`${rule.id}\` (${rule.action}): ${rule.description} ${rule.consequence}`),
    '',
    '## Privacy',
    '',
    'Participants appear under random research ids only. No names, e-mail addresses, exact dates of birth (age in 5-year bands at the study start) or free-text comments are in any file. A participant who deletes her account is in no later export.',
    '',
    '## Software',
    '',
    `Node.js ${process.version}; ${SOFTWARE.join('; ')}.`,
    '',
    '## References',
    '',
    ...REFERENCES.map((r) => `- ${r}`),
    '',
  ].join('\n');
}

/** A research run's zip: the data files, the comparisons, the reports and the R check. */
export async function buildResearchZip(ctx: ResearchExportContext, now: Date, requestedAt: Date = now): Promise<RunOutput> {
  const minNights = ctx.config.RESEARCH_MIN_NIGHTS_PER_PHASE;
  const lateRecordDays = ctx.config.RESEARCH_LATE_RECORD_DAYS;
  const zip = new ZipWriter(now);
  const findings = await writeDataFiles(ctx.sql, zip, { now, minNights, lateRecordDays, excludeDemo: ctx.config.RESEARCH_EXCLUDE_DEMO });
  await yieldToDeflate();
  const comparisons = compareAllPhases(findings.phaseMeans, COMPARED_METRICS, minNights);
  const csv = zip.csv(COMPARISONS_FILE);
  for (const row of comparisons) await csv.write(comparisonRecord(row));
  await csv.end();
  // dated on the study's calendar, as its nightly run is scheduled (a run at 02:00 in Auckland is of that day, not of UTC's),
  // and by when it was asked for: a nightly run queued at 23:59 that starts after midnight is that night's; the zip's name
  // also has that time, to the second, so that the runs of one day download under names of their own (a run is refused
  // while another is queued or running: two share a name only if the first ran and finished within that second)
  const asked = wallClockIn(ctx.config.RESEARCH_EXPORT_TIMEZONE, requestedAt);
  const runDate = asked.date;
  const fileName = `sleepweave-research-${runDate}-${pad2(asked.hour)}${pad2(asked.minute)}${pad2(asked.second)}.zip`;
  return await finishResearchZip(zip, { findings, comparisons, now, runDate, fileName, minNights, lateRecordDays });
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The reports after the data and the comparisons: QA, README, the R check, the PDF; the zip's bytes. */
async function finishResearchZip(
  zip: ZipWriter,
  input: {
    findings: DataFindings;
    comparisons: ComparisonRow[];
    now: Date;
    runDate: string;
    fileName: string;
    minNights: number;
    lateRecordDays: number;
  },
): Promise<RunOutput> {
  const { findings, comparisons, now, runDate, fileName, minNights, lateRecordDays } = input;
  const headline = qaHeadline(findings);
  const summary = runSummary(findings, comparisons, headline);
  zip.add('qa_report.md', qaReportMarkdown(findings, { minNights, lateRecordDays, headline }));
  zip.add('README.md', readme({ runAt: now, minNights, lateRecordDays, summary }));
  zip.add('analysis.R', analysisR({ metrics: COMPARED_METRICS, minNights }));
  zip.add('report.pdf', await reportPdf({ summary, runDate, minNights, ciMethod: DZ_CI_METHOD.name }));
  return { zip: await zip.finish(), fileName, summary };
}
