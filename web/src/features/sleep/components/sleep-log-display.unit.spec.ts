import { parseDuration } from '@sleepweave/contracts';
import { describe, expect, it } from 'vitest';
import { hintOf, labelOf } from './sleep-log-display';

describe('the sleep log form words', () => {
  it('gives a typed number its range, and a decimal of step 0.1 its one decimal', () => {
    expect(hintOf('restingHr')).toBe('20 to 250');
    expect(hintOf('sleepEfficiency')).toBe('0 to 100, one decimal');
    expect(hintOf('avgHrv')).toBe('0 to 300, one decimal');
    expect(hintOf('avgSpo2')).toBe('50 to 100');
    expect(labelOf('sleepEfficiency')).toBe('Sleep efficiency (%)');
  });

  it('writes under every duration how to type it, a format parseDuration reads', () => {
    for (const key of ['totalSleepMinutes', 'timeInBedMinutes', 'remMinutes', 'deepMinutes', 'latencyMinutes'] as const) {
      expect(hintOf(key)).toBe('Hours and minutes, like 7h32m or 15m');
    }
    expect(parseDuration('7h32m')).toEqual({ ok: true, minutes: 452 });
    expect(parseDuration('15m')).toEqual({ ok: true, minutes: 15 });
  });
});
