import { describe, expect, it } from 'vitest';
import { ageOn, nightsElapsed, specCompliancePercent, studyProgress } from './compliance.ts';

describe("the spec's compliance: sleep logs ÷ days since joining (at least 1) × 100", () => {
  const joined = new Date('2026-10-01T09:00:00.000Z');
  it.each([
    // [logs, now, percent]
    [0, '2026-10-01T10:00:00.000Z', 0],
    [1, '2026-10-01T10:00:00.000Z', 100], // less than a day: one day
    [3, '2026-10-02T08:59:59.000Z', 300], // still the first whole day
    [9, '2026-10-11T09:00:00.000Z', 90], // ten days
    [2, '2026-10-04T09:00:00.000Z', 67], // 2 ÷ 3, rounded
  ])('%i logs at %s: %i%%', (logs, now, percent) => {
    expect(specCompliancePercent(logs, joined, new Date(now))).toBe(percent);
  });
});

describe('study compliance: nights logged ÷ study nights elapsed', () => {
  it('counts a night as due from its morning: none on day 1, all 42 after the study', () => {
    expect(nightsElapsed(1)).toBe(0);
    expect(nightsElapsed(2)).toBe(1);
    expect(nightsElapsed(15)).toBe(14);
    expect(nightsElapsed(43)).toBe(42);
    expect(nightsElapsed(90)).toBe(42);
    expect(nightsElapsed(0)).toBe(0); // a start date after today (her time zone moved)
  });

  it('gives the phase, the day and the percent', () => {
    expect(studyProgress('2026-10-01', '2026-10-01', 0)).toMatchObject({
      day: 1,
      phase: 'polyester',
      phaseName: 'Polyester',
      dayInPhase: 1,
      daysInPhase: 14,
      nightsElapsed: 0,
      nightsLogged: 0,
      compliancePercent: null, // nothing due yet
    });
    // she consented at 02:00 on 1 October: her current night is still 30 September's
    expect(studyProgress('2026-10-01', '2026-09-30', 0)).toMatchObject({
      day: 1,
      phase: 'polyester',
      dayInPhase: 1,
      nightsElapsed: 0,
      compliancePercent: null,
    });
    expect(studyProgress('2026-10-01', '2026-10-20', 15)).toMatchObject({
      day: 20,
      phase: 'washout',
      dayInPhase: 6,
      nightsElapsed: 19,
      compliancePercent: 79,
    });
    expect(studyProgress('2026-10-01', '2026-12-01', 42)).toMatchObject({
      phase: 'completed',
      phaseName: 'Study Complete',
      dayInPhase: null,
      nightsElapsed: 42,
      compliancePercent: 100,
    });
  });
});

describe('age', () => {
  it('is whole years on the day, null without a date of birth', () => {
    expect(ageOn('1971-06-01', '2026-05-31')).toBe(54);
    expect(ageOn('1971-06-01', '2026-06-01')).toBe(55);
    expect(ageOn(null, '2026-06-01')).toBeNull();
  });
});
