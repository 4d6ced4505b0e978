import { SLEEP_LOG_FIELDS } from '@sleepweave/contracts';
import { describe, expect, it } from 'vitest';
import { night } from './sleep-log.fixture';
import { defaultValues, isFormField, toPayload, valuesFromLog } from './sleep-log-values';

const base = defaultValues('2026-05-04', '100% Polyester');

describe('sleep log form values', () => {
  it('starts from the docs/product.md §5 defaults', () => {
    expect(base).toMatchObject({
      date: '2026-05-04',
      sleepwearMaterial: '100% Polyester',
      sleepQuality110: '7',
      heatWave: false,
      heatWakeups: '0',
      dreamRecall: false,
    });
  });

  it("has one value per field of the contracts' list, keyed like the API", () => {
    expect(Object.keys(base).sort()).toEqual(['date', ...SLEEP_LOG_FIELDS].sort());
  });

  it('opens a stored night without a quality or yes/no answers at their defaults, and leaves the rest empty', () => {
    expect(valuesFromLog(night('2026-05-04'))).toMatchObject({
      sleepQuality110: '7',
      dreamRecall: false,
      heatWave: false,
      heatWakeups: '',
      sleepScore: '',
      totalSleepMinutes: '',
      morningMood: '',
      comments: '',
    });
  });

  it('parses typed durations into minutes and leaves empty fields out', () => {
    const result = toPayload({
      ...base,
      totalSleepMinutes: '7h32m',
      deepMinutes: '1h25m',
      latencyMinutes: '15m',
      sleepScore: '82',
      sleepEfficiency: '91,5',
      comments: '  ',
    });
    expect(result.errors).toBeNull();
    expect(result.data).toEqual({
      date: '2026-05-04',
      sleepwearMaterial: '100% Polyester',
      totalSleepMinutes: 452,
      deepMinutes: 85,
      latencyMinutes: 15,
      sleepScore: 82,
      sleepEfficiency: 91.5,
      sleepQuality110: 7,
      heatWakeups: 0,
      dreamRecall: false,
      heatWave: false,
    });
  });

  it('names every bad value on its own field instead of dropping it', () => {
    const result = toPayload({
      ...base,
      totalSleepMinutes: 'seven hours',
      remMinutes: '1h75m',
      sleepScore: '120',
      restingHr: 'fast',
      avgSpo2: '40',
      avgHrv: '41,25',
      sleepEfficiency: '-5',
      heatWakeups: '−1',
      date: '',
    });
    expect(result.data).toBeNull();
    expect(result.errors).toEqual({
      totalSleepMinutes: 'Use hours and minutes, like 7h32m, 15m or 1h25m',
      remMinutes: 'Minutes must be under 60 when hours are given, like 1h25m',
      sleepScore: 'Sleep score must be between 0 and 100',
      restingHr: 'Resting heart rate must be a number',
      avgSpo2: 'Average SpO2 must be between 50 and 100 %',
      avgHrv: 'Average HRV can have at most one decimal place',
      sleepEfficiency: 'Sleep efficiency must be between 0 and 100 %',
      heatWakeups: 'Heat wake-ups must be between 0 and 50',
      date: 'Date is required',
    });
  });

  it('goes back and forth with a stored night', () => {
    const values = valuesFromLog({
      id: '0d7b7d8e-58b4-4b8f-9a55-3f0c7a1e2b90',
      userId: '6f1c2a52-3c1e-4a53-9a0e-0a7c7c1d2f11',
      date: '2026-05-04',
      studyDay: 1,
      phase: 'polyester',
      recommendedMaterial: '100% Polyester',
      sleepwearMaterial: null,
      sleepScore: 82,
      totalSleepMinutes: 452,
      sleepEfficiency: 91.5,
      timeInBedMinutes: null,
      restingHr: 56,
      restfulness: null,
      remMinutes: 95,
      deepMinutes: 60,
      latencyMinutes: null,
      timingScore: null,
      avgSpo2: null,
      breathingRegularity: 'Good',
      lowestHr: null,
      avgHrv: 41.5,
      sleepQuality110: 9,
      restfulnessSelf: 6,
      morningMood: 'Groggy',
      dreamRecall: true,
      fabricComfort: null,
      emotionalCalm: null,
      heatWave: true,
      heatWakeups: 2,
      comments: 'Hot flash at 3am',
      createdAt: '2026-05-05T07:00:00.000Z',
      updatedAt: '2026-05-05T07:00:00.000Z',
    });
    expect(values).toMatchObject({
      sleepwearMaterial: '',
      totalSleepMinutes: '7h32m',
      remMinutes: '1h35m',
      deepMinutes: '1h',
      latencyMinutes: '',
      sleepScore: '82',
      breathingRegularity: 'Good',
    });
    expect(toPayload(values).data).toEqual({
      date: '2026-05-04',
      sleepScore: 82,
      totalSleepMinutes: 452,
      sleepEfficiency: 91.5,
      restingHr: 56,
      remMinutes: 95,
      deepMinutes: 60,
      breathingRegularity: 'Good',
      avgHrv: 41.5,
      sleepQuality110: 9,
      restfulnessSelf: 6,
      morningMood: 'Groggy',
      dreamRecall: true,
      heatWave: true,
      heatWakeups: 2,
      comments: 'Hot flash at 3am',
    });
  });

  it('knows a field the server names as a field of the form', () => {
    expect(isFormField('totalSleepMinutes')).toBe(true);
    expect(isFormField('sleepScore')).toBe(true);
    expect(isFormField('date')).toBe(true);
    expect(isFormField('nonsense')).toBe(false);
    expect(isFormField('toString')).toBe(false);
  });
});
