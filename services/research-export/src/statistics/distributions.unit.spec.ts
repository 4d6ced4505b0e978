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

  it('noncentral t, to 1e-11, where R computes it exactly (|ncp| <= 37.62)', () => {
    const cases: [q: number, df: number, ncp: number, r: number][] = [
      [20, 30, 24, 0.06834482099793901],
      [26, 5, 24, 0.51283321860197395],
      [-20, 30, -24, 0.93165517900206096],
      [22, 1, 23.5, 0.28593569801590413],
      [3, 9, 1.5, 0.87824794798263284],
      [-1.2, 4, 0.7, 0.044688860500823879],
    ];
    for (const [q, df, ncp, r] of cases) expect(noncentralTCdf(q, df, ncp), `pt(${q}, ${df}, ${ncp})`).toBeCloseTo(r, 11);
  });
});

describe('the noncentral t CDF', () => {
  /**
   * SciPy 1.17.1's nct.cdf (Boost's non_central_t), printed with repr: 80 points drawn from a
   * grid of df 1 to 10,000, |ncp| to 1,000 and t to ±1,100 (5,000 points, all of which agree
   * to 7e-13), 32 of them where an interval's search goes (ncp within 2.2 standard errors of
   * t). SciPy and a 40-digit integral by mpmath agree on these to 1e-14.
   */
  it('agrees with SciPy (Boost) to 1e-12 from df 1 to 10,000 and |ncp| to 1,000', () => {
    const cases: [t: number, df: number, ncp: number, scipy: number][] = [
      [-60, 1, -37.7, 0.4701572539482696],
      [-1.1, 1, -1.7, 0.7593297376181274],
      [55, 1, 0.3, 0.9917790938780541],
      [1100, 1, 0.3, 0.9995889000961887],
      [55, 1, 21.7, 0.6932265008876014],
      [26, 1, 25, 0.33663863111413894],
      [0.8, 1, 31, 1.880508739911183e-129],
      [95, 1, 52, 0.5841464741298608],
      [160, 1, 52, 0.745185875715668],
      [-60, 1, 90, 1.7348740939321774e-16],
      [26, 1, 90, 0.0005422231747319372],
      [420, 2, -1.7, 0.9999999236044793],
      [2.5, 2, 1.9, 0.5630539026438336],
      [-1000, 2, 4.4, 4.525201804950347e-13],
      [1100, 2, 150, 0.9815759987531353],
      [-45, 5, -66.398, 0.9459539680695906],
      [-1.1, 5, 0.3, 0.10081470965636398],
      [2.5, 5, 0.3, 0.952818745013944],
      [7, 5, 0.3, 0.99911607244637],
      [40, 5, 1.9, 0.9999965103627829],
      [3, 5, 3.0, 0.45014456969937755],
      [7, 5, 12, 0.017505311255483273],
      [45, 5, 23.602, 0.9262836728248017],
      [30, 5, 30.0, 0.4165518457154106],
      [160, 5, 31, 0.9992332855672588],
      [40, 5, 38, 0.4784250565415813],
      [80, 5, 80.0, 0.4159754054542534],
      [-1000, 9, -600, 0.045987208763249666],
      [0.05, 9, -1.7, 0.9598125739873055],
      [26, 9, -0.2, 0.9999999997620006],
      [0.05, 9, 4.4, 6.773661332420208e-6],
      [26, 9, 12, 0.9915406876919015],
      [26, 9, 31, 0.175127148380246],
      [55, 9, 31, 0.9690678893089925],
      [160, 9, 38, 0.9999667855690091],
      [7, 9, 90, 3.2206771336065776e-265],
      [55, 9, 90, 0.0042207182805418285],
      [160, 9, 150, 0.5432219152903042],
      [-5, 30, -6, 0.8097252515004282],
      [0, 30, -1.7, 0.955434537241457],
      [26, 30, 25, 0.5815578451762715],
      [3, 49, 3.0, 0.49400565017710363],
      [30, 49, 22.979, 0.9866822236433253],
      [30, 49, 25.213, 0.9295563563724012],
      [45, 49, 45.0, 0.47405597849797687],
      [80, 49, 92.214, 0.06284080029474624],
      [150, 49, 116.592, 0.9869792870481648],
      [150, 49, 150.0, 0.4732153870091148],
      [400, 49, 400.0, 0.47314058798346637],
      [900, 49, 699.978, 0.9869922925502015],
      [-1.1, 99, 1.9, 0.0014032351005441902],
      [-0.05, 416, -0.2, 0.5596294532642447],
      [0, 416, 1.9, 0.02871655981600182],
      [26, 416, 21.7, 0.9993103773298891],
      [40, 416, 38, 0.8763615183915723],
      [0, 632, 21.7, 1.025813952696916e-104],
      [30, 632, 28.037, 0.93226245069646],
      [26, 632, 31, 2.7899838249967945e-5],
      [30, 632, 31.963, 0.06579725370003242],
      [55, 632, 52, 0.9475510209041366],
      [80, 632, 76.306, 0.9321444172679135],
      [150, 632, 143.496, 0.9321361955031012],
      [900, 632, 861.999, 0.9321441746490059],
      [-45, 2000, -47.7, 0.9861890958637877],
      [-45, 2000, -46.841, 0.9337111907835427],
      [-0.05, 2000, -1.7, 0.9505291183552211],
      [0.05, 2000, 4.4, 6.806724796689866e-6],
      [12, 2000, 9.761, 0.9860379522959017],
      [12, 2000, 13.527, 0.06658859534493568],
      [45, 2000, 42.3, 0.9860038543086062],
      [40, 2000, 52, 2.600467522876542e-24],
      [150, 2000, 150.0, 0.4962713116951234],
      [400, 2000, 390.395, 0.9326037659563607],
      [400, 2000, 409.605, 0.06619634654037249],
      [2.5, 10000, 0.3, 0.9860821389175888],
      [3, 10000, 0.8, 0.9860763278219524],
      [30, 10000, 27.751, 0.9860735359587821],
      [30, 10000, 31.533, 0.06676176339907457],
      [150, 10000, 150.0, 0.49879262380951583],
      [400, 10000, 406.6, 0.013918467697221378],
    ];
    for (const [t, df, ncp, expected] of cases)
      expect(Math.abs(noncentralTCdf(t, df, ncp) - expected), `nct.cdf(${t}, ${df}, ${ncp})`).toBeLessThan(1e-12);
  });

  /** mpmath at 40 digits (the integral of Φ(t√(v/ν) − δ) over the χ²_ν density) where SciPy gives NaN. */
  it('is a number, and right, where SciPy gives NaN', () => {
    const cases: [t: number, df: number, ncp: number, mpmath: number][] = [
      [-1000, 1, 12, 1.1653264485187582e-37],
      [-1.1, 1, 12, 1.0536751682544657e-34],
      [-1000, 1, 25, 1.0125818143652705e-142],
      [-60, 1, 31, 1.1784869460822237e-214],
      [-300, 5, 24, 2.0427710106712245e-144],
      [-60, 5, 24, 6.610870798092313e-141],
      [-1000, 9, 25, 9.135518313775359e-172],
      [-30, 99, 1.9, 5.655623183005264e-60],
      [-30, 99, 4.4, 9.656857920807689e-73],
      [-30, 632, 4.4, 8.51100823873668e-164],
    ];
    for (const [t, df, ncp, expected] of cases)
      expect(Math.abs(noncentralTCdf(t, df, ncp) - expected), `P(T <= ${t} | ${df}, ${ncp})`).toBeLessThan(1e-15);
  });

  it('falls as the noncentrality grows (to its accuracy), and P(T <= t | δ) + P(T <= −t | −δ) = 1', () => {
    for (const df of [1, 9, 632])
      for (const t of [-40, -2, 0.5, 3, 30, 120]) {
        let previous = 1;
        for (let ncp = t - 60; ncp <= t + 60; ncp += 2.5) {
          const p = noncentralTCdf(t, df, ncp);
          expect(p, `P(T <= ${t} | ${df}, ${ncp})`).toBeLessThanOrEqual(previous + 1e-12);
          expect(p + noncentralTCdf(-t, df, -ncp)).toBeCloseTo(1, 12);
          previous = p;
        }
      }
  });

  it(`stays within [0, 1] (a sum that rounds past them is clamped), up to |ncp| = ${NONCENTRAL_T_NCP_LIMIT}`, () => {
    // 1 − P(T <= 5 | 99, −4.4) summed to 1 + 2.3e-13 before the clamp
    expect(noncentralTCdf(-5, 99, 4.4)).toBeGreaterThanOrEqual(0);
    expect(noncentralTCdf(-5, 99, 4.4)).toBeLessThan(1e-15);
    expect(noncentralTCdf(1100, 1, -NONCENTRAL_T_NCP_LIMIT)).toBeLessThanOrEqual(1);
  });
});
