import { randomUUID } from 'node:crypto';
import { SLEEP_LOG_FIELDS, type SleepLog, type StudyPhase } from '@sleepweave/contracts';
import { describe, expect, it } from 'vitest';
import {
  comparePolyesterLinen,
  datesBetween,
  formatDifference,
  formatMean,
  formatMetric,
  formatRange,
  NightsDigest,
  phaseBands,
  studyPhaseDates,
  SUMMARY_METRICS,
  weekdayDate,
} from './business-logic.ts';

const empty = Object.fromEntries(SLEEP_LOG_FIELDS.map((key) => [key, null])) as unknown as Omit<
  SleepLog,
  'id' | 'userId' | 'date' | 'studyDay' | 'phase' | 'recommendedMaterial' | 'createdAt' | 'updatedAt'
>;

function night(date: string, phase: StudyPhase, values: Partial<SleepLog> = {}): SleepLog {
  return {
    id: randomUUID(),
    userId: randomUUID(),
    date,
    studyDay: 1,
    phase,
    recommendedMaterial: '100% Polyester',
    ...empty,
    createdAt: '2025-03-01T08:00:00.000Z',
    updatedAt: '2025-03-01T08:00:00.000Z',
    ...values,
  };
}

describe('NightsDigest', () => {
  it('counts nights and gives n, mean, min and max per phase and over all, skipping nights without a value', () => {
    const digest = new NightsDigest();
    digest.add(night('2025-03-01', 'polyester', { sleepScore: 70, totalSleepMinutes: 400, sleepwearMaterial: '100% Polyester' }));
    digest.add(night('2025-03-02', 'polyester', { sleepScore: 80, totalSleepMinutes: null, sleepwearMaterial: '100% Polyester' }));
    digest.add(night('2025-03-03', 'polyester', { sleepScore: null, sleepwearMaterial: '100% Cotton' }));
    digest.add(night('2025-03-20', 'linen', { sleepScore: 90, avgHrv: 41.5 }));

    const [polyester, linen, all] = digest.summaries();
    expect(digest.summaries().map((s) => s.name)).toEqual(['Polyester', 'Linen', 'All nights']);
    expect(polyester).toMatchObject({ phase: 'polyester', nights: 3, first: '2025-03-01', last: '2025-03-03' });
    expect(polyester!.metrics.sleepScore).toEqual({ n: 2, mean: 75, min: 70, max: 80 });
    expect(polyester!.metrics.totalSleepMinutes).toEqual({ n: 1, mean: 400, min: 400, max: 400 });
    expect(polyester!.metrics.avgHrv).toEqual({ n: 0, mean: null, min: null, max: null });
    expect(polyester!.materials).toEqual([
      ['100% Polyester', 2],
      ['100% Cotton', 1],
    ]);
    expect(linen!.metrics.avgHrv).toEqual({ n: 1, mean: 41.5, min: 41.5, max: 41.5 });
    expect(linen!.materials).toEqual([['Not recorded', 1]]);
    expect(all).toMatchObject({ phase: null, nights: 4, first: '2025-03-01', last: '2025-03-20' });
    expect(all!.metrics.sleepScore).toEqual({ n: 3, mean: 80, min: 70, max: 90 });
    expect(digest.nights).toBe(4);
  });

  it('summarises every numeric field, and nothing else', () => {
    expect(SUMMARY_METRICS.map((m) => m.key)).toContain('heatWakeups');
    expect(SUMMARY_METRICS.map((m) => m.key)).not.toContain('comments');
    expect(SUMMARY_METRICS.map((m) => m.key)).not.toContain('dreamRecall');
    expect(SUMMARY_METRICS).toHaveLength(17);
  });

  it('gives a chart series over every date, with gaps for missed nights and missing values', () => {
    const digest = new NightsDigest();
    digest.add(night('2025-03-01', 'polyester', { avgHrv: 40, sleepScore: 71 }));
    digest.add(night('2025-03-03', 'polyester', { avgHrv: null, sleepScore: 75 }));
    const dates = datesBetween('2025-02-28', '2025-03-04');
    expect(dates).toEqual(['2025-02-28', '2025-03-01', '2025-03-02', '2025-03-03', '2025-03-04']);
    expect(digest.series('avgHrv', dates)).toEqual([null, 40, null, null, null]);
    expect(digest.series('sleepScore', dates)).toEqual([null, 71, null, 75, null]);
  });
});

describe('comparePolyesterLinen', () => {
  it('sets the two phases side by side with linen minus polyester', () => {
    const digest = new NightsDigest();
    digest.add(night('2025-03-01', 'polyester', { restingHr: 60, deepMinutes: 60 }));
    digest.add(night('2025-03-02', 'polyester', { restingHr: 62 }));
    digest.add(night('2025-03-29', 'linen', { restingHr: 58, deepMinutes: 75 }));
    const rows = comparePolyesterLinen(digest)!;
    const hr = rows.find((r) => r.metric.key === 'restingHr')!;
    expect(hr.polyester).toMatchObject({ n: 2, mean: 61 });
    expect(hr.linen).toMatchObject({ n: 1, mean: 58 });
    expect(hr.difference).toBe(-3);
    expect(rows.find((r) => r.metric.key === 'deepMinutes')!.difference).toBe(15);
    expect(rows.find((r) => r.metric.key === 'avgHrv')!.difference).toBeNull();
  });

  it('is null when the range lacks one of the two phases', () => {
    const digest = new NightsDigest();
    digest.add(night('2025-03-01', 'polyester', { sleepScore: 70 }));
    digest.add(night('2025-03-16', 'washout', { sleepScore: 70 }));
    expect(comparePolyesterLinen(digest)).toBeNull();
  });
});

describe('her study as dates', () => {
  it('puts the phases on the calendar from her start date', () => {
    const phases = studyPhaseDates('2025-03-01');
    expect(phases.map((p) => [p.phase, p.first, p.last, p.material])).toEqual([
      ['polyester', '2025-03-01', '2025-03-14', '100% Polyester'],
      ['washout', '2025-03-15', '2025-03-28', '100% Cotton'],
      ['linen', '2025-03-29', '2025-04-11', '100% Linen'],
      ['completed', '2025-04-12', null, '100% Cotton (recommended)'],
    ]);
  });

  it('shades the dates of each phase as runs; dates before her study or without a start date have none', () => {
    const dates = datesBetween('2025-02-27', '2025-04-13');
    expect(phaseBands('2025-03-01', dates)).toEqual([
      { phase: 'polyester', label: 'Polyester', from: 2, to: 15 },
      { phase: 'washout', label: 'Washout (cotton)', from: 16, to: 29 },
      { phase: 'linen', label: 'Linen', from: 30, to: 43 },
      { phase: 'completed', label: 'After the study', from: 44, to: 45 },
    ]);
    expect(phaseBands(null, dates)).toEqual([]);
  });
});

describe('writing values', () => {
  const duration = { kind: 'duration', unit: 'min' } as const;
  it('writes metrics as she reads them', () => {
    expect(formatMetric(duration, 452.4)).toBe('7h 32m');
    expect(formatMetric({ kind: 'integer', unit: 'bpm' }, 58)).toBe('58 bpm');
    expect(formatMetric({ kind: 'integer', unit: 'bpm' }, 58.25)).toBe('58.3 bpm');
    expect(formatMetric({ kind: 'decimal', unit: '%' }, 91.5)).toBe('91.5%');
    expect(formatMetric({ kind: 'integer', unit: null }, 82)).toBe('82');
    expect(formatMetric(duration, null)).toBe('--');
  });

  it('writes every mean with its decimal, and values that no line breaks inside', () => {
    const nb = '\u00A0';
    expect(formatMean({ kind: 'integer', unit: null }, 63)).toBe('63.0');
    expect(formatMean({ kind: 'integer', unit: null }, 63.2143)).toBe('63.2');
    expect(formatMean({ kind: 'integer', unit: 'bpm' }, 59)).toBe(`59.0${nb}bpm`);
    expect(formatMean(duration, 86.4)).toBe(`1h${nb}26m`);
    expect(formatMean(duration, null)).toBe('--');
    expect(formatRange(duration, 47, 86)).toBe(`47m–1h${nb}26m`);
    expect(formatRange({ kind: 'integer', unit: 'bpm' }, 55, 63)).toBe(`55${nb}bpm–63${nb}bpm`);
  });

  it("rounds a mean of her decimals as they read: a washout's HRVs averaging 43.95 print 44.0 (float: 43.949999999999996, printed 43.9)", () => {
    const hrv = [45.6, 39.4, 44.3, 41.9, 46.2, 44.4, 39.8, 47.1, 46.2, 37.8, 43.3, 48.2, 46.8, 44.3];
    const mean = hrv.reduce((sum, v) => sum + v, 0) / hrv.length;
    expect(formatMean({ kind: 'decimal', unit: 'ms' }, mean)).toBe('44.0\u00A0ms');
    expect(formatDifference({ kind: 'decimal', unit: 'ms' }, mean - 40)).toBe('+4.0 ms');
  });

  it('writes differences with their sign, and no sign when they round to nothing', () => {
    expect(formatDifference(duration, 12.4)).toBe('+12m');
    expect(formatDifference(duration, -75)).toBe('−1h 15m');
    expect(formatDifference(duration, 0.3)).toBe('0m');
    expect(formatDifference({ kind: 'decimal', unit: 'ms' }, 4.46)).toBe('+4.5 ms');
    expect(formatDifference({ kind: 'decimal', unit: '%' }, -2)).toBe('−2.0 pts');
    expect(formatDifference({ kind: 'integer', unit: null }, 0.04)).toBe('0.0');
    expect(formatDifference({ kind: 'integer', unit: null }, null)).toBe('--');
  });

  it('writes dates with their weekday', () => {
    expect(weekdayDate('2025-03-03')).toBe('Mon Mar 03');
  });
});
