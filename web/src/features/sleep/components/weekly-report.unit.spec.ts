import type { SleepLog } from '@sleepweave/contracts';
import { describe, expect, it } from 'vitest';
import { reportDays, weeklySummary } from './weekly-report';

const log = (date: string, fields: Partial<SleepLog> = {}) =>
  ({ id: date, date, sleepScore: null, remMinutes: null, deepMinutes: null, restingHr: null, avgHrv: null, ...fields }) as SleepLog;

describe('reportDays (docs/product.md §4)', () => {
  it('covers the 7 days ending today, with gaps where nothing was logged', () => {
    const logs = [
      log('2026-05-11', { sleepScore: 99 }), // tomorrow's night, logged ahead: not in the window
      log('2026-05-10', { sleepScore: 80 }),
      log('2026-05-07', { sleepScore: 70 }),
      log('2026-04-30', { sleepScore: 10 }),
    ];
    const days = reportDays(logs, '2026-05-10')!;
    expect(days.map((d) => d.date)).toEqual([
      '2026-05-04',
      '2026-05-05',
      '2026-05-06',
      '2026-05-07',
      '2026-05-08',
      '2026-05-09',
      '2026-05-10',
    ]);
    expect(days.map((d) => d.log?.sleepScore ?? null)).toEqual([null, null, null, 70, null, null, 80]);
  });

  it('never runs into the future in her first week', () => {
    const days = reportDays([log('2026-11-21', { sleepScore: 75 })], '2026-11-21')!;
    expect(days[0]!.date).toBe('2026-11-15');
    expect(days.at(-1)!.date).toBe('2026-11-21');
    expect(days.at(-1)!.log?.sleepScore).toBe(75);
  });

  it('covers today and the six days before when she logged every night', () => {
    const logs = Array.from({ length: 10 }, (_, i) => log(`2026-05-${String(i + 1).padStart(2, '0')}`, { sleepScore: 70 + i }));
    const days = reportDays(logs, '2026-05-10')!;
    expect(days[0]!.date).toBe('2026-05-04');
    expect(days[6]!.date).toBe('2026-05-10');
    expect(days.every((d) => d.log !== null)).toBe(true);
  });

  it('is empty without a log in the last 7 days', () => {
    expect(reportDays([], '2026-05-10')).toBeNull();
    expect(reportDays([log('2026-05-03')], '2026-05-10')).toBeNull();
  });
});

describe('weeklySummary (docs/product.md §9)', () => {
  it('counts days with a score and rounds the averages; no data is null', () => {
    const days = reportDays(
      [
        log('2026-05-08', { sleepScore: 81, remMinutes: 90, deepMinutes: 60, restingHr: 55 }),
        log('2026-05-09', { sleepScore: 76, remMinutes: 101, restingHr: 58 }),
        log('2026-05-10', { remMinutes: 80 }),
      ],
      '2026-05-10',
    )!;
    expect(weeklySummary(days)).toEqual({
      daysLogged: 2,
      averageSleepScore: 79,
      averageRemMinutes: 90,
      averageDeepMinutes: 60,
      averageRestingHr: 57,
    });
    expect(weeklySummary(reportDays([log('2026-05-10')], '2026-05-10')!)).toEqual({
      daysLogged: 0,
      averageSleepScore: null,
      averageRemMinutes: null,
      averageDeepMinutes: null,
      averageRestingHr: null,
    });
  });
});
