import type { ResearchComparison } from '@sleepweave/contracts';
import { holm } from './holm.ts';
import { PAIRED_STATISTICS, type PairedComparison, type PairedStatistic, comparePaired } from './paired.ts';

export { DZ_CI_METHOD, HEDGES_CORRECTION, NOT_COMPUTABLE, REFERENCES, STATISTICAL_METHODS } from './methods.ts';

/** The phases compared (the study's "completed" is never one). */
export type Phase = 'polyester' | 'washout' | 'linen';

/** One participant's phase: her analysed nights and, per metric, her mean (null: no night with a value). */
export interface PhaseSummaryRow {
  researchId: string;
  phase: Phase;
  nights: number;
  values: Record<string, number | null>;
}

/** A metric compared; `key` is its phase_summary.csv column and its key in `values`. */
export interface ComparedMetric {
  key: string;
  label: string;
  unit: string | null;
}

export type ComparisonRole = 'primary' | 'secondary';

/** The pairs of phases, the study's question first. */
export const COMPARISONS: readonly { comparison: ResearchComparison; role: ComparisonRole; first: Phase; second: Phase }[] = [
  { comparison: 'polyester_vs_linen', role: 'primary', first: 'polyester', second: 'linen' },
  { comparison: 'polyester_vs_washout', role: 'secondary', first: 'polyester', second: 'washout' },
  { comparison: 'washout_vs_linen', role: 'secondary', first: 'washout', second: 'linen' },
];

export interface ComparisonRow extends PairedComparison {
  comparison: ResearchComparison;
  role: ComparisonRole;
  firstPhase: Phase;
  secondPhase: Phase;
  metric: string;
  label: string;
  unit: string | null;
  /** Holm-adjusted p of the t test across the metrics of this comparison. */
  pHolm: number | null;
  /** Every reason a value is empty, with the columns it empties; null when none is. */
  note: string | null;
  /** The research ids of the comparison's participants the metric leaves out (no mean of it in one phase), space-separated; null for none. */
  leftOut: string | null;
}

/** comparisons.csv's statistic columns, by the row field each holds. analysis.R writes the same names. */
export const STATISTIC_COLUMNS: Readonly<Record<PairedStatistic | 'pHolm', string>> = {
  meanFirst: 'mean_first',
  meanSecond: 'mean_second',
  meanDifference: 'mean_difference',
  sdDifference: 'sd_difference',
  t: 't',
  df: 'df',
  p: 'p',
  ciLow: 'ci95_low',
  ciHigh: 'ci95_high',
  dz: 'd_z',
  dzLow: 'd_z_ci95_low',
  dzHigh: 'd_z_ci95_high',
  dav: 'd_av',
  gav: 'g_av',
  wilcoxonV: 'wilcoxon_v',
  wilcoxonP: 'wilcoxon_p',
  wilcoxonMethod: 'wilcoxon_method',
  pHolm: 'p_holm',
};

/** Columns of comparisons.csv, in order. */
export const COMPARISON_COLUMNS = [
  'comparison',
  'role',
  'metric',
  'label',
  'unit',
  'n_pairs',
  ...PAIRED_STATISTICS.map((statistic) => STATISTIC_COLUMNS[statistic]),
  STATISTIC_COLUMNS.pHolm,
  'note',
  'left_out',
] as const;

/**
 * The whole comparison table: one row per comparison and metric, primary comparison first,
 * metrics in the order given. A participant enters a comparison when she has at least
 * `minNights` nights in both of its phases (no row for a phase counts as 0 nights), and a
 * metric's comparison when both her phase means of it are numbers (`leftOut` names those it
 * is not). Holm's adjustment runs
 * over the metrics of each comparison. Two rows for one participant and phase are a bug
 * upstream and throw.
 */
export function compareAllPhases(rows: readonly PhaseSummaryRow[], metrics: readonly ComparedMetric[], minNights: number): ComparisonRow[] {
  const byPhase = indexByPhase(rows);
  return COMPARISONS.flatMap(({ comparison, role, first, second }) => {
    const firstRows = byPhase.get(first) ?? new Map<string, PhaseSummaryRow>();
    const secondRows = byPhase.get(second) ?? new Map<string, PhaseSummaryRow>();
    const pairs = [...firstRows.keys()].sort().flatMap((researchId) => {
      const a = firstRows.get(researchId);
      const b = secondRows.get(researchId);
      return a && b && a.nights >= minNights && b.nights >= minNights ? [[a, b] as const] : [];
    });
    const compared = metrics.map((metric) => {
      const firstValues: number[] = [];
      const secondValues: number[] = [];
      const leftOut: string[] = [];
      for (const [a, b] of pairs) {
        const x = a.values[metric.key];
        const y = b.values[metric.key];
        if (typeof x === 'number' && typeof y === 'number') {
          firstValues.push(x);
          secondValues.push(y);
        } else leftOut.push(a.researchId);
      }
      return { metric, result: comparePaired(firstValues, secondValues), leftOut };
    });
    const adjusted = holm(compared.map(({ result }) => result.p));
    return compared.map(({ metric, result, leftOut }, i): ComparisonRow => {
      const pHolm = adjusted[i] ?? null;
      const reasons = { ...result.notComputable, ...(pHolm === null ? { pHolm: result.notComputable.p } : {}) };
      return {
        comparison,
        role,
        firstPhase: first,
        secondPhase: second,
        metric: metric.key,
        label: metric.label,
        unit: metric.unit,
        ...result,
        pHolm,
        note: noteOf(reasons),
        leftOut: leftOut.length === 0 ? null : leftOut.join(' '),
      };
    });
  });
}

/** The row as comparisons.csv holds it: values by column name, null for an empty cell. */
export function comparisonRecord(row: ComparisonRow): Record<(typeof COMPARISON_COLUMNS)[number], string | number | null> {
  const statistics = Object.fromEntries(
    [...PAIRED_STATISTICS, 'pHolm' as const].map((statistic) => [STATISTIC_COLUMNS[statistic], row[statistic]]),
  );
  return {
    comparison: row.comparison,
    role: row.role,
    metric: row.metric,
    label: row.label,
    unit: row.unit,
    n_pairs: row.n,
    ...statistics,
    note: row.note,
    left_out: row.leftOut,
  };
}

/** "reason (column, column); reason (column)", reasons in the order their first column comes. */
function noteOf(reasons: Partial<Record<PairedStatistic | 'pHolm', string>>): string | null {
  const byReason = new Map<string, string[]>();
  for (const statistic of [...PAIRED_STATISTICS, 'pHolm' as const]) {
    const reason = reasons[statistic];
    if (reason !== undefined) byReason.set(reason, [...(byReason.get(reason) ?? []), STATISTIC_COLUMNS[statistic]]);
  }
  if (byReason.size === 0) return null;
  return [...byReason].map(([reason, columns]) => `${reason} (${columns.join(', ')})`).join('; ');
}

function indexByPhase(rows: readonly PhaseSummaryRow[]): Map<Phase, Map<string, PhaseSummaryRow>> {
  const byPhase = new Map<Phase, Map<string, PhaseSummaryRow>>();
  for (const row of rows) {
    const phase = byPhase.get(row.phase) ?? new Map<string, PhaseSummaryRow>();
    if (phase.has(row.researchId)) throw new Error(`compareAllPhases: two rows for ${row.researchId} in ${row.phase}`);
    byPhase.set(row.phase, phase.set(row.researchId, row));
  }
  return byPhase;
}
