import { describe, expect, it } from 'vitest';
import { COMPARISONS_FILE } from '../export/columns.ts';
import {
  COMPARISON_COLUMNS,
  type ComparedMetric,
  type Phase,
  type PhaseSummaryRow,
  compareAllPhases,
  comparisonRecord,
} from './analysis.ts';
import { holm } from './holm.ts';
import { NOT_COMPUTABLE } from './methods.ts';
import { comparePaired } from './paired.ts';

const METRICS: readonly ComparedMetric[] = [
  { key: 'score', label: 'Sleep score', unit: 'points' },
  { key: 'deep', label: 'Deep sleep', unit: 'minutes' },
];

const row = (researchId: string, phase: Phase, nights: number, score: number | null, deep: number | null): PhaseSummaryRow => ({
  researchId,
  phase,
  nights,
  values: { score, deep },
});

/** Four complete participants, and one of each way not to be. */
const ROWS: PhaseSummaryRow[] = [
  ...[
    ['SW-A', 70, 74, 72, 50],
    ['SW-B', 80, 79, 83, 61],
    ['SW-C', 65, 70, 69, 44],
    ['SW-D', 75, 76, 80, 58],
  ].flatMap(([id, polyester, washout, linen, deep]) => [
    row(id as string, 'polyester', 14, polyester as number, deep as number),
    row(id as string, 'washout', 14, washout as number, (deep as number) + 2),
    row(id as string, 'linen', 14, linen as number, (deep as number) + 5),
  ]),
  // too few linen nights: out of both comparisons with linen, in polyester vs washout
  row('SW-E', 'polyester', 14, 60, 40),
  row('SW-E', 'washout', 12, 61, 41),
  row('SW-E', 'linen', 9, 90, 90),
  // no linen row at all (0 nights)
  row('SW-F', 'polyester', 14, 60, 40),
  // no deep sleep in linen: in the score comparison only
  row('SW-G', 'polyester', 14, 71, 55),
  row('SW-G', 'linen', 14, 73, null),
];

describe('compareAllPhases', () => {
  const table = compareAllPhases(ROWS, METRICS, 10);
  const find = (comparison: string, metric: string) => table.find((r) => r.comparison === comparison && r.metric === metric)!;

  it('one row per comparison and metric, the primary comparison first, metrics in the order given', () => {
    expect(table.map((r) => [r.comparison, r.role, r.firstPhase, r.secondPhase, r.metric])).toEqual([
      ['polyester_vs_linen', 'primary', 'polyester', 'linen', 'score'],
      ['polyester_vs_linen', 'primary', 'polyester', 'linen', 'deep'],
      ['polyester_vs_washout', 'secondary', 'polyester', 'washout', 'score'],
      ['polyester_vs_washout', 'secondary', 'polyester', 'washout', 'deep'],
      ['washout_vs_linen', 'secondary', 'washout', 'linen', 'score'],
      ['washout_vs_linen', 'secondary', 'washout', 'linen', 'deep'],
    ]);
  });

  it('a participant enters with enough nights in both phases, a metric with both means', () => {
    expect(find('polyester_vs_linen', 'score').n).toBe(5); // A-D and G
    expect(find('polyester_vs_linen', 'deep').n).toBe(4); // G has no linen mean
    // and is named as left out of that metric (E and F, out of the comparison, are not)
    expect(find('polyester_vs_linen', 'deep').leftOut).toBe('SW-G');
    expect(find('polyester_vs_linen', 'score').leftOut).toBeNull();
    expect(comparisonRecord(find('polyester_vs_linen', 'deep')).left_out).toBe('SW-G');
    expect(find('polyester_vs_washout', 'score').n).toBe(5); // A-D and E
    expect(find('washout_vs_linen', 'score').n).toBe(4);
  });

  it('each row is comparePaired of its pairs, second phase minus first, participants in research id order', () => {
    const primary = find('polyester_vs_linen', 'score');
    const expected = comparePaired([70, 80, 65, 75, 71], [72, 83, 69, 80, 73]);
    expect(primary).toMatchObject({ ...expected, label: 'Sleep score', unit: 'points' });
    expect(primary.meanDifference).toBeCloseTo(3.2, 12);
  });

  it('Holm runs over the metrics of each comparison, not across comparisons', () => {
    for (const comparison of ['polyester_vs_linen', 'polyester_vs_washout', 'washout_vs_linen']) {
      const rows = table.filter((r) => r.comparison === comparison);
      expect(rows.map((r) => r.pHolm)).toEqual(holm(rows.map((r) => r.p)));
    }
  });

  it('the note names each reason and the columns it empties; a missing p_holm shares its p’s reason', () => {
    const oneMetric: ComparedMetric[] = [{ key: 'score', label: 'Score', unit: null }];
    const single = compareAllPhases([row('SW-A', 'polyester', 14, 1, null), row('SW-A', 'linen', 14, 2, null)], oneMetric, 10)[0]!;
    expect(single.note).toBe(
      `${NOT_COMPUTABLE.fewerThanTwoPairs} (sd_difference, t, df, p, ci95_low, ci95_high, d_z, d_z_ci95_low, d_z_ci95_high, d_av, g_av, p_holm)`,
    );
    expect(find('polyester_vs_linen', 'score').note).toBeNull();
  });

  it('nobody in a comparison: every row is empty for want of pairs', () => {
    const rows = compareAllPhases([row('SW-A', 'polyester', 14, 1, 2)], METRICS, 10);
    expect(rows.every((r) => r.n === 0 && r.p === null && r.pHolm === null)).toBe(true);
    expect(rows[0]!.note).toMatch(new RegExp(`^${NOT_COMPUTABLE.noPairs} \\(mean_first, .*, p_holm\\)$`));
  });

  it('two rows for one participant and phase are a bug upstream', () => {
    expect(() => compareAllPhases([row('SW-A', 'linen', 14, 1, 2), row('SW-A', 'linen', 3, 1, 2)], METRICS, 10)).toThrow(
      /two rows for SW-A in linen/,
    );
  });
});

describe('comparisonRecord', () => {
  it("has comparisons.csv's columns, in its order", () => {
    expect([...COMPARISON_COLUMNS]).toEqual(COMPARISONS_FILE.columns.map((c) => c.name));
    const [first] = compareAllPhases(ROWS, METRICS, 10);
    expect(Object.keys(comparisonRecord(first!))).toEqual([...COMPARISON_COLUMNS]);
  });

  it('null for an empty cell', () => {
    const [first] = compareAllPhases([], METRICS, 10);
    const record = comparisonRecord(first!);
    expect(record).toMatchObject({ comparison: 'polyester_vs_linen', n_pairs: 0, mean_first: null, p_holm: null, wilcoxon_method: null });
  });
});
