import { describe, expect, it } from 'vitest';
import { clockIn, nightlyRunDue } from './schedule.ts';

describe('the nightly schedule', () => {
  it('is due from its time on, for that day in its zone', () => {
    expect(nightlyRunDue(new Date('2026-11-22T01:59:59Z'), '02:00', 'UTC')).toBeNull();
    expect(nightlyRunDue(new Date('2026-11-22T02:00:00Z'), '02:00', 'UTC')).toBe('2026-11-22');
    expect(nightlyRunDue(new Date('2026-11-22T23:59:00Z'), '02:00', 'UTC')).toBe('2026-11-22');
  });

  it('reads the clock of its zone, across midnight and a DST change', () => {
    // 02:00 in New York is 07:00 UTC in winter
    expect(nightlyRunDue(new Date('2026-11-22T06:30:00Z'), '02:00', 'America/New_York')).toBeNull();
    expect(nightlyRunDue(new Date('2026-11-22T07:00:00Z'), '02:00', 'America/New_York')).toBe('2026-11-22');
    // 23:30 UTC on the 21st is already 00:30 on the 22nd in Paris: not yet due that day
    expect(nightlyRunDue(new Date('2026-11-21T23:30:00Z'), '02:00', 'Europe/Paris')).toBeNull();
    // London's spring change: 01:00 UTC on 29 March 2026 is 02:00 BST
    expect(clockIn('Europe/London', new Date('2026-03-29T01:00:00Z'))).toBe('02:00');
    expect(nightlyRunDue(new Date('2026-03-29T01:00:00Z'), '02:00', 'Europe/London')).toBe('2026-03-29');
  });
});
