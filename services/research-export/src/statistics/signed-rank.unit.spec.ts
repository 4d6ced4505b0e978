import { describe, expect, it } from 'vitest';
import { EXACT_SIGNED_RANK_BELOW, signedRankCounts, signedRankSum, wilcoxonSignedRank } from './signed-rank.ts';

/**
 * Expected values are R 4.2.2's: wilcox.test(d, rep(0, length(d)), paired = TRUE) with its
 * defaults, printed with options(digits = 17).
 */

/** ±1..±n, every third negative: no ties, no zeros. */
const signedRanks = (n: number) => Array.from({ length: n }, (_, i) => (i + 1) * ((i + 1) % 3 === 0 ? -1 : 1));

describe('wilcoxonSignedRank, as R computes it', () => {
  it(`exact below ${EXACT_SIGNED_RANK_BELOW} differences`, () => {
    expect(wilcoxonSignedRank(signedRanks(49))).toEqual({ v: 817, p: expect.closeTo(0.041703854232423516, 14), method: 'exact' });
  });

  it(`the normal approximation from ${EXACT_SIGNED_RANK_BELOW} on`, () => {
    expect(wilcoxonSignedRank(signedRanks(50))).toEqual({
      v: 867,
      p: expect.closeTo(0.027063492176047903, 14),
      method: 'normal approximation',
    });
  });

  it('zeros are dropped and force the normal approximation, even for few differences', () => {
    expect(wilcoxonSignedRank([0, 1.5, -0.5, 2.25, 3, 0, 4.5, -1])).toEqual({
      v: 18,
      p: expect.closeTo(0.14221324193639251, 14),
      method: 'normal approximation',
    });
  });

  it('ties take their mean rank and force the normal approximation with the tie correction', () => {
    expect(wilcoxonSignedRank([1, 1, -1, 2, 2, 2, 3, -3])).toEqual({
      v: 26.5,
      p: expect.closeTo(0.25730340930148471, 14),
      method: 'normal approximation',
    });
  });

  it('every |difference| tied', () => {
    expect(wilcoxonSignedRank([0.25, 0.25, 0.25, 0.25, 0.25, 0.25])).toEqual({
      v: 21,
      p: expect.closeTo(0.019656157250169875, 14),
      method: 'normal approximation',
    });
  });

  it('small exact cases: above the mean, below it, and at it (p capped at 1)', () => {
    expect(wilcoxonSignedRank([0.3, -1.2, 2.5, 0.7])).toEqual({ v: 7, p: 0.625, method: 'exact' });
    expect(wilcoxonSignedRank([-0.3, 1.2, -2.5, -0.7])).toEqual({ v: 3, p: 0.625, method: 'exact' });
    expect(wilcoxonSignedRank([1, -2, -3, 4])).toEqual({ v: 5, p: 1, method: 'exact' });
  });

  it('nothing to rank when every difference is zero', () => {
    expect(wilcoxonSignedRank([0, 0, 0])).toBeNull();
    expect(wilcoxonSignedRank([])).toBeNull();
  });
});

describe('the pieces', () => {
  it("signedRankSum: V from R's midranks (ties sharing their mean rank), n without the zeros, Σ(t³ − t) of the ties", () => {
    // |d| 3, 1, 3, 2, 3 rank 4, 1, 4, 2, 4 (R: rank(c(3, 1, 3, 2, 3))); the positive ones: 3, 1, 2
    expect(signedRankSum([3, 1, -3, 2, -3, 0])).toEqual({ n: 5, v: 4 + 1 + 2, tieTerm: 27 - 3 });
    expect(signedRankSum([-0.5, -0.25])).toEqual({ n: 2, v: 0, tieTerm: 0 });
    expect(signedRankSum([])).toEqual({ n: 0, v: 0, tieTerm: 0 });
  });

  it('signedRankSum equals the sum of midranks found by sorting with a comparison, on random differences with ties', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let trial = 0; trial < 200; trial++) {
      // values on a coarse grid, so that ties and zeros are common
      const differences = Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.round((random() - 0.45) * 40) / 4);
      const nonZero = differences.filter((d) => d !== 0);
      const order = nonZero.map((_, i) => i).sort((i, j) => Math.abs(nonZero[i]!) - Math.abs(nonZero[j]!));
      const ranks: number[] = [];
      let tieTerm = 0;
      for (let start = 0; start < order.length;) {
        let end = start + 1;
        while (end < order.length && Math.abs(nonZero[order[end]!]!) === Math.abs(nonZero[order[start]!]!)) end++;
        for (let k = start; k < end; k++) ranks[order[k]!] = (start + 1 + end) / 2;
        tieTerm += (end - start) ** 3 - (end - start);
        start = end;
      }
      const v = nonZero.reduce((sum, d, i) => (d > 0 ? sum + ranks[i]! : sum), 0);
      expect(signedRankSum(differences)).toEqual({ n: nonZero.length, v, tieTerm });
    }
  });

  it('signedRankCounts: the 2^n sign patterns by their V, symmetric', () => {
    expect(signedRankCounts(3)).toEqual([1, 1, 1, 2, 1, 1, 1]);
    const counts = signedRankCounts(49);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2 ** 49);
    expect(counts).toEqual([...counts].reverse());
  });
});
