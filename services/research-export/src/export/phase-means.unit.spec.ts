import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { roundMean } from './phase-means.ts';

describe('roundMean', () => {
  const reference = (x: number) => Number(x.toPrecision(10));

  it('is Number(x.toPrecision(10)) at the edges: zero, ties, powers of ten, tiny and huge values', () => {
    for (const x of [
      0,
      -0,
      1,
      -1,
      0.5,
      72.5,
      1e9,
      1e10,
      9999999999.5,
      12345.678905,
      -12345.678905,
      0.1 + 0.2,
      1 / 3,
      2 / 3,
      1e-13,
      1e-14,
      1e21,
      123456789012.5,
      Number.MIN_VALUE,
      Number.MAX_VALUE,
      4.35,
      36.65,
    ]) {
      expect(Object.is(roundMean(x), reference(x) === 0 ? 0 : reference(x)), String(x)).toBe(true);
    }
  });

  it('agrees with Number(x.toPrecision(10)) bit for bit on a million means of the sizes a study has, and on ties', () => {
    const rng = xoroshiro128plus(10);
    for (let i = 0; i < 1_000_000; i++) {
      // a sum of up to 14 nights' values over their count, as a phase mean is made
      const count = uniformInt(rng, 1, 14);
      let sum = 0;
      for (let j = 0; j < count; j++) sum += uniformInt(rng, -2000, 200_000) / [1, 10, 100][uniformInt(rng, 0, 2)]!;
      const x = sum / count;
      if (roundMean(x) !== reference(x)) expect(roundMean(x), String(x)).toBe(reference(x));
    }
    // values whose 11th digit is exactly a half
    for (let i = 0; i < 10_000; i++) {
      const x = (uniformInt(rng, 1_000_000_000, 9_999_999_999) * 10 + 5) / 10 ** uniformInt(rng, 1, 12);
      if (roundMean(x) !== reference(x)) expect(roundMean(x), String(x)).toBe(reference(x));
    }
  });
});
