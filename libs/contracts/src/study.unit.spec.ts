import { describe, expect, it } from 'vitest';
import { ConsentRequest, SleepLogInput, sleepQualityLabel, toSleepLogValues } from './study.ts';

describe('SleepLogInput', () => {
  it('needs only a real date; every other field is optional', () => {
    expect(SleepLogInput.parse({ date: '2026-05-01' })).toEqual({ date: '2026-05-01' });
    expect(SleepLogInput.safeParse({}).error!.issues[0]).toMatchObject({ path: ['date'], message: 'Date is required' });
    expect(SleepLogInput.safeParse({ date: '2026-02-30' }).error!.issues[0]).toMatchObject({
      path: ['date'],
      message: 'Not a real calendar date',
    });
  });

  it.each([
    [{ sleepScore: 101 }, 'sleepScore', 'Sleep score must be between 0 and 100'],
    [{ sleepScore: -1 }, 'sleepScore', 'Sleep score must be between 0 and 100'],
    [{ sleepScore: 80.5 }, 'sleepScore', 'Sleep score must be a whole number'],
    [{ sleepEfficiency: 100.1 }, 'sleepEfficiency', 'Sleep efficiency must be between 0 and 100 %'],
    [{ sleepQuality110: 0 }, 'sleepQuality110', 'Sleep quality must be between 1 and 10'],
    [{ sleepQuality110: 11 }, 'sleepQuality110', 'Sleep quality must be between 1 and 10'],
    [{ totalSleepMinutes: -5 }, 'totalSleepMinutes', 'Total sleep cannot be negative'],
    [{ deepMinutes: 1441 }, 'deepMinutes', 'Deep sleep can be at most 24h'],
    [{ heatWakeups: -1 }, 'heatWakeups', 'Heat wake-ups must be between 0 and 50'],
    [{ restingHr: 300 }, 'restingHr', 'Resting heart rate must be between 20 and 250 bpm'],
    [{ lowestHr: 10 }, 'lowestHr', 'Lowest heart rate must be between 20 and 250 bpm'],
    [{ avgSpo2: 40 }, 'avgSpo2', 'Average SpO2 must be between 50 and 100 %'],
    [{ avgHrv: 301 }, 'avgHrv', 'Average HRV must be between 0 and 300 ms'],
    [{ sleepEfficiency: 91.55 }, 'sleepEfficiency', 'Sleep efficiency can have at most one decimal place'],
    [{ avgHrv: 41.25 }, 'avgHrv', 'Average HRV can have at most one decimal place'],
    [{ sleepScore: '80' }, 'sleepScore', 'Sleep score must be a number'],
    [{ sleepwearMaterial: 'Silk' }, 'sleepwearMaterial', undefined],
    [{ morningMood: 'Sleepy' }, 'morningMood', undefined],
    [{ heatWave: 'yes' }, 'heatWave', 'Heat wave must be yes or no'],
  ])('refuses %j naming %s', (fields, path, message) => {
    const result = SleepLogInput.safeParse({ date: '2026-05-01', ...fields });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual([path]);
    if (message) expect(result.error!.issues[0]!.message).toBe(message);
  });

  it('accepts the edges of every range', () => {
    const parsed = SleepLogInput.parse({
      date: '2026-05-01',
      sleepScore: 0,
      sleepEfficiency: 100,
      sleepQuality110: 10,
      totalSleepMinutes: 0,
      timeInBedMinutes: 1440,
      restingHr: 20,
      lowestHr: 250,
      avgSpo2: 50,
      avgHrv: 0,
      heatWakeups: 0,
      comments: '  hot flash at 3am  ',
    });
    expect(parsed.comments).toBe('hot flash at 3am');
  });

  it.each([0.3, 0.7, 1.1, 33.3, 91.5, 99.9, 100, 0])(
    'takes %d as an efficiency and an HRV (one decimal, however it lands in binary)',
    (value) => {
      expect(SleepLogInput.parse({ date: '2026-05-01', sleepEfficiency: value, avgHrv: value + 100.1 })).toMatchObject({
        sleepEfficiency: value,
      });
    },
  );

  it('stores missing fields and empty comments as null', () => {
    const values = toSleepLogValues({ sleepScore: 80, comments: '' });
    expect(values.sleepScore).toBe(80);
    expect(values.comments).toBeNull();
    expect(values.dreamRecall).toBeNull();
    expect(Object.keys(values)).toHaveLength(24);
  });
});

describe('ConsentRequest', () => {
  it('takes an empty body or a known version', () => {
    expect(ConsentRequest.parse({})).toEqual({});
    expect(ConsentRequest.parse({ consentVersion: '1.0' })).toEqual({ consentVersion: '1.0' });
    expect(ConsentRequest.safeParse({ consentVersion: '9.9' }).error!.issues[0]!.message).toBe('Unknown consent version');
  });
});

describe('sleepQualityLabel', () => {
  it.each([
    [10, 'Excellent'],
    [8, 'Excellent'],
    [7, 'Good'],
    [6, 'Good'],
    [5, 'Fair'],
    [4, 'Fair'],
    [3, 'Poor'],
    [1, 'Poor'],
  ] as const)('%i is %s', (value, label) => {
    expect(sleepQualityLabel(value)).toBe(label);
  });
});
