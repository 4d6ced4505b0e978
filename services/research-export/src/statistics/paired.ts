import { mean, sampleStandardDeviation, sampleVariance } from 'simple-statistics';
import { studentTCdf, studentTQuantile } from './distributions.ts';
import { CONFIDENCE_LEVEL, NOT_COMPUTABLE, isEssentiallyConstant } from './methods.ts';
import { noncentralityInterval } from './noncentral-interval.ts';
import { type SignedRankMethod, wilcoxonSignedRank } from './signed-rank.ts';

/**
 * One metric of one pair of phases: the paired comparison of participants' phase means
 * (methods.ts says how each value is computed). A value that cannot be computed is null,
 * and `notComputable` says why in words; nothing here is NaN or infinite.
 */
export interface PairedComparison {
  /** Complete pairs (participants). */
  n: number;
  meanFirst: number | null;
  meanSecond: number | null;
  /** Mean of second − first. */
  meanDifference: number | null;
  /** SD of the differences, n − 1 denominator. */
  sdDifference: number | null;
  t: number | null;
  df: number | null;
  /** Two-sided p of the paired t test. */
  p: number | null;
  /** 95% CI of the mean difference. */
  ciLow: number | null;
  ciHigh: number | null;
  dz: number | null;
  /** 95% CI of d_z, exact (noncentral t). */
  dzLow: number | null;
  dzHigh: number | null;
  dav: number | null;
  gav: number | null;
  wilcoxonV: number | null;
  wilcoxonP: number | null;
  wilcoxonMethod: SignedRankMethod | null;
  /** For each null value above, why. */
  notComputable: Partial<Record<PairedStatistic, string>>;
}

export type PairedStatistic = Exclude<keyof PairedComparison, 'n' | 'notComputable'>;

/** The statistics in the order of the comparisons table's columns. */
export const PAIRED_STATISTICS = [
  'meanFirst',
  'meanSecond',
  'meanDifference',
  'sdDifference',
  't',
  'df',
  'p',
  'ciLow',
  'ciHigh',
  'dz',
  'dzLow',
  'dzHigh',
  'dav',
  'gav',
  'wilcoxonV',
  'wilcoxonP',
  'wilcoxonMethod',
] as const satisfies readonly PairedStatistic[];

const T_TEST = ['t', 'p', 'ciLow', 'ciHigh', 'dz', 'dzLow', 'dzHigh'] as const;
const AVERAGE_SD = ['dav', 'gav'] as const;
const SIGNED_RANK = ['wilcoxonV', 'wilcoxonP', 'wilcoxonMethod'] as const;

type Outcome<T> = { value: T } | { reason: string };
type Outcomes<K extends PairedStatistic> = { [S in K]: Outcome<NonNullable<PairedComparison[S]>> };

/**
 * Compares `second` with `first`, aligned by participant and already reduced to complete
 * pairs. Unequal lengths or a non-finite value are the caller's bug and throw; everything
 * the data themselves can do (no pairs, no variation, all zero) gives nulls with reasons.
 */
export function comparePaired(first: readonly number[], second: readonly number[]): PairedComparison {
  if (first.length !== second.length)
    throw new RangeError(`comparePaired: ${first.length} first values but ${second.length} second values`);
  if (![...first, ...second].every(Number.isFinite)) throw new RangeError('comparePaired: a value is not a finite number');
  const n = first.length;
  if (n === 0) return assemble(0, notComputable(PAIRED_STATISTICS, NOT_COMPUTABLE.noPairs));
  const differences = tieDifferences(
    first,
    second,
    second.map((value, i) => pairedDifference(first[i]!, value)),
  );
  const meanDifference = mean(differences);
  return assemble(n, {
    meanFirst: { value: mean(first) },
    meanSecond: { value: mean(second) },
    meanDifference: { value: meanDifference },
    ...(n < 2
      ? notComputable(['sdDifference', 'df', ...T_TEST, ...AVERAGE_SD], NOT_COMPUTABLE.fewerThanTwoPairs)
      : {
          sdDifference: { value: sampleStandardDeviation(differences) },
          df: { value: n - 1 },
          ...pairedT(differences, meanDifference),
          ...averageSdEffects(first, second, meanDifference),
        }),
    ...signedRank(differences),
  });
}

/** 10^0 … 10^22: every one an exact double. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * second − first, to the precision its terms carry. A phase mean has 10 significant digits
 * (phase-means.ts, roundMean), so the difference of two is exact in decimal at the finer of
 * their last digits (the 10th significant digit of the smaller, k decimals), but not in
 * binary: 80.8 − 80.5 is 0.29999999999999716 and 78.4 − 78.1 is 0.30000000000000426.
 * Unrounded, differences that are equal would vary by that alone (a t of 10^13 where they
 * "do not vary") and would not be ties in the signed-rank test. The double nearest the
 * decimal: round(d·10^k) is exact (d·10^k lies within a millionth of an integer) and so is
 * 10^k, so their quotient is; where d·10^k reaches 2^53 (terms 10^6 apart in size) the
 * difference is left as computed. analysis.R rounds the same way.
 */
export function pairedDifference(first: number, second: number): number {
  const difference = second - first;
  const a = Math.abs(first);
  const b = Math.abs(second);
  const finer = a === 0 ? b : b === 0 ? a : Math.min(a, b);
  if (finer === 0) return difference;
  const k = 9 - Math.floor(Math.log10(finer));
  if (k < 0 || k > 22) return difference;
  const scaled = difference * POWERS_OF_TEN[k]!;
  if (Math.abs(scaled) >= 2 ** 53) return difference;
  return Math.round(scaled) / POWERS_OF_TEN[k]!;
}

/**
 * Differences equal in truth made equal again, where the phase means' rounding set them
 * apart. A mean of nights that repeats in decimal (1/14 of the nights, 13/14 of the wake-ups)
 * keeps 10 significant digits (roundMean), so two participants' +1/14 came out 0.0714285715
 * and 0.0714285714: a d_z of 1.4·10^9 where the differences do not vary, and no ties in the
 * signed-rank test. Each difference is off its true value by at most 1.5 units of the 10th
 * significant digit of the larger of its two means; differences whose sizes (|d|) lie within
 * 10 such units of each other are one size, that of the smallest among them, each keeping
 * its sign, and a size within them of zero is zero. Sizes that close are taken as one
 * whatever their truth: the rounding, which moves each by up to 1.5 units, cannot tell
 * them apart (two real differences can be that close: means of 40 and 41 nights against 37
 * and 39 gave -0.002030488 and -0.002030492; the tests agree at 1e-6). analysis.R does the
 * same, step for step.
 */
export function tieDifferences(first: readonly number[], second: readonly number[], differences: readonly number[]): number[] {
  const size = differences.map(Math.abs);
  const tolerance = differences.map((_, i) => roundingTolerance(first[i]!, second[i]!));
  const order = [...size.keys()].sort((i, j) => size[i]! - size[j]! || i - j);
  const tied = differences.slice();
  let representative: number | null = null;
  let representativeTolerance = 0;
  for (const i of order) {
    if (size[i]! <= tolerance[i]!) {
      tied[i] = 0;
      continue;
    }
    if (representative === null || size[i]! - representative > Math.max(representativeTolerance, tolerance[i]!)) {
      representative = size[i]!;
      representativeTolerance = tolerance[i]!;
    }
    tied[i] = differences[i]! < 0 ? -representative : representative;
  }
  return tied;
}

/** 10 units of the 10th significant digit of the larger of two phase means (0 when both are 0). */
function roundingTolerance(first: number, second: number): number {
  const larger = Math.max(Math.abs(first), Math.abs(second));
  return larger === 0 ? 0 : 10 ** (Math.floor(Math.log10(larger)) - 8);
}

/** The t test, d_z and its interval: all rest on the spread of the differences. */
function pairedT(differences: readonly number[], meanDifference: number): Outcomes<(typeof T_TEST)[number]> {
  const n = differences.length;
  const df = n - 1;
  const variance = sampleVariance(differences);
  const standardError = Math.sqrt(variance / n);
  if (isEssentiallyConstant(standardError, meanDifference)) return notComputable(T_TEST, NOT_COMPUTABLE.differencesDoNotVary);
  const t = meanDifference / standardError;
  const margin = studentTQuantile(1 - (1 - CONFIDENCE_LEVEL) / 2, df) * standardError;
  const ncp = noncentralityInterval(t, df, CONFIDENCE_LEVEL);
  return {
    t: { value: t },
    p: { value: 2 * studentTCdf(-Math.abs(t), df) },
    ciLow: { value: meanDifference - margin },
    ciHigh: { value: meanDifference + margin },
    dz: { value: meanDifference / Math.sqrt(variance) },
    ...(ncp === null
      ? notComputable(['dzLow', 'dzHigh'], NOT_COMPUTABLE.noncentralityBeyondLimit)
      : { dzLow: { value: ncp.low / Math.sqrt(n) }, dzHigh: { value: ncp.high / Math.sqrt(n) } }),
  };
}

/** d_av and g_av: standardised by the phases' own SDs, so they need one phase that varies. */
function averageSdEffects(
  first: readonly number[],
  second: readonly number[],
  meanDifference: number,
): Outcomes<(typeof AVERAGE_SD)[number]> {
  const n = first.length;
  const sdFirst = sampleStandardDeviation(first);
  const sdSecond = sampleStandardDeviation(second);
  const doesNotVary = (sd: number, values: readonly number[]) => isEssentiallyConstant(sd / Math.sqrt(n), mean(values));
  if (doesNotVary(sdFirst, first) && doesNotVary(sdSecond, second)) return notComputable(AVERAGE_SD, NOT_COMPUTABLE.phasesDoNotVary);
  const dav = meanDifference / ((sdFirst + sdSecond) / 2);
  const df = n - 1;
  return {
    dav: { value: dav },
    gav: df < 2 ? { reason: NOT_COMPUTABLE.hedgesNeedsThreePairs } : { value: dav * hedgesCorrection(df) },
  };
}

/** Hedges & Olkin's approximation of the bias correction J (methods.ts, HEDGES_CORRECTION). */
export function hedgesCorrection(df: number): number {
  return 1 - 3 / (4 * df - 1);
}

function signedRank(differences: readonly number[]): Outcomes<(typeof SIGNED_RANK)[number]> {
  const test = wilcoxonSignedRank(differences);
  if (test === null) return notComputable(SIGNED_RANK, NOT_COMPUTABLE.allDifferencesZero);
  return { wilcoxonV: { value: test.v }, wilcoxonP: { value: test.p }, wilcoxonMethod: { value: test.method } };
}

function notComputable<K extends PairedStatistic>(statistics: readonly K[], reason: string): Outcomes<K> {
  return Object.fromEntries(statistics.map((statistic) => [statistic, { reason }])) as Outcomes<K>;
}

function assemble(n: number, outcomes: Outcomes<PairedStatistic>): PairedComparison {
  const reasons: Partial<Record<PairedStatistic, string>> = {};
  const values = Object.fromEntries(
    PAIRED_STATISTICS.map((statistic) => {
      const outcome: Outcome<unknown> = outcomes[statistic];
      if ('value' in outcome) return [statistic, outcome.value];
      reasons[statistic] = outcome.reason;
      return [statistic, null];
    }),
  ) as Omit<PairedComparison, 'n' | 'notComputable'>;
  return { n, ...values, notComputable: reasons };
}
