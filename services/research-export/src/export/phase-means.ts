import type { StudyPhase } from '@sleepweave/contracts';
import type { Metric } from './columns.ts';
import type { NightValues } from './qa.ts';

/**
 * Phase means are rounded to 10 significant digits once, and the rounded value is both
 * written to phase_summary.csv and analysed: R's read.csv misreads the last bit of about
 * 1 in 20,000 full 17-digit numbers, which could turn a tie or a zero difference in the
 * Wilcoxon test into something else in analysis.R than here.
 */
export function roundMean(x: number): number {
  // Number(x.toPrecision(10)), without the text in between (a run rounds some 50,000 means):
  // the ten digits n = round(|x|·10^k) from the double product, which is within a millionth
  // of the exact one (|x|·10^k < 10^10, half an ulp at most), so unless the product lies that
  // close to a half, n is the digits toPrecision rounds to; n and 10^k are exact doubles
  // (n < 2^53, k <= 22), so their quotient is the double that toPrecision's text reads back
  // as. Near a half, an exponent out of that range, and anything not finite: toPrecision.
  const magnitude = Math.abs(x);
  if (magnitude === 0 || !Number.isFinite(x)) return x === 0 ? 0 : Number(x.toPrecision(10));
  const k = 9 - Math.floor(Math.log10(magnitude));
  if (k < 0 || k > 22) return Number(x.toPrecision(10));
  const product = magnitude * POWERS_OF_TEN[k]!;
  const n = Math.round(product);
  if (Math.abs(product - Math.floor(product) - 0.5) < 1e-5 || n < 1e9 || n >= 1e10) return Number(x.toPrecision(10));
  const rounded = n / POWERS_OF_TEN[k]!;
  return x < 0 ? -rounded : rounded;
}

/** 10^0 … 10^22: every one an exact double. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i);

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
interface PhaseSums {
  researchId: string;
  phase: AnalysedPhase;
  nights: number;
  sum: Float64Array;
  count: Uint32Array;
}

export class PhaseMeans {
  private readonly sums = new Map<string, PhaseSums>();
  /** The entry of the last night added: nights come her phase at a time, so most find it here. */
  private last: PhaseSums | null = null;

  constructor(private readonly metrics: readonly Metric[]) {}

  add(researchId: string, phase: AnalysedPhase, values: NightValues): void {
    let entry = this.last;
    if (entry === null || entry.researchId !== researchId || entry.phase !== phase) {
      const key = `${researchId}|${phase}`;
      entry = this.sums.get(key) ?? null;
      if (entry === null) {
        entry = { researchId, phase, nights: 0, sum: new Float64Array(this.metrics.length), count: new Uint32Array(this.metrics.length) };
        this.sums.set(key, entry);
      }
      this.last = entry;
    }
    entry.nights += 1;
    for (let i = 0; i < this.metrics.length; i++) {
      const value = values[this.metrics[i]!.index];
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

  private mean(entry: PhaseSums): PhaseMean {
    const values: Record<string, number | null> = {};
    this.metrics.forEach((metric, i) => {
      values[metric.column] = entry.count[i]! > 0 ? roundMean(entry.sum[i]! / entry.count[i]!) : null;
    });
    return { researchId: entry.researchId, phase: entry.phase, nights: entry.nights, values };
  }
}
