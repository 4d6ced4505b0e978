import { describe, expect, it } from 'vitest';
import type { ComparisonRow } from '../statistics/analysis.ts';
import { comparePaired } from '../statistics/paired.ts';
import type { DataFindings } from './build.ts';
import { runSummary } from './research-zip.ts';

const findings = {
  participants: [],
  phaseMeans: [],
  hits: [],
  nights: 0,
  nightsFlagged: 0,
  nightsLeftOut: 0,
  inclusion: new Map(),
} as DataFindings;

function primary(metric: string, first: number[], second: number[]): ComparisonRow {
  return {
    ...comparePaired(first, second),
    comparison: 'polyester_vs_linen',
    role: 'primary',
    firstPhase: 'polyester',
    secondPhase: 'linen',
    metric,
    label: metric,
    unit: null,
    pHolm: null,
    note: null,
    leftOut: null,
  };
}

describe("the run's summary for the admin screen and the PDF", () => {
  it('says why an interval is empty beside a d_z that is not (a very large effect)', () => {
    const first = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    const large = primary(
      'huge',
      first,
      first.map((x, i) => x + 5 + (i % 2 === 0 ? 0.001 : -0.001)),
    );
    const ordinary = primary('ordinary', [1, 2, 3, 4, 5], [2, 2, 4, 5, 5]);
    const [huge, usual] = runSummary(findings, [large, ordinary], '').primary;
    expect(huge).toMatchObject({ dzLow: null, dzHigh: null });
    expect(huge!.dz).not.toBeNull();
    expect(huge!.note).toBe(
      '95% CI not computable: a limit of the exact interval lies beyond |ncp| = 1000, where the noncentral t CDF is not checked.',
    );
    expect(usual!.note).toBeNull();
  });

  it('says why a d_z is empty', () => {
    const [none] = runSummary(findings, [primary('none', [], [])], '').primary;
    expect(none).toMatchObject({ dz: null, note: 'No complete pairs.' });
  });
});
