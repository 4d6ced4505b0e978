import { describe, expect, it } from 'vitest';
import { exportFileName } from './exports.ts';

describe('exportFileName', () => {
  it("dates the file on the admin's calendar, UTC when her zone is unknown", () => {
    // 2026-11-29 23:30 UTC: still the 29th in Los Angeles, already the 30th in Paris
    const now = new Date('2026-11-29T23:30:00Z');
    expect(exportFileName('users', now)).toBe('users-2026-11-29.csv');
    expect(exportFileName('sleep', now, 'America/Los_Angeles')).toBe('sleep-2026-11-29.csv');
    expect(exportFileName('users', now, 'Europe/Paris')).toBe('users-2026-11-30.csv');
    // 2026-11-30 05:00 UTC: the 30th in UTC, still the 29th in Los Angeles
    expect(exportFileName('users', new Date('2026-11-30T05:00:00Z'), 'America/Los_Angeles')).toBe('users-2026-11-29.csv');
  });
});
