import { describe, expect, it } from 'vitest';
import { clockIn, nightlyRunDue } from './schedule.ts';

/** A database made long before any of these nights. */
const LONG_AGO = new Date('2026-01-01T00:00:00Z');

describe('the nightly schedule', () => {
  it('is due from its time on, for that day in its zone', () => {
    expect(nightlyRunDue(new Date('2026-11-22T01:59:59Z'), '02:00', 'UTC', LONG_AGO)).toBeNull();
    expect(nightlyRunDue(new Date('2026-11-22T02:00:00Z'), '02:00', 'UTC', LONG_AGO)).toBe('2026-11-22');
    expect(nightlyRunDue(new Date('2026-11-22T23:59:00Z'), '02:00', 'UTC', LONG_AGO)).toBe('2026-11-22');
  });

  it('reads the clock of its zone, across midnight and a DST change', () => {
    // 02:00 in New York is 07:00 UTC in winter
    expect(nightlyRunDue(new Date('2026-11-22T06:30:00Z'), '02:00', 'America/New_York', LONG_AGO)).toBeNull();
    expect(nightlyRunDue(new Date('2026-11-22T07:00:00Z'), '02:00', 'America/New_York', LONG_AGO)).toBe('2026-11-22');
    // 23:30 UTC on the 21st is already 00:30 on the 22nd in Paris: not yet due that day
    expect(nightlyRunDue(new Date('2026-11-21T23:30:00Z'), '02:00', 'Europe/Paris', LONG_AGO)).toBeNull();
    // London's spring change: 01:00 UTC on 29 March 2026 is 02:00 BST
    expect(clockIn('Europe/London', new Date('2026-03-29T01:00:00Z'))).toBe('02:00');
    expect(nightlyRunDue(new Date('2026-03-29T01:00:00Z'), '02:00', 'Europe/London', LONG_AGO)).toBe('2026-03-29');
  });

  it('owes no run for a time before the database was made: a new system waits for the next night', () => {
    const made = new Date('2026-11-22T10:00:00Z');
    expect(nightlyRunDue(new Date('2026-11-22T10:00:05Z'), '02:00', 'UTC', made)).toBeNull();
    expect(nightlyRunDue(new Date('2026-11-22T23:59:00Z'), '02:00', 'UTC', made)).toBeNull();
    expect(nightlyRunDue(new Date('2026-11-23T01:59:00Z'), '02:00', 'UTC', made)).toBeNull();
    expect(nightlyRunDue(new Date('2026-11-23T02:00:00Z'), '02:00', 'UTC', made)).toBe('2026-11-23');
    // down at that time and back at noon: that day's is still owed
    expect(nightlyRunDue(new Date('2026-11-23T12:00:00Z'), '02:00', 'UTC', made)).toBe('2026-11-23');
  });

  it("owes the day's run to a database made the minute before its time, not the minute of it", () => {
    expect(nightlyRunDue(new Date('2026-11-22T02:00:10Z'), '02:00', 'UTC', new Date('2026-11-22T01:59:30Z'))).toBe('2026-11-22');
    expect(nightlyRunDue(new Date('2026-11-22T02:00:40Z'), '02:00', 'UTC', new Date('2026-11-22T02:00:30Z'))).toBeNull();
  });

  it('reads when the database was made on the clock of its zone', () => {
    // 06:30 UTC is 01:30 in New York: made before that day's 02:00 there (not after, as in UTC)
    expect(nightlyRunDue(new Date('2026-11-22T07:00:00Z'), '02:00', 'America/New_York', new Date('2026-11-22T06:30:00Z'))).toBe(
      '2026-11-22',
    );
    // 01:30 UTC is 02:30 in Paris: made after that day's 02:00 there (not before, as in UTC)
    expect(nightlyRunDue(new Date('2026-11-22T05:00:00Z'), '02:00', 'Europe/Paris', new Date('2026-11-22T01:30:00Z'))).toBeNull();
  });
});
