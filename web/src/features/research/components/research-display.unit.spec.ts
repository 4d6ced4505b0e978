import { describe, expect, it } from 'vitest';
import { axisBound } from './forest-plot';
import { formatBytes, formatDuration, formatInterval, formatP, isComputable, type ComputableEffect } from './research-display';

const effect = (dz: number, dzLow: number | null, dzHigh: number | null): ComputableEffect => ({
  metric: 'm',
  label: 'M',
  nPairs: 10,
  dz,
  dzLow,
  dzHigh,
  pHolm: null,
  note: null,
});

describe('research display', () => {
  it.each([
    [null, '--'],
    [850, '850 ms'],
    [12_449, '12.4 s'],
    [65_000, '1 min 5 s'],
    [3_720_000, '1 h 2 min'],
  ])('shows a duration of %s ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('shows sizes, p values and intervals', () => {
    expect(formatBytes(900)).toBe('900 B');
    expect(formatBytes(860_000)).toBe('840 KB');
    expect(formatBytes(1_258_291)).toBe('1.2 MB');
    expect(formatP(0.0004)).toBe('< 0.001');
    expect(formatP(0.04567)).toBe('0.046');
    expect(formatP(null)).toBe('--');
    expect(formatInterval(effect(-0.42, -0.861, 0.02))).toBe('[-0.86, 0.02]');
    expect(formatInterval(effect(-0.42, null, 0.02))).toBe('--');
  });

  it('plots only metrics with a d_z', () => {
    expect(isComputable({ ...effect(0.1, 0, 0.2), dz: null } as never)).toBe(false);
    expect(isComputable(effect(0, -0.1, 0.1))).toBe(true);
  });

  it('runs the axis symmetric around 0, past every interval', () => {
    expect(axisBound([effect(0.1, -0.05, 0.2)])).toBe(0.5);
    expect(axisBound([effect(-0.42, -0.86, 0.02)])).toBe(1);
    expect(axisBound([effect(1.2, 0.7, 1.7)])).toBe(2);
    expect(axisBound([effect(2.4, 1.9, 2.9)])).toBe(3);
    expect(axisBound([effect(6.1, 4.2, 8.3)])).toBe(10);
    expect(axisBound([effect(37, 30, 44)])).toBe(50);
  });
});
