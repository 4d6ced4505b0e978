import { describe, expect, it } from 'vitest';
import { roundMean } from '../export/phase-means.ts';
import { NOT_COMPUTABLE } from './methods.ts';
import { PAIRED_STATISTICS, comparePaired, hedgesCorrection, pairedDifference } from './paired.ts';

/** Rounds as a paper prints: to `digits` decimals. */
const printed = (value: number | null, digits: number) => (value === null ? null : Number(value.toFixed(digits)));

describe('comparePaired against published worked examples', () => {
  /**
   * Lakens (2013), Frontiers in Psychology 4:863: ten people rate two movies (Table 1 data).
   * His within-subjects report: Movie 1 (M = 8.7) higher than Movie 2 (M = 7.7), t(9) = 4.74,
   * p = .001, 95% CI of the difference [0.52, 1.48], d_z = 1.50, d_av = 1.13,
   * Hedges's g_av = 1.03. Printed to 2 decimals (p to 3), so compared at that precision;
   * the full-precision values below are R 4.2.2's (t.test, and the formulas) on the same data.
   */
  const movie1 = [9, 7, 8, 9, 8, 9, 9, 10, 9, 9];
  const movie2 = [9, 6, 7, 8, 7, 9, 8, 8, 8, 7];
  const lakens = comparePaired(movie2, movie1);

  it('Lakens 2013 movie ratings: the published values, at their printed precision', () => {
    expect(printed(lakens.meanFirst, 1)).toBe(7.7);
    expect(printed(lakens.meanSecond, 1)).toBe(8.7);
    expect(lakens.df).toBe(9);
    expect(printed(lakens.t, 2)).toBe(4.74);
    expect(printed(lakens.p, 3)).toBe(0.001);
    expect([printed(lakens.ciLow, 2), printed(lakens.ciHigh, 2)]).toEqual([0.52, 1.48]);
    expect(printed(lakens.dz, 2)).toBe(1.5);
    expect(printed(lakens.dav, 2)).toBe(1.13);
    expect(printed(lakens.gav, 2)).toBe(1.03);
  });

  it('Lakens 2013 movie ratings: R 4.2.2 to 1e-9', () => {
    expect(lakens.t).toBeCloseTo(4.743416490252569, 9);
    expect(lakens.p).toBeCloseTo(0.00105387125701655, 9);
    expect(lakens.ciLow).toBeCloseTo(0.5230953960195569, 9);
    expect(lakens.ciHigh).toBeCloseTo(1.47690460398044321, 9);
    expect(lakens.dz).toBeCloseTo(1.5, 12);
    expect(lakens.dav).toBeCloseTo(1.128696261317543, 9);
    expect(lakens.gav).toBeCloseTo(1.031950867490325, 9);
    // ties, so the normal approximation: wilcox.test(movie1, movie2, paired = TRUE)
    expect(lakens.wilcoxonV).toBe(36);
    expect(lakens.wilcoxonP).toBeCloseTo(0.0102782619021155, 9);
    expect(lakens.wilcoxonMethod).toBe('normal approximation');
  });

  /**
   * R's documentation of t.test (example(t.test)) on the sleep data (Cushny & Peebles): the
   * paired test of group 2 against group 1 prints t = 4.0621 (its sign follows the order),
   * df = 9, p-value = 0.002833, 95% CI 0.7001142 2.4598858, mean difference 1.58.
   */
  it("R's t.test example on the sleep data, at R's printed precision", () => {
    const group1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
    const group2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
    const sleep = comparePaired(group1, group2);
    expect(printed(sleep.t, 4)).toBe(4.0621);
    expect(sleep.df).toBe(9);
    expect(printed(sleep.p, 6)).toBe(0.002833);
    expect(printed(sleep.ciLow, 7)).toBe(0.7001142);
    expect(printed(sleep.ciHigh, 7)).toBe(2.4598858);
    expect(sleep.meanDifference).toBeCloseTo(1.58, 12);
    // A zero difference and ties: the normal approximation (R 4.2.2: V = 45, p = 0.009090698015925)
    expect(sleep.wilcoxonV).toBe(45);
    expect(sleep.wilcoxonP).toBeCloseTo(0.0090906980159250559, 12);
  });

  /**
   * R's documentation of wilcox.test (example(wilcox.test)), Hollander & Wolfe's depression
   * scores: wilcox.test(x, y, paired = TRUE, alternative = "greater") prints V = 40,
   * p-value = 0.01953 (exact); two-sided it is twice that, 10/256.
   */
  it("R's wilcox.test example (Hollander & Wolfe depression scale)", () => {
    const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
    const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
    const depression = comparePaired(y, x);
    expect(depression.wilcoxonV).toBe(40);
    expect(depression.wilcoxonMethod).toBe('exact');
    expect(printed(depression.wilcoxonP! / 2, 5)).toBe(0.01953);
    expect(depression.wilcoxonP).toBe(10 / 256);
  });

  /**
   * effsize's own test (mtorchiano/effsize, tests/testthat/testCohenD.R, issue #28) on
   * Howell's moon-illusion ratios against 1: cohen.d(paired = TRUE, noncentral = TRUE) gives
   * the interval [0.4907785, 2.3358769]. effsize divides the noncentrality limits by √df
   * where d_z needs √n, and finds them with uniroot's default tolerance (about 1.2e-4 in
   * the noncentrality), so its limits times √df must equal ours times √n to about 1e-4.
   * To 1e-6, the same limits from R's pt and uniroot(tol = 1e-12): 0.465593476249487 and
   * 2.216010612864383.
   */
  it("effsize's noncentral interval example (moon illusion), same noncentrality limits", () => {
    const moon = [1.73, 1.06, 2.03, 1.4, 0.95, 1.13, 1.41, 1.73, 1.63, 1.56];
    const result = comparePaired(
      moon.map(() => 1),
      moon,
    );
    const n = moon.length;
    expect((result.dzLow! * Math.sqrt(n)) / Math.sqrt(n - 1)).toBeCloseTo(0.4907785, 4);
    expect((result.dzHigh! * Math.sqrt(n)) / Math.sqrt(n - 1)).toBeCloseTo(2.3358769, 4);
    expect(result.dzLow).toBeCloseTo(0.465593476249487, 6);
    expect(result.dzHigh).toBeCloseTo(2.216010612864383, 6);
  });
});

describe('comparePaired at the edges', () => {
  const nullsWithReasons = (result: ReturnType<typeof comparePaired>) =>
    PAIRED_STATISTICS.filter((statistic) => result[statistic] === null).every(
      (statistic) => typeof result.notComputable[statistic] === 'string',
    );

  it('n = 0: every statistic null, because there are no pairs', () => {
    const result = comparePaired([], []);
    expect(result.n).toBe(0);
    for (const statistic of PAIRED_STATISTICS) {
      expect(result[statistic]).toBeNull();
      expect(result.notComputable[statistic]).toBe(NOT_COMPUTABLE.noPairs);
    }
  });

  it('n = 1: the means and the Wilcoxon test (as R: p = 1), nothing that needs a spread', () => {
    const result = comparePaired([6.5], [7]);
    expect(result).toMatchObject({ n: 1, meanFirst: 6.5, meanSecond: 7, meanDifference: 0.5, sdDifference: null, t: null, dav: null });
    expect(result).toMatchObject({ wilcoxonV: 1, wilcoxonP: 1, wilcoxonMethod: 'exact' });
    expect(result.notComputable.t).toBe(NOT_COMPUTABLE.fewerThanTwoPairs);
    expect(result.notComputable.sdDifference).toBe(NOT_COMPUTABLE.fewerThanTwoPairs);
    expect(nullsWithReasons(result)).toBe(true);
  });

  it('n = 2: t, d_z with its interval and d_av as R computes them; g_av empty (J = 0 at df = 1)', () => {
    const result = comparePaired([3.1, 4.0], [3.6, 4.2]);
    // R 4.2.2: t.test(c(3.6, 4.2), c(3.1, 4.0), paired = TRUE); pt/uniroot for the d_z limits
    expect(result.t).toBeCloseTo(2.33333333333333526, 9);
    expect(result.p).toBeCloseTo(0.25776211681831296, 9);
    expect(result.ciLow).toBeCloseTo(-1.55593071042620279, 9);
    expect(result.ciHigh).toBeCloseTo(2.25593071042620297, 9);
    expect(result.dz).toBeCloseTo(1.64991582276861215, 9);
    expect(result.dzLow).toBeCloseTo(-0.74375350233556303, 6);
    expect(result.dzHigh).toBeCloseTo(4.0234410191151655, 6);
    expect(result.dav).toBeCloseTo(0.65996632910744446, 9);
    expect(result.gav).toBeNull();
    expect(result.notComputable).toEqual({ gav: NOT_COMPUTABLE.hedgesNeedsThreePairs });
  });

  it('differences that do not vary: no t, p, CI or d_z (R: "data are essentially constant"); d_av still, phases vary', () => {
    const result = comparePaired([5, 6, 8, 9], [5.5, 6.5, 8.5, 9.5]);
    expect(result.sdDifference).toBe(0);
    for (const statistic of ['t', 'p', 'ciLow', 'ciHigh', 'dz', 'dzLow', 'dzHigh'] as const) {
      expect(result[statistic]).toBeNull();
      expect(result.notComputable[statistic]).toBe(NOT_COMPUTABLE.differencesDoNotVary);
    }
    expect(result.dav).toBeCloseTo(0.5 / Math.sqrt(10 / 3), 12);
    // every |difference| tied: the normal approximation, as R
    expect(result.wilcoxonMethod).toBe('normal approximation');
  });

  it('a constant shift blurred by rounding (7.1 + 0.3 − 7.1 ≠ 0.3) still does not vary', () => {
    const first = [7.1, 8.2, 9.3, 10.4];
    const second = first.map((x) => x + 0.3);
    expect(second.map((y, i) => y - first[i]!)).not.toEqual([0.3, 0.3, 0.3, 0.3]);
    const result = comparePaired(first, second);
    expect(result.sdDifference).toBe(0);
    expect(result.meanDifference).toBe(0.3);
    expect(result.t).toBeNull();
    expect(result.notComputable.t).toBe(NOT_COMPUTABLE.differencesDoNotVary);
  });

  it('phase means 0.3 apart whose binary differences vary more than a t test tolerates: still do not vary', () => {
    // 80.8 − 80.5 = 0.29999999999999716, 78.4 − 78.1 = 0.30000000000000426: unrounded,
    // t = 6.3e13 and p = 2.5e-28 (R's t.test gives the same), and a plot axis of ±3.7e13.
    const result = comparePaired([80.5, 78.1, 77.6], [80.8, 78.4, 77.9]);
    expect(result).toMatchObject({ meanDifference: 0.3, sdDifference: 0, t: null, p: null, dz: null });
    expect(result.notComputable.t).toBe(NOT_COMPUTABLE.differencesDoNotVary);
    expect(result.wilcoxonMethod).toBe('normal approximation'); // three tied |differences|, as R with exact ties
  });

  it("means of different sizes keep the finer one's last digit: 9.876543215 → 12.3456789 and 7.530864315 → 10 are both 2.469135685", () => {
    // in binary 2.4691356849999995 and 2.4691356850000004; rounded at the larger's tenth digit, they fell on either side of a half
    const first = [9.876543215, 8.123456785, 7.530864315, 9.999999995];
    const second = [12.3456789, 10.59259247, 10, 12.46913568];
    expect(second.map((y, i) => pairedDifference(first[i]!, y))).toEqual([2.469135685, 2.469135685, 2.469135685, 2.469135685]);
    expect(comparePaired(first, second)).toMatchObject({ sdDifference: 0, t: null });
  });

  it('equal differences are ties in the signed-rank test however they were reached', () => {
    // 0.4 − 0.2 and 1.3 − 1.1 are 0.2 in decimal, 0.2 and 0.20000000000000018 in binary
    const result = comparePaired([0.2, 1.1, 5, 7, 9], [0.4, 1.3, 6, 9, 12]);
    expect(result.wilcoxonMethod).toBe('normal approximation');
    const untied = comparePaired([0.2, 1.2, 5, 7, 9], [0.4, 1.3, 6, 9, 12]);
    expect(untied.wilcoxonMethod).toBe('exact');
  });

  it('phase means of nights that repeat in decimal (k/14), rounded to 10 digits: equal differences still do not vary, and are ties', () => {
    // heat-wave nights 1→2, 3→4, 5→6 of 14: every participant +1/14, but the rounded means
    // 0.07142857143, 0.1428571429, 0.2142857143 ... give differences apart in their last digit
    const share = (nights: number) => roundMean(nights / 14);
    const first = [1, 3, 5].map(share);
    const second = [2, 4, 6].map(share);
    expect(new Set(second.map((y, i) => pairedDifference(first[i]!, y))).size).toBeGreaterThan(1);
    const result = comparePaired(first, second);
    expect(result).toMatchObject({ sdDifference: 0, t: null, p: null, dz: null, dzLow: null });
    expect(result.notComputable.dz).toBe(NOT_COMPUTABLE.differencesDoNotVary);
    // R: wilcox.test(rep(1/14, 3), exact = FALSE): V = 6, p = 0.148914673178766
    expect(result).toMatchObject({ wilcoxonV: 6, wilcoxonMethod: 'normal approximation' });
    expect(result.wilcoxonP).toBeCloseTo(0.148914673178766, 12);
    // heat wake-ups summed: 13→15, 12→14, 20→22 of 14 nights, every participant +2/14 (means 1 to 10)
    const wakeups = comparePaired([13, 12, 20].map(share), [15, 14, 22].map(share));
    expect(wakeups).toMatchObject({ sdDifference: 0, t: null, dz: null });
  });

  it('differences of one size and opposite signs are tied in |d|, and their mean is 0', () => {
    // +1/14 and −1/14: R wilcox.test(c(1/14, -1/14), exact = FALSE): V = 1.5, p = 1
    const share = (nights: number) => roundMean(nights / 14);
    const result = comparePaired([1, 3].map(share), [2, 2].map(share));
    expect(result).toMatchObject({ meanDifference: 0, wilcoxonV: 1.5, wilcoxonP: 1, wilcoxonMethod: 'normal approximation' });
  });

  it("differences apart by more than the means' rounding stay apart", () => {
    // 0.0714286 and 1/14 (0.07142857143) are 2.9e-8 apart: a real difference, however small
    const result = comparePaired([0, 0, 0], [roundMean(1 / 14), 0.0714286, 0.2]);
    expect(result.sdDifference).toBeGreaterThan(0);
    expect(result.wilcoxonMethod).toBe('exact');
  });

  it('neither phase varies: no d_av or g_av', () => {
    const result = comparePaired([5, 5, 5], [6, 6, 6]);
    expect(result.dav).toBeNull();
    expect(result.notComputable.dav).toBe(NOT_COMPUTABLE.phasesDoNotVary);
    expect(result.notComputable.gav).toBe(NOT_COMPUTABLE.phasesDoNotVary);
  });

  it('every difference zero: no Wilcoxon test, and no t (nothing varies); d_av is 0', () => {
    const result = comparePaired([4, 6, 7], [4, 6, 7]);
    expect(result).toMatchObject({ wilcoxonV: null, wilcoxonP: null, wilcoxonMethod: null, t: null, dav: 0, gav: 0 });
    expect(result.notComputable.wilcoxonP).toBe(NOT_COMPUTABLE.allDifferencesZero);
    expect(result.notComputable.t).toBe(NOT_COMPUTABLE.differencesDoNotVary);
  });

  it('a strong effect has its interval: t of 150 with 10 pairs (one beyond |ncp| = 24 was left empty)', () => {
    const first = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    const second = first.map((x, i) => x + 5 + (i % 2 === 0 ? 0.1 : -0.1));
    const result = comparePaired(first, second);
    expect(result.t).toBeCloseTo(150, 9);
    // SciPy 1.17.1: brentq on nct.cdf(t, 9, λ) − 0.975 and − 0.025, each λ divided by √10
    expect(result.dzLow).toBeCloseTo(25.972440558637512, 7);
    expect(result.dzHigh).toBeCloseTo(68.96951591349736, 7);
  });

  it('a t too large for the noncentral range: d_z without its interval', () => {
    const first = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    const second = first.map((x, i) => x + 5 + (i % 2 === 0 ? 0.001 : -0.001));
    const result = comparePaired(first, second);
    expect(result.t).toBeCloseTo(15_000, 4);
    expect(result.dz).not.toBeNull();
    expect([result.dzLow, result.dzHigh]).toEqual([null, null]);
    expect(result.notComputable.dzLow).toBe(NOT_COMPUTABLE.noncentralityBeyondLimit);
  });

  it('never NaN or infinite, whatever small data come', () => {
    const cases: [number[], number[]][] = [
      [[0], [0]],
      [
        [0, 0],
        [0, 0],
      ],
      [
        [1, 1],
        [1, 2],
      ],
      [
        [1e-300, 2e-300],
        [3e-300, 1e-300],
      ],
      [
        [1e300, 1e300],
        [1e300, 1e300],
      ],
      [
        [-3, 2, 2],
        [-3, 2, 5],
      ],
    ];
    for (const [first, second] of cases) {
      const result = comparePaired(first, second);
      for (const statistic of PAIRED_STATISTICS) {
        const value = result[statistic];
        if (typeof value === 'number') expect(Number.isFinite(value), `${statistic} of ${first} vs ${second}`).toBe(true);
      }
      expect(nullsWithReasons(result)).toBe(true);
    }
  });

  it("a caller's bug throws: unequal lengths, a non-finite value", () => {
    expect(() => comparePaired([1, 2], [1])).toThrow(RangeError);
    expect(() => comparePaired([1, Number.NaN], [1, 2])).toThrow(RangeError);
  });

  it('J = 1 − 3 / (4·df − 1)', () => {
    expect(hedgesCorrection(9)).toBe(1 - 3 / 35);
    expect(hedgesCorrection(1)).toBe(0);
  });
});
