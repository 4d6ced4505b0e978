import { describe, expect, it } from 'vitest';
import { dateTimeFormat, formatInstant, formatInstantDay } from './date-format';

describe('dateTimeFormat', () => {
  it('makes one format for each locale and options, and formats as Intl does', () => {
    const options = { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'America/New_York' } as const;
    const format = dateTimeFormat('en-US', options);
    expect(dateTimeFormat('en-US', { ...options })).toBe(format);
    const instant = new Date('2026-03-01T03:00:00Z');
    expect(format.format(instant)).toBe(new Intl.DateTimeFormat('en-US', options).format(instant));
    expect(format.format(instant)).toBe('Feb 28, 2026');
  });

  it('keeps formats of other zones, locales and options apart', () => {
    const instant = new Date('2026-03-01T03:00:00Z');
    const options = { month: 'short', day: 'numeric', year: 'numeric' } as const;
    expect(dateTimeFormat('en-US', { ...options, timeZone: 'Europe/London' }).format(instant)).toBe('Mar 1, 2026');
    expect(dateTimeFormat('en-US', { ...options, timeZone: 'America/New_York' }).format(instant)).toBe('Feb 28, 2026');
    expect(dateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant)).toBe(
      '2026-03-01',
    );
  });
});

describe('formatInstant, formatInstantDay', () => {
  it('show an instant on the clock given, its zone named', () => {
    const joined = '2026-11-21T23:30:00.000Z';
    expect(formatInstant(joined, 'Europe/Paris')).toBe('Nov 22, 2026, 12:30 AM GMT+1');
    expect(formatInstant(joined, 'America/New_York')).toBe('Nov 21, 2026, 6:30 PM EST');
    expect(formatInstantDay(joined, 'Europe/Paris')).toBe('Nov 22, 2026');
    expect(formatInstantDay(joined, 'America/New_York')).toBe('Nov 21, 2026');
  });
});
