import { describe, expect, it } from 'vitest';
import { holm } from './holm.ts';

/** Expected values are R 4.2.2's p.adjust(p, "holm"), NA for null. */
describe('holm', () => {
  it('as R, with ties and a missing p (not counted in m)', () => {
    const adjusted = holm([0.001, 0.02, 0.02, 0.5, 0.04, null, 0.3]);
    const expected = [0.006, 0.1, 0.1, 0.6, 0.12, null, 0.6];
    adjusted.forEach((p, i) => (expected[i] === null ? expect(p).toBeNull() : expect(p).toBeCloseTo(expected[i]!, 15)));
  });

  it('m excludes the nulls: 0.01 among three p-values becomes 0.03', () => {
    expect(holm([0.01, null, 0.04, 0.03])).toEqual([0.03, null, 0.06, 0.06]);
  });

  it('capped at 1', () => {
    expect(holm([0.6, 0.7])).toEqual([1, 1]);
  });

  it('nothing to adjust', () => {
    expect(holm([])).toEqual([]);
    expect(holm([null, null])).toEqual([null, null]);
  });
});
