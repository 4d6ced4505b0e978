import jStat from 'jstat';
import { describe, expect, it } from 'vitest';
import { NONCENTRAL_T_NCP_LIMIT, noncentralTCdf, standardNormalCdf, studentTCdf, studentTQuantile } from './distributions.ts';

/** Expected values are R 4.2.2's pt, qt and pnorm, printed with options(digits = 17). */
describe('the distributions agree with R', () => {
  it('central t and normal, to 1e-12 relative, tails included', () => {
    const relative = (value: number, expected: number) => Math.abs(value - expected) / Math.abs(expected);
    expect(relative(studentTCdf(-3.2, 7), 7.5329056712446487e-3)).toBeLessThan(1e-12);
    expect(relative(studentTQuantile(0.975, 7), 2.3646242515927844)).toBeLessThan(1e-12);
    expect(relative(studentTQuantile(0.975, 60), 2.0002978220142595)).toBeLessThan(1e-12);
    expect(relative(2 * studentTCdf(-12, 3), 1.245015800789336e-3)).toBeLessThan(1e-12);
    expect(relative(standardNormalCdf(-2.5), 6.2096653257761349e-3)).toBeLessThan(1e-12);
    expect(relative(standardNormalCdf(-9), 1.1285884059538408e-19)).toBeLessThan(1e-12);
  });

  it(`noncentral t, to 1e-7, up to the limit |ncp| = ${NONCENTRAL_T_NCP_LIMIT} where jstat is trusted`, () => {
    const cases: [q: number, df: number, ncp: number, r: number][] = [
      [20, 30, 24, 0.06834482099793901],
      [26, 5, 24, 0.51283321860197395],
      [-20, 30, -24, 0.93165517900206096],
      [22, 1, 23.5, 0.28593569801590413],
      [3, 9, 1.5, 0.87824794798263284],
      [-1.2, 4, 0.7, 0.044688860500823879],
    ];
    for (const [q, df, ncp, r] of cases) expect(noncentralTCdf(q, df, ncp), `pt(${q}, ${df}, ${ncp})`).toBeCloseTo(r, 7);
  });
});

/**
 * The series jstat sums for the noncentral t CDF (Guenther 1978): P(T <= t) = Φ(−δ) +
 * ½ Σ_j [p_j I_y(j + ½, ν/2) + q_j I_y(j + 1, ν/2)], y = t²/(t² + ν), with Poisson weights
 * p_j and q_j, every term computed (at least 200, then until two in a row are below 1e-14).
 * patches/jstat+1.9.6.patch leaves out the terms too small to change the sum; this is
 * what it must still equal.
 */
function noncentralTCdfEveryTerm(t: number, df: number, ncp: number): number {
  const delta = t < 0 ? -ncp : ncp;
  let sum = jStat.normal.cdf(-delta, 0, 1);
  const y = (t * t) / (t * t + df);
  let p = Math.exp((-delta * delta) / 2);
  let q = Math.exp((-delta * delta) / 2 - 0.5 * Math.log(2) - jStat.gammaln(1.5)) * delta;
  let term = 1;
  let previous = 1;
  for (let j = 0; j < 200 || previous > 1e-14 || term > 1e-14; j++) {
    previous = term;
    if (j > 0) {
      p *= (delta * delta) / (2 * j);
      q *= (delta * delta) / (2 * (j + 0.5));
    }
    term = p * jStat.beta.cdf(y, j + 0.5, df / 2) + q * jStat.beta.cdf(y, j + 1, df / 2);
    sum += 0.5 * term;
  }
  return t < 0 ? 1 - sum : sum;
}

describe('the noncentral t CDF, as patched', () => {
  it('equals its whole series to within a few of the last bits, the skipped terms summed in', () => {
    let compared = 0;
    for (const df of [1, 2, 5, 9, 30, 99, 416, 2000])
      for (const ncp of [-24, -17.3, -6, -1.7, -0.2, 0.3, 1.9, 4.4, 12, 21.7, 24])
        for (const t of [-30, -5, -1.1, -0.05, 0.05, 0.8, 2.5, 7, 19.3, 40]) {
          const everyTerm = noncentralTCdfEveryTerm(t, df, ncp);
          const patched = noncentralTCdf(t, df, ncp);
          // a few of the sum's last bits (its rounding differs); for t < 0 the sum is 1 − P, so
          // its bits are P's absolute error; 1e-300 where the CDF underflows
          const sum = t < 0 ? 1 - everyTerm : everyTerm;
          expect(Math.abs(patched - everyTerm), `pt(${t}, ${df}, ${ncp})`).toBeLessThanOrEqual(Math.max(1e-15 * sum, 1e-300));
          compared++;
        }
    expect(compared).toBe(880);
  });
});
