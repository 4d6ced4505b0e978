import { addDays, type SleepLog } from '@sleepweave/contracts';
import { describe, expect, it } from 'vitest';
import { night } from './sleep-log.fixture';
import { studyProgress } from './study-progress';

const timezone = 'America/New_York';
// Monday 23 November 2026, 07:00 in New York: the night of Sun 22 -> Mon 23 has ended.
const now = new Date('2026-11-23T12:00:00Z');
const log = (date: string, studyDay: number): SleepLog => night(date, { studyDay });

describe('studyProgress: where she is, for the home page', () => {
  it('is not joined without consent', () => {
    expect(studyProgress({ hasConsent: false, studyStartDate: null, logs: [], timezone, now })).toEqual({ state: 'not-joined' });
  });

  it('on the day she joined: tonight is night 1, no night has ended yet', () => {
    const progress = studyProgress({ hasConsent: true, studyStartDate: '2026-11-23', logs: [], timezone, now });
    expect(progress).toMatchObject({ state: 'in-study', tonight: '2026-11-23', day: 1, nightsLogged: 0, nightsEnded: 0, lastNight: null });
  });

  it('joined between 00:00 and 04:00: the night she is in is before her study; her first night is the coming one', () => {
    // 01:30 on Mon 23 in New York: the night of Sun 22 -> Mon 23 is under way; the study starts on Mon 23
    const early = new Date('2026-11-23T06:30:00Z');
    const progress = studyProgress({ hasConsent: true, studyStartDate: '2026-11-23', logs: [], timezone, now: early });
    expect(progress).toMatchObject({ state: 'in-study', tonight: '2026-11-23', day: 1, nightsLogged: 0, nightsEnded: 0, lastNight: null });
    if (progress.state !== 'in-study') throw new Error('in the study');
    expect(progress.tonightStatus).toMatchObject({ phase: 'polyester', dayInPhase: 1 });
  });

  it('on day 16: tonight in the washout, last night not logged yet, nights logged out of those ended', () => {
    const start = addDays('2026-11-23', -15);
    const logs = [log(addDays(start, 0), 1), log(addDays(start, 1), 2), log(addDays(start, 13), 14)];
    const progress = studyProgress({ hasConsent: true, studyStartDate: start, logs, timezone, now });
    expect(progress).toMatchObject({ state: 'in-study', tonight: '2026-11-23', day: 16, nightsLogged: 3, nightsEnded: 15 });
    if (progress.state !== 'in-study') throw new Error('in the study');
    expect(progress.tonightStatus).toMatchObject({ phase: 'washout', dayInPhase: 2, recommendedMaterial: '100% Cotton' });
    expect(progress.lastNight).toEqual({ date: '2026-11-22', log: null, saveAgain: false });
    // the earlier nights she missed, newest first: nights 13 to 3 (last night, 15, has its own prompt)
    expect(progress.missedNights).toEqual(Array.from({ length: 11 }, (_, i) => addDays(start, 12 - i)));
  });

  it('counts a night logged ahead (tonight, tomorrow) once it has ended: never more logged than ended', () => {
    const start = addDays('2026-11-23', -7); // tonight is night 8; nights 1-7 have ended
    const logs = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((day) => log(addDays(start, day - 1), day));
    const progress = studyProgress({ hasConsent: true, studyStartDate: start, logs, timezone, now });
    expect(progress).toMatchObject({ state: 'in-study', day: 8, nightsLogged: 7, nightsEnded: 7 });
  });

  it('knows last night is logged', () => {
    const start = addDays('2026-11-23', -3);
    const logs = [log('2026-11-22', 3)];
    const progress = studyProgress({ hasConsent: true, studyStartDate: start, logs, timezone, now });
    expect(progress).toMatchObject({ state: 'in-study', lastNight: { date: '2026-11-22', log: logs[0] } });
  });

  it('knows last night was saved before it ended (logged ahead, or at 1 am), to be saved again; her last study night too', () => {
    const start = addDays('2026-11-23', -3);
    // saved at 03:59 on Monday in New York, a minute before the night of Sun 22 ended
    const early = night('2026-11-22', { studyDay: 3, updatedAt: '2026-11-23T08:59:00.000Z' });
    const progress = studyProgress({ hasConsent: true, studyStartDate: start, logs: [early], timezone, now });
    expect(progress).toMatchObject({ state: 'in-study', lastNight: { date: '2026-11-22', log: early, saveAgain: true } });
    const atFour = night('2026-11-22', { studyDay: 3, updatedAt: '2026-11-23T09:00:00.000Z' });
    expect(studyProgress({ hasConsent: true, studyStartDate: start, logs: [atFour], timezone, now })).toMatchObject({
      lastNight: { saveAgain: false },
    });
    const finished = addDays('2026-11-22', -41);
    const last = night('2026-11-22', { studyDay: 42, updatedAt: '2026-11-23T08:59:00.000Z' });
    expect(studyProgress({ hasConsent: true, studyStartDate: finished, logs: [last], timezone, now })).toMatchObject({
      state: 'complete',
      lastStudyNightToLog: null,
      lastStudyNightToSaveAgain: last,
    });
  });

  it('before 04:00 the night she is in has not ended: last night is the one before', () => {
    const early = new Date('2026-11-23T07:30:00Z'); // 02:30 in New York
    const progress = studyProgress({ hasConsent: true, studyStartDate: '2026-11-01', logs: [], timezone, now: early });
    expect(progress).toMatchObject({ state: 'in-study', tonight: '2026-11-22', lastNight: { date: '2026-11-21', log: null } });
  });

  it('is complete once tonight is after night 42; nights after the study are not counted', () => {
    const start = addDays('2026-11-22', -41); // last night was night 42
    const logs = [log(start, 1), log(addDays(start, 41), 42), log('2026-11-23', 43)];
    expect(studyProgress({ hasConsent: true, studyStartDate: start, logs, timezone, now })).toEqual({
      state: 'complete',
      nightsLogged: 2,
      nights: 42,
      lastNight: { date: '2026-11-22', log: logs[1], saveAgain: false },
      lastStudyNightToLog: null,
      lastStudyNightToSaveAgain: null,
      // nights 41 to 2, newest first
      missedNights: Array.from({ length: 40 }, (_, i) => addDays(start, 40 - i)),
    });
    // night 42 not logged: the morning after it, it is still asked for; a day later, not
    const unlogged = [log(start, 1)];
    expect(studyProgress({ hasConsent: true, studyStartDate: start, logs: unlogged, timezone, now })).toMatchObject({
      state: 'complete',
      lastStudyNightToLog: '2026-11-22',
    });
    const dayAfter = new Date(now.getTime() + 86_400_000);
    expect(studyProgress({ hasConsent: true, studyStartDate: start, logs: unlogged, timezone, now: dayAfter })).toMatchObject({
      state: 'complete',
      lastStudyNightToLog: null,
    });
    // the nights she missed are offered for a week after her study, then no more
    const weekAfter = new Date(now.getTime() + 6 * 86_400_000);
    const eightDaysAfter = new Date(now.getTime() + 7 * 86_400_000);
    expect(studyProgress({ hasConsent: true, studyStartDate: start, logs: unlogged, timezone, now: weekAfter })).toMatchObject({
      missedNights: expect.arrayContaining([addDays(start, 41)]),
    });
    expect(studyProgress({ hasConsent: true, studyStartDate: start, logs: unlogged, timezone, now: eightDaysAfter })).toMatchObject({
      missedNights: [],
    });
  });

  it('calls her first night tomorrow night when her study starts tomorrow in her zone (she moved west), and knows it logged ahead', () => {
    // 19:00 on Sunday 22 November in New York; she joined on Monday 23 in Paris, and logged that night ahead
    const evening = new Date('2026-11-23T00:00:00Z');
    const ahead = log('2026-11-23', 1);
    expect(studyProgress({ hasConsent: true, studyStartDate: '2026-11-23', logs: [ahead], timezone, now: evening })).toMatchObject({
      state: 'in-study',
      tonight: '2026-11-23',
      tonightIsTomorrow: true,
      tonightLog: ahead,
      nightsEnded: 0,
    });
    // at 01:00 on Monday, joined that day: its evening is tonight
    const smallHours = new Date('2026-11-23T06:00:00Z');
    expect(studyProgress({ hasConsent: true, studyStartDate: '2026-11-23', logs: [], timezone, now: smallHours })).toMatchObject({
      tonight: '2026-11-23',
      tonightIsTomorrow: false,
      tonightLog: null,
    });
  });
});
