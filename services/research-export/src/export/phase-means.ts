import type { StudyPhase } from '@sleepweave/contracts';
import type { Metric } from './columns.ts';

/**
 * Phase means are rounded to 10 significant digits once, and the rounded value is both
 * written to phase_summary.csv and analysed: R's read.csv misreads the last bit of about
 * 1 in 20,000 full 17-digit numbers, which could turn a tie or a zero difference in the
 * Wilcoxon test into something else in analysis.R than here.
 */
export const roundMean = (x: number): number => Number(x.toPrecision(10));

export type AnalysedPhase = Exclude<StudyPhase, 'completed'>;
export const ANALYSED_PHASES: readonly AnalysedPhase[] = ['polyester', 'washout', 'linen'];

/** One participant's phase: how many nights were analysed and, per metric, the mean of those with a value. */
export interface PhaseMean {
  researchId: string;
  phase: AnalysedPhase;
  nights: number;
  values: Record<string, number | null>;
}

/**
 * Sums per participant and phase, filled night by night as the run streams them (so the
 * nights are never all in memory), then turned into means. A yes/no metric counts 1 for
 * yes: its mean is the share of nights.
 */
export class PhaseMeans {
  private readonly sums = new Map<string, { researchId: string; phase: AnalysedPhase; nights: number; sum: number[]; count: number[] }>();

  constructor(private readonly metrics: readonly Metric[]) {}

  add(researchId: string, phase: AnalysedPhase, values: Record<string, unknown>): void {
    const key = `${researchId}|${phase}`;
    let entry = this.sums.get(key);
    if (!entry) {
      entry = { researchId, phase, nights: 0, sum: this.metrics.map(() => 0), count: this.metrics.map(() => 0) };
      this.sums.set(key, entry);
    }
    entry.nights += 1;
    for (let i = 0; i < this.metrics.length; i++) {
      const value = values[this.metrics[i]!.key];
      const x = typeof value === 'boolean' ? (value ? 1 : 0) : typeof value === 'number' ? value : null;
      if (x === null) continue;
      entry.sum[i]! += x;
      entry.count[i]! += 1;
    }
  }

  /** Her phases with at least one analysed night; a phase without any is absent (0 nights). */
  of(researchId: string): PhaseMean[] {
    return ANALYSED_PHASES.flatMap((phase) => {
      const entry = this.sums.get(`${researchId}|${phase}`);
      return entry ? [this.mean(entry)] : [];
    });
  }

  nights(researchId: string, phase: AnalysedPhase): number {
    return this.sums.get(`${researchId}|${phase}`)?.nights ?? 0;
  }

  private mean(entry: { researchId: string; phase: AnalysedPhase; nights: number; sum: number[]; count: number[] }): PhaseMean {
    const values: Record<string, number | null> = {};
    this.metrics.forEach((metric, i) => {
      values[metric.column] = entry.count[i]! > 0 ? roundMean(entry.sum[i]! / entry.count[i]!) : null;
    });
    return { researchId: entry.researchId, phase: entry.phase, nights: entry.nights, values };
  }
}
