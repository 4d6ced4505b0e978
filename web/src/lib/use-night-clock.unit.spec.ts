import { describe, expect, it } from 'vitest';
import { msToNextNightHour } from './use-night-clock';

describe('msToNextNightHour: when what the screens say of her nights next changes', () => {
  it.each([
    // zone, now, until her clock next shows 04:00 or midnight
    ['America/New_York', '2026-11-23T08:59:30.000Z', 30_000], // 03:59:30: 04:00 next
    ['America/New_York', '2026-11-23T09:00:00.000Z', 20 * 3_600_000], // 04:00: midnight next
    ['America/New_York', '2026-11-24T04:00:00.250Z', 3_600_000 - 250], // 23:00:00.250: midnight next
    ['America/New_York', '2026-11-24T05:00:00.000Z', 4 * 3_600_000], // 00:00: 04:00 next
    ['Europe/London', '2026-07-01T02:30:00.000Z', 30 * 60_000], // 03:30 summer time
    ['Asia/Kolkata', '2026-06-01T22:29:00.000Z', 60_000], // 03:59 at +05:30
  ])('in %s at %s: %i ms', (zone, now, ms) => {
    expect(msToNextNightHour(zone, new Date(now))).toBe(ms);
  });
});
