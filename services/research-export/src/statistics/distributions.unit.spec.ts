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
