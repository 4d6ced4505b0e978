import { describe, expect, it } from 'vitest';
import { wallClock } from './workbook.ts';

describe('the workbook’s times', () => {
  it('writes an instant as her wall-clock time, for Excel, which has no time zones', () => {
    expect(wallClock(new Date('2026-07-01T12:34:56.000Z'), 'Europe/London')).toEqual(new Date('2026-07-01T13:34:56.000Z'));
    expect(wallClock(new Date('2026-01-01T03:00:00.000Z'), 'America/New_York')).toEqual(new Date('2025-12-31T22:00:00.000Z'));
    expect(wallClock(new Date('2026-06-01T00:00:00.000Z'), 'Asia/Kolkata')).toEqual(new Date('2026-06-01T05:30:00.000Z'));
  });
});
