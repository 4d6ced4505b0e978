import { standardNormalCdf } from './distributions.ts';

/**
 * The Wilcoxon signed-rank test exactly as R's `wilcox.test(second, first, paired = TRUE)`
 * computes it with its defaults (`exact = NULL, correct = TRUE`), so that analysis.R gives
 * the same V and p:
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
  const nonZero = differences.filter((difference) => difference !== 0);
  const n = nonZero.length;
  if (n === 0) return null;
  const { ranks, tieSizes } = midranks(nonZero.map(Math.abs));
  const v = nonZero.reduce((sum, difference, i) => (difference > 0 ? sum + ranks[i]! : sum), 0);
  const hasTies = tieSizes.some((size) => size > 1);
  const droppedZeros = n < differences.length;
  if (n < EXACT_SIGNED_RANK_BELOW && !hasTies && !droppedZeros) return { v, p: exactTwoSidedP(v, n), method: 'exact' };
  return { v, p: normalTwoSidedP(v, n, tieSizes), method: 'normal approximation' };
}

/** Ranks 1..n with tied values sharing the mean of their ranks (R's `rank`), and the size of each group of ties. */
export function midranks(values: readonly number[]): { ranks: number[]; tieSizes: number[] } {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Array<number>(values.length);
  const tieSizes: number[] = [];
  for (let start = 0; start < order.length;) {
    let end = start + 1;
    while (end < order.length && values[order[end]!] === values[order[start]!]) end += 1;
    const meanRank = (start + 1 + end) / 2;
    for (let k = start; k < end; k += 1) ranks[order[k]!] = meanRank;
    tieSizes.push(end - start);
    start = end;
  }
  return { ranks, tieSizes };
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

function normalTwoSidedP(v: number, n: number, tieSizes: readonly number[]): number {
  const centred = v - (n * (n + 1)) / 4;
  const tieCorrection = tieSizes.reduce((sum, t) => sum + t ** 3 - t, 0) / 48;
  const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieCorrection);
  const z = (centred - Math.sign(centred) * 0.5) / sigma;
  return 2 * standardNormalCdf(-Math.abs(z));
}
