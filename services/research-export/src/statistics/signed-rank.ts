import { standardNormalCdf } from './distributions.ts';

/**
 * The Wilcoxon signed-rank test exactly as R's `wilcox.test(second, first, paired = TRUE)`
 * computed it with its defaults (`exact = NULL, correct = TRUE`) before R 4.6, so that
 * analysis.R gives the same V and p (it passes that choice of `exact` itself: R 4.6's
 * default is an exact conditional p when there are ties):
 *
 * - differences that are exactly 0 are dropped, and n counts the rest;
 * - |differences| are ranked, ties sharing their mean rank; V = the sum of the ranks of the
 *   positive differences;
 * - with fewer than {@link EXACT_SIGNED_RANK_BELOW} differences, no tie and no zero dropped,
 *   p comes from the exact null distribution of V;
 * - otherwise from the normal approximation: mean n(n+1)/4, variance
 *   n(n+1)(2n+1)/24 − Σ(t³ − t)/48 over groups of t tied ranks, and a continuity
 *   correction of 0.5 towards the mean.
 */

export type SignedRankMethod = 'exact' | 'normal approximation';

export interface SignedRankTest {
  v: number;
  /** Two-sided. */
  p: number;
  method: SignedRankMethod;
}

/** R's `exact = NULL` means exact when n < 50. */
export const EXACT_SIGNED_RANK_BELOW = 50;

/** The test of the differences; null when every difference is 0 (nothing to rank). */
export function wilcoxonSignedRank(differences: readonly number[]): SignedRankTest | null {
  const { n, v, tieTerm } = signedRankSum(differences);
  if (n === 0) return null;
  const droppedZeros = n < differences.length;
  if (n < EXACT_SIGNED_RANK_BELOW && tieTerm === 0 && !droppedZeros) return { v, p: exactTwoSidedP(v, n), method: 'exact' };
  return { v, p: normalTwoSidedP(v, n, tieTerm), method: 'normal approximation' };
}

/**
 * V (the sum of the midranks of |d| over the positive d, R's `rank` for the midranks), n
 * (the nonzero differences) and Σ(t³ − t) over the groups of t tied |d| (0: no ties).
 * The |d| of all and of the positive differences are sorted as numbers (typed arrays: no
 * comparison function called), then walked together: a group of equal |d| at sorted
 * positions start..end − 1 has the midrank (start + 1 + end) / 2, counted once for each
 * positive difference in it. Midranks are multiples of ½ and V < 2^53, so the sum is
 * exact whatever its order.
 */
export function signedRankSum(differences: readonly number[]): { n: number; v: number; tieTerm: number } {
  let n = 0;
  let positives = 0;
  for (const difference of differences) {
    if (difference !== 0) n += 1;
    if (difference > 0) positives += 1;
  }
  const all = new Float64Array(n);
  const positive = new Float64Array(positives);
  let a = 0;
  let p = 0;
  for (const difference of differences) {
    if (difference === 0) continue;
    all[a++] = Math.abs(difference);
    if (difference > 0) positive[p++] = difference;
  }
  all.sort();
  positive.sort();
  let v = 0;
  let tieTerm = 0;
  p = 0;
  for (let start = 0; start < n;) {
    const value = all[start]!;
    let end = start + 1;
    while (end < n && all[end] === value) end += 1;
    let positiveInGroup = 0;
    while (p < positives && positive[p] === value) {
      positiveInGroup += 1;
      p += 1;
    }
    v += positiveInGroup * ((start + 1 + end) / 2);
    const t = end - start;
    tieTerm += t * t * t - t;
    start = end;
  }
  return { n, v, tieTerm };
}

/**
 * How many of the 2^n sign patterns give each value of V (0 .. n(n+1)/2): the coefficients
 * of Π(1 + x^i), built one rank at a time. For n < 50 every count is below 2^49, exact in
 * a double, as in R's `csignrank`.
 */
export function signedRankCounts(n: number): number[] {
  let counts = [1];
  for (let rank = 1; rank <= n; rank += 1) {
    const next = new Array<number>(counts.length + rank).fill(0);
    counts.forEach((count, v) => {
      next[v]! += count;
      next[v + rank]! += count;
    });
    counts = next;
  }
  return counts;
}

/** R: the smaller tail at V (P(V' >= V) above the mean n(n+1)/4, else P(V' <= V)), doubled, at most 1. */
function exactTwoSidedP(v: number, n: number): number {
  const counts = signedRankCounts(n);
  const inTail = (value: number) => (v > (n * (n + 1)) / 4 ? value >= v : value <= v);
  const tail = counts.reduce((sum, count, value) => (inTail(value) ? sum + count : sum), 0);
  return Math.min(1, (2 * tail) / 2 ** n);
}

function normalTwoSidedP(v: number, n: number, tieTerm: number): number {
  const centred = v - (n * (n + 1)) / 4;
  const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48);
  const z = (centred - Math.sign(centred) * 0.5) / sigma;
  return 2 * standardNormalCdf(-Math.abs(z));
}
