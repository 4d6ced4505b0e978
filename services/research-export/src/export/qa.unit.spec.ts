import { describe, expect, it } from 'vitest';
import { checkNight, nightValues, valuesByKey, type NightField, type NightRow, type NightValue } from './qa.ts';

type Fields = Partial<Record<NightField['key'], NightValue>>;
const baseFields: Fields = {
  sleepwearMaterial: '100% Polyester',
  sleepScore: 80,
  totalSleepMinutes: 420,
  timeInBedMinutes: 480,
  sleepEfficiency: 87.5,
  remMinutes: 90,
  deepMinutes: 70,
};
const base: NightRow = {
  researchId: 'SW-7K2M9QXD',
  date: '2026-10-02',
  studyDay: 2,
  phase: 'polyester',
  recommendedMaterial: '100% Polyester',
  recordedAt: new Date('2026-10-03T07:00:00Z'),
  changedAt: new Date('2026-10-03T07:00:00Z'),
  revisions: 0,
  timezone: null,
  values: nightValues(baseFields),
};
/** A night like `base` with `night`'s differences; never revised unless it says when (changedAt). */
const check = (night: Partial<Omit<NightRow, 'values'>> & { values?: Fields }, timezone = 'Europe/London') => {
  const checked = checkNight(
    {
      ...base,
      ...night,
      changedAt: night.changedAt ?? night.recordedAt ?? base.changedAt,
      values: nightValues({ ...baseFields, ...night.values }),
    },
    { lateRecordDays: 3, timezone },
  );
  return { ...checked, analysedValues: valuesByKey(checked.analysedValues) };
};

describe('the QA rules of a night', () => {
  it('pass a plausible night untouched', () => {
    const checked = check({});
    expect(checked).toMatchObject({ flags: [], hits: [], analysed: true });
    expect(checked.analysedValues).toEqual(valuesByKey(base.values));
  });

  it('treat an out-of-range value as missing and name it', () => {
    const checked = check({ values: { sleepScore: 140, morningMood: 'Sleepy', avgSpo2: 97.5 } });
    expect(checked.flags).toEqual(['out_of_range']);
    expect(checked.hits.map((h) => [h.field, h.value])).toEqual([
      ['sleep_score', '140'],
      ['morning_mood', 'Sleepy'],
    ]);
    expect(checked.analysedValues).toMatchObject({ sleepScore: null, morningMood: null, avgSpo2: 97.5 });
    expect(checked.analysed).toBe(true);
  });

  it('leave out a night worn in another fabric, and every night after the study', () => {
    expect(check({ values: { sleepwearMaterial: '100% Linen' } })).toMatchObject({ flags: ['material_mismatch'], analysed: false });
    expect(
      check({ phase: 'completed', studyDay: 43, recommendedMaterial: '100% Cotton', values: { sleepwearMaterial: '100% Linen' } }),
    ).toMatchObject({
      flags: ['after_study'],
      analysed: false,
    });
  });

  it('flag a night whose sleepwear was not recorded, and analyse it (it cannot be checked against the phase)', () => {
    expect(check({ values: { sleepwearMaterial: null } })).toMatchObject({ flags: ['material_not_recorded'], analysed: true });
    expect(
      check({ phase: 'completed', studyDay: 43, recommendedMaterial: '100% Cotton', values: { sleepwearMaterial: null } }),
    ).toMatchObject({
      flags: ['after_study'],
    });
  });

  it('drop impossible durations: sleep longer than bed, stages longer than sleep', () => {
    const longer = check({ values: { totalSleepMinutes: 500 } });
    expect(longer.flags).toContain('sleep_exceeds_bed');
    expect(longer.analysedValues).toMatchObject({ totalSleepMinutes: null, timeInBedMinutes: null, sleepEfficiency: null, remMinutes: 90 });
    const stages = check({ values: { remMinutes: 300, deepMinutes: 200 } });
    expect(stages.flags).toEqual(['stages_exceed_sleep']);
    expect(stages.analysedValues).toMatchObject({ remMinutes: null, deepMinutes: null, totalSleepMinutes: null, timeInBedMinutes: 480 });
  });

  it('flag, but keep, an inconsistent efficiency, a late recording and a revision', () => {
    const checked = check({ values: { sleepEfficiency: 60 }, recordedAt: new Date('2026-10-08T07:00:00Z'), revisions: 2 });
    expect(checked.flags).toEqual(['efficiency_inconsistent', 'recorded_late', 'revised']);
    expect(checked.analysed).toBe(true);
    expect(checked.analysedValues.sleepEfficiency).toBe(60);
    expect(check({ recordedAt: new Date('2026-10-06T07:00:00Z') }).flags).toEqual([]); // three days after the morning: fine
  });

  it('leave out a night recorded before it ended and not saved again after, in her time zone', () => {
    // London, summer time: the night of 2 October ends at 04:00 BST on the 3rd (03:00 UTC)
    const atHalfPastThree = check({ recordedAt: new Date('2026-10-03T02:30:00Z') });
    expect(atHalfPastThree).toMatchObject({ flags: ['before_night_ended'], analysed: false });
    expect(atHalfPastThree.hits[0]).toMatchObject({
      rule: 'before_night_ended',
      date: '2026-10-02',
      detail: 'recorded 1 h before the night ended',
    });
    expect(check({ recordedAt: new Date('2026-10-02T20:00:00Z') }).hits[0]!.detail).toBe('recorded 7 h before the night ended');
    expect(check({ recordedAt: new Date('2026-10-03T03:00:00Z') })).toMatchObject({ flags: [], analysed: true });
    // Los Angeles: 03:00 her time (10:00 UTC) is before her night's end; by London's it is after
    expect(check({ recordedAt: new Date('2026-10-03T10:00:00Z') }, 'America/Los_Angeles').flags).toEqual(['before_night_ended']);
    expect(check({ recordedAt: new Date('2026-10-03T10:00:00Z') }).flags).toEqual([]);
    // changed again, but still before the night ended: left out, the detail says when
    const twice = check({ recordedAt: new Date('2026-10-02T20:00:00Z'), changedAt: new Date('2026-10-02T23:30:00Z'), revisions: 1 });
    expect(twice).toMatchObject({ flags: ['before_night_ended', 'revised'], analysed: false });
    expect(twice.hits[0]!.detail).toBe('last changed 4 h before the night ended');
  });

  it('flag, but keep as last saved, a night first recorded before it ended and saved again after', () => {
    const completed = check({ recordedAt: new Date('2026-10-02T20:00:00Z'), changedAt: new Date('2026-10-03T06:45:00Z'), revisions: 1 });
    expect(completed).toMatchObject({ flags: ['recorded_early', 'revised'], analysed: true });
    expect(completed.hits[0]).toMatchObject({ rule: 'recorded_early', detail: 'recorded 7 h before the night ended, saved again after' });
    expect(completed.analysedValues).toEqual(valuesByKey(base.values));
  });

  it('count the days of a late recording in her time zone, not in UTC', () => {
    // Auckland: recorded 15 March at 08:00 her time (14 March 19:00 UTC), four days after the morning of the 11th
    const auckland = check({ date: '2026-03-10', recordedAt: new Date('2026-03-14T19:00:00Z') }, 'Pacific/Auckland');
    expect(auckland.flags).toEqual(['recorded_late']);
    expect(auckland.hits[0]!.detail).toBe('recorded 4 days after the morning');
    // Los Angeles: recorded 14 March at 22:00 her time (15 March 05:00 UTC), three days after: fine
    expect(check({ date: '2026-03-10', recordedAt: new Date('2026-03-15T05:00:00Z') }, 'America/Los_Angeles').flags).toEqual([]);
    // the same instants in UTC read the other way round
    expect(check({ date: '2026-03-10', recordedAt: new Date('2026-03-14T19:00:00Z') }, 'UTC').flags).toEqual([]);
    expect(check({ date: '2026-03-10', recordedAt: new Date('2026-03-15T05:00:00Z') }, 'UTC').flags).toEqual(['recorded_late']);
  });

  it('judge a night by the zone she logged it in, not the zone she has at the run', () => {
    // logged at 07:00 in Paris (06:00 UTC): her night had ended there; she is in Los Angeles now
    const inParis = { date: '2026-03-10', recordedAt: new Date('2026-03-11T06:00:00Z'), timezone: 'Europe/Paris' };
    expect(check(inParis, 'America/Los_Angeles')).toMatchObject({ flags: [], analysed: true });
    // the same night without its zone (logged before nights carried it) is judged in her zone at the run
    expect(check({ ...inParis, timezone: null }, 'America/Los_Angeles')).toMatchObject({ flags: ['before_night_ended'], analysed: false });
    // and a late recording's days are counted in the zone she logged it in (23:30 UTC on the 14th is the 15th in Paris)
    const late = { date: '2026-03-10', recordedAt: new Date('2026-03-14T23:30:00Z'), timezone: 'Europe/Paris' };
    expect(check(late, 'America/Los_Angeles').flags).toEqual(['recorded_late']);
    expect(check({ ...late, timezone: null }, 'America/Los_Angeles').flags).toEqual([]);
  });
});
