import { describe, expect, it } from 'vitest';
import { addDays } from '@sleepweave/contracts';
import { night } from './sleep-log.fixture';
import { chartPoints, chartSummary, lastEntryNights, phaseBands, studyNights, studyStartOf, tickIndices } from './sleep-charts';

const start = '2026-05-01';
const log = (date: string, sleepScore: number | null, phase: 'polyester' | 'washout' | 'linen' = 'polyester') =>
  night(date, { sleepScore, phase });

describe('the nights a chart shows', () => {
  it('plots the last 7 entries on their dates, a night not logged between them being a gap', () => {
    const logs = ['2026-05-20', '2026-05-18', '2026-05-17', '2026-05-14', '2026-05-13', '2026-05-12', '2026-05-11', '2026-05-02'].map(
      (date, i) => log(date, 80 - i),
    );
    const nights = lastEntryNights(logs);
    expect(nights.map((n) => n.date)).toEqual([
      '2026-05-11',
      '2026-05-12',
      '2026-05-13',
      '2026-05-14',
      '2026-05-15',
      '2026-05-16',
      '2026-05-17',
      '2026-05-18',
      '2026-05-19',
      '2026-05-20',
    ]);
    expect(nights.map((n) => n.log?.sleepScore ?? null)).toEqual([74, 75, 76, 77, null, null, 78, 79, null, 80]);
    expect(lastEntryNights([])).toEqual([]);
  });

  it('shows the whole study as its 42 nights, logged or not', () => {
    const nights = studyNights([log('2026-05-01', 70), log('2026-06-11', 90, 'linen'), log('2026-06-12', 99, 'linen')], start);
    expect(nights).toHaveLength(42);
    expect(nights[0]).toMatchObject({ date: '2026-05-01', log: { sleepScore: 70 } });
    expect(nights[1]!.log).toBeNull();
    expect(nights[41]).toMatchObject({ date: '2026-06-11', log: { sleepScore: 90 } });
  });

  it('finds her start date from a night and its study day', () => {
    expect(studyStartOf([night('2026-05-16', { studyDay: 16 })])).toBe('2026-05-01');
    expect(studyStartOf([])).toBeNull();
  });
});

describe('points, shading and axis', () => {
  it("labels points by date, keeps gaps as null, and knows each night's phase (a gap's from her start date)", () => {
    const points = chartPoints(
      [
        { date: '2026-05-14', log: log('2026-05-14', 81) },
        { date: '2026-05-15', log: null },
        { date: '2026-05-16', log: log('2026-05-16', 77, 'washout') },
      ],
      'sleepScore',
      start,
    );
    expect(points).toEqual([
      { date: '2026-05-14', label: 'May 14', title: 'Thursday, May 14', value: 81, phase: 'polyester', beforeStudy: false, toCome: false },
      { date: '2026-05-15', label: 'May 15', title: 'Friday, May 15', value: null, phase: 'washout', beforeStudy: false, toCome: false },
      { date: '2026-05-16', label: 'May 16', title: 'Saturday, May 16', value: 77, phase: 'washout', beforeStudy: false, toCome: false },
    ]);
    expect(chartPoints([{ date: '2026-05-15', log: null }], 'sleepScore', null)[0]!.phase).toBeNull();
  });

  it('gives a night before her study no phase and leaves it out of the count (the weekly report of her first days)', () => {
    const points = chartPoints(
      [
        { date: addDays(start, -2), log: null },
        { date: addDays(start, -1), log: null },
        { date: start, log: night(start, { deepMinutes: 60 }) },
        { date: addDays(start, 1), log: null },
      ],
      'deepMinutes',
      start,
    );
    expect(points.map((point) => [point.phase, point.beforeStudy])).toEqual([
      [null, true],
      [null, true],
      ['polyester', false],
      ['polyester', false],
    ]);
    expect(phaseBands(points)).toEqual([{ phase: 'polyester', from: 2, to: 3 }]);
    expect(chartSummary(points, 'min')).toMatch(/^1 of 2 nights recorded:/);
  });

  it('shades the three phases as runs of nights', () => {
    const points = chartPoints(studyNights([], start), 'sleepScore', start);
    expect(phaseBands(points)).toEqual([
      { phase: 'polyester', from: 0, to: 13 },
      { phase: 'washout', from: 14, to: 27 },
      { phase: 'linen', from: 28, to: 41 },
    ]);
  });

  it('labels every night of a week, and weekly on the whole study', () => {
    expect(tickIndices(7)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(tickIndices(42)).toEqual([0, 7, 14, 21, 28, 35, 41]);
    expect(tickIndices(10)).toEqual([0, 7]);
    expect(tickIndices(12)).toEqual([0, 7, 11]);
  });

  it('says what the chart shows in words', () => {
    const points = chartPoints(
      [
        { date: '2026-05-14', log: night('2026-05-14', { deepMinutes: 60 }) },
        { date: '2026-05-15', log: null },
        { date: '2026-05-16', log: night('2026-05-16', { deepMinutes: 75 }) },
      ],
      'deepMinutes',
      start,
    );
    expect(chartSummary(points, 'min')).toBe(
      '2 of 3 nights recorded: lowest 60 min, highest 75 min, average 67.5 min. Latest 75 min on Saturday, May 16.',
    );
    expect(chartSummary(points.slice(1, 2), '')).toBe('Nothing recorded for this night.');
    // a metric typed with a decimal: each value with one
    const hrv = chartPoints(
      [
        { date: '2026-05-14', log: night('2026-05-14', { avgHrv: 31.6 }) },
        { date: '2026-05-15', log: night('2026-05-15', { avgHrv: 40.1 }) },
        { date: '2026-05-16', log: night('2026-05-16', { avgHrv: 42 }) },
      ],
      'avgHrv',
      start,
    );
    expect(chartSummary(hrv, 'ms', 1)).toBe(
      'All 3 nights recorded: lowest 31.6 ms, highest 42.0 ms, average 37.9 ms. Latest 42.0 ms on Saturday, May 16.',
    );
    expect(chartSummary([...points.slice(1, 2), ...points.slice(1, 2)], '')).toBe('Nothing recorded for these 2 nights.');
  });

  it('counts the nights not ended yet, not logged, as still to come, not as missed (the whole study on its second day)', () => {
    const lastEnded = addDays(start, 1);
    const logs = [night(start, { studyDay: 1, sleepScore: 70 }), night(lastEnded, { studyDay: 2, sleepScore: 80 })];
    const points = chartPoints(studyNights(logs, start), 'sleepScore', start, lastEnded);
    expect(points.filter((point) => point.toCome)).toHaveLength(40);
    expect(chartSummary(points, '')).toBe(
      `All 2 nights recorded: lowest 70, highest 80, average 75. Latest 80 on ${points[1]!.title}. 40 nights are still to come.`,
    );
    // on her first morning, one night: its value, not a lowest, highest and average of one
    const first = chartPoints(studyNights(logs.slice(0, 1), start), 'sleepScore', start, start);
    expect(chartSummary(first, '')).toBe(`1 night recorded: 70 on ${first[0]!.title}. 41 nights are still to come.`);
    // a night logged ahead is not to come: it is there
    const ahead = chartPoints(
      studyNights([...logs, night(addDays(start, 2), { studyDay: 3, sleepScore: 90 })], start),
      'sleepScore',
      start,
      lastEnded,
    );
    expect(ahead.filter((point) => point.toCome)).toHaveLength(39);
    // on her first day, before any night ended
    expect(chartSummary(chartPoints(studyNights([], start), 'sleepScore', start, addDays(start, -1)), '')).toBe(
      'No night has ended yet. 42 nights are still to come.',
    );
  });
});
