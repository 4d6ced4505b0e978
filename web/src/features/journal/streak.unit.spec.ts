import { calendarDateIn } from '@sleepweave/contracts';
import { describe, expect, it } from 'vitest';
import { currentStreak } from './streak';

describe('currentStreak', () => {
  it.each([
    ['no entries', [], '2026-11-21', 0, false],
    ['only today', ['2026-11-21'], '2026-11-21', 1, true],
    ['several entries today count once', ['2026-11-21', '2026-11-21', '2026-11-21'], '2026-11-21', 1, true],
    ['today and the two days before', ['2026-11-21', '2026-11-20', '2026-11-19'], '2026-11-21', 3, true],
    ['alive until the end of today when the last entry was yesterday', ['2026-11-20', '2026-11-19'], '2026-11-21', 2, false],
    ['broken when the last entry was the day before yesterday', ['2026-11-19', '2026-11-18'], '2026-11-21', 0, false],
    ['a gap ends the streak', ['2026-11-21', '2026-11-20', '2026-11-18', '2026-11-17'], '2026-11-21', 2, true],
    ['order does not matter', ['2026-11-19', '2026-11-21', '2026-11-20'], '2026-11-21', 3, true],
    ['across a month end', ['2026-12-01', '2026-11-30', '2026-11-29'], '2026-12-01', 3, true],
    ['across a year end', ['2027-01-01', '2026-12-31'], '2027-01-01', 2, true],
    ['across 29 February', ['2028-03-01', '2028-02-29', '2028-02-28'], '2028-03-01', 3, true],
    ['across a summer-time change', ['2026-03-30', '2026-03-29', '2026-03-28'], '2026-03-30', 3, true],
    ['an entry dated tomorrow (timezone moved west) counts as today', ['2026-11-22', '2026-11-21'], '2026-11-21', 1, true],
  ])('%s', (_label, dates, today, days, writtenToday) => {
    expect(currentStreak(dates, today)).toMatchObject({ days, writtenToday });
  });

  it('says whether the streak runs back to the oldest day given (older entries may go on with it)', () => {
    expect(currentStreak(['2026-11-21', '2026-11-20', '2026-11-19'], '2026-11-21').reachesOldest).toBe(true);
    expect(currentStreak(['2026-11-21', '2026-11-20', '2026-11-17'], '2026-11-21').reachesOldest).toBe(false);
    expect(currentStreak(['2026-11-18'], '2026-11-21').reachesOldest).toBe(false);
    expect(currentStreak([], '2026-11-21').reachesOldest).toBe(false);
  });
});

// her day as the streak counts it (the contracts' calendarDateIn, shared with the sleep log)
describe('calendarDateIn', () => {
  it.each([
    ['2026-11-22T04:30:00.000Z', 'America/New_York', '2026-11-21'],
    ['2026-11-21T23:30:00.000Z', 'Europe/Paris', '2026-11-22'],
    ['2026-11-21T23:30:00.000Z', 'Europe/London', '2026-11-21'],
  ])('%s in %s is %s', (instant, timezone, expected) => {
    expect(calendarDateIn(timezone, new Date(instant))).toBe(expected);
  });
});
