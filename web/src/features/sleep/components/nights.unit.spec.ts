import { describe, expect, it } from 'vitest';
import { nightName, nightRelation, nightSpan } from './nights';

describe('naming a night', () => {
  it.each([
    ['2026-11-22', 'Sun 22 → Mon 23 Nov'],
    ['2026-11-30', 'Mon 30 Nov → Tue 1 Dec'],
    ['2026-12-31', 'Thu 31 Dec → Fri 1 Jan'],
    ['2028-02-28', 'Mon 28 → Tue 29 Feb'], // leap year
    ['2026-03-28', 'Sat 28 → Sun 29 Mar'], // the clocks change in Europe that night: a date is a date
  ])('the night of %s is %s', (date, span) => {
    expect(nightSpan(date)).toBe(span);
    expect(nightName(date)).toBe(`Night of ${span}`);
  });

  it('says last night and tonight from the night that ended last', () => {
    expect(nightRelation('2026-11-22', '2026-11-22')).toBe('last night');
    expect(nightRelation('2026-11-23', '2026-11-22')).toBe('tonight');
    expect(nightRelation('2026-11-21', '2026-11-22')).toBeNull();
    expect(nightRelation('2026-11-24', '2026-11-22')).toBeNull();
    expect(nightRelation('2026-12-01', '2026-11-30')).toBe('tonight');
  });
});
