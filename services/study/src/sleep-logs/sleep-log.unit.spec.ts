import { SLEEP_LOG_FIELDS, type SleepLogValues } from '@sleepweave/contracts';
import { deciderSpec } from '@sleepweave/event-store/testing';
import { describe, expect, it } from 'vitest';
import {
  ConsentRequired,
  InvalidSleepLogDate,
  SleepLogAlreadyRecorded,
  SleepLogChangedMeanwhile,
  SleepLogNotFound,
  sleepLogDecider,
  type RecordSleepLog,
  type ReviseSleepLog,
} from './business-logic.ts';
import type { SleepLogEvent } from './sleep-log.ts';

const userId = '6f1c2a52-3c1e-4a53-9a0e-0a7c7c1d2f11';
const logId = '0d7b7d8e-58b4-4b8f-9a55-3f0c7a1e2b90';
const empty = Object.fromEntries(SLEEP_LOG_FIELDS.map((k) => [k, null])) as SleepLogValues;
const values: SleepLogValues = {
  ...empty,
  sleepwearMaterial: '100% Cotton',
  sleepScore: 82,
  totalSleepMinutes: 452,
  remMinutes: 95,
  deepMinutes: 70,
  restingHr: 56,
  avgHrv: 41.5,
  sleepQuality110: 7,
  dreamRecall: false,
  heatWave: true,
  heatWakeups: 2,
};
const now = new Date('2026-05-20T07:30:00.000Z');
const start = '2026-05-04';

function record(date: string, overrides: Partial<RecordSleepLog['data']> = {}): RecordSleepLog {
  return {
    type: 'RecordSleepLog',
    data: { logId, userId, date, values, studyStartDate: start, timezone: 'Europe/London', now, ...overrides },
  };
}
function revise(date: string, newValues: SleepLogValues, id = logId, overrides: Partial<ReviseSleepLog['data']> = {}): ReviseSleepLog {
  return { type: 'ReviseSleepLog', data: { logId: id, userId, date, values: newValues, timezone: 'Europe/London', now, ...overrides } };
}

// 2026-05-18 is day 15 of a study that started on 2026-05-04: washout day 1.
const recorded: SleepLogEvent = {
  type: 'SleepLogRecorded',
  data: {
    logId,
    userId,
    date: '2026-05-18',
    studyDay: 15,
    phase: 'washout',
    recommendedMaterial: '100% Cotton',
    timezone: 'Europe/London',
    ...values,
    recordedAt: now.toISOString(),
  },
};

const spec = deciderSpec(sleepLogDecider);

describe('sleep log decider: recording a night', () => {
  it('records the night with its study day, phase, recommended material and her time zone', () => {
    spec.given([]).when(record('2026-05-18')).then([recorded]);
  });

  it.each([
    ['2026-05-04', 1, 'polyester', '100% Polyester'],
    ['2026-05-17', 14, 'polyester', '100% Polyester'],
    ['2026-05-31', 28, 'washout', '100% Cotton'],
    ['2026-06-01', 29, 'linen', '100% Linen'],
  ] as const)('night %s is day %i (%s)', (date, studyDay, phase, recommendedMaterial) => {
    const later = new Date('2026-06-30T12:00:00.000Z');
    const [event] = sleepLogDecider.decide(record(date, { now: later }), sleepLogDecider.initialState());
    expect(event!.data).toMatchObject({ date, studyDay, phase, recommendedMaterial });
  });

  it('stores nights after day 42 as completed', () => {
    const later = new Date('2026-07-01T12:00:00.000Z');
    const [event] = sleepLogDecider.decide(record('2026-06-15', { now: later }), sleepLogDecider.initialState());
    expect(event!.data).toMatchObject({ studyDay: 43, phase: 'completed', recommendedMaterial: '100% Cotton' });
  });

  it('refuses a second log of the same night', () => {
    spec.given([recorded]).when(record('2026-05-18')).thenThrows(SleepLogAlreadyRecorded);
  });

  it('needs her consent', () => {
    spec
      .given([])
      .when(record('2026-05-18', { studyStartDate: null }))
      .thenThrows(ConsentRequired);
  });

  it('accepts up to tomorrow in her timezone and refuses later dates', () => {
    // 23:30 UTC on 20 May is already 21 May in Paris (tomorrow: 22 May), still 20 May in New York (tomorrow: 21 May).
    const lateEvening = new Date('2026-05-20T23:30:00.000Z');
    const [event] = sleepLogDecider.decide(record('2026-05-22', { now: lateEvening, timezone: 'Europe/Paris' }), fold([]));
    expect(event!.data).toMatchObject({ date: '2026-05-22', studyDay: 19 });
    const error = spec
      .given([])
      .when(record('2026-05-22', { now: lateEvening, timezone: 'America/New_York' }))
      .thenThrows(InvalidSleepLogDate);
    expect((error as Error).message).toBe('You can log nights up to tomorrow (2026-05-21).');
  });

  it('refuses nights before her study started', () => {
    const error = spec.given([]).when(record('2026-05-03')).thenThrows(InvalidSleepLogDate);
    expect((error as Error).message).toBe('Your study started on 2026-05-04; nights before it are not part of the study.');
  });
});

describe('sleep log decider: revising a night', () => {
  const changed: SleepLogValues = { ...values, sleepScore: 88, comments: 'Woke once, cooler than last week', heatWave: false };

  it('replaces every field and keeps the night (date, study day, phase)', () => {
    spec
      .given([recorded])
      .when(revise('2026-05-18', changed))
      .then([
        {
          type: 'SleepLogRevised',
          data: {
            logId,
            userId,
            date: '2026-05-18',
            studyDay: 15,
            phase: 'washout',
            recommendedMaterial: '100% Cotton',
            timezone: 'Europe/London',
            ...changed,
            revisedAt: now.toISOString(),
          },
        },
      ]);
  });

  it('keeps the zone she logged the night in, and adds none to a night logged before zones were kept', () => {
    const [event] = sleepLogDecider.decide(revise('2026-05-18', changed), fold([recorded]));
    expect(event!.data).toMatchObject({ timezone: 'Europe/London' });
    const { timezone: _zone, ...olderData } = recorded.data;
    const older: SleepLogEvent = { ...recorded, data: olderData };
    const [revisedOlder] = sleepLogDecider.decide(revise('2026-05-18', changed), fold([older]));
    expect(revisedOlder!.data).not.toHaveProperty('timezone');
  });

  it('clears a field left out of the new version', () => {
    const [event] = sleepLogDecider.decide(revise('2026-05-18', { ...values, avgHrv: null }), fold([recorded]));
    expect(event!.data.avgHrv).toBeNull();
  });

  it('decides nothing when nothing changed', () => {
    spec
      .given([recorded])
      .when(revise('2026-05-18', { ...values }))
      .then([]);
  });

  describe('a night saved before it ended (research leaves it out until it is saved after)', () => {
    // The night of 18 May ends at 04:00 on 19 May in London (03:00 UTC, summer time), at 02:00 UTC in Paris.
    const early: SleepLogEvent = { ...recorded, data: { ...recorded.data, recordedAt: '2026-05-19T02:30:00.000Z' } };
    const { recordedAt: _recordedAt, ...night } = recorded.data;

    it('saved again unchanged once it has ended, is stamped anew with the same values', () => {
      spec
        .given([early])
        .when(revise('2026-05-18', { ...values }))
        .then([{ type: 'SleepLogRevised', data: { ...night, revisedAt: now.toISOString() } }]);
    });

    it('saved again unchanged before it has ended, or after a save since it ended, decides nothing', () => {
      spec
        .given([early])
        .when(revise('2026-05-18', { ...values }, logId, { now: new Date('2026-05-19T02:59:59.999Z') }))
        .then([]);
      const confirmed: SleepLogEvent = {
        type: 'SleepLogRevised',
        data: { ...recorded.data, ...values, revisedAt: '2026-05-19T03:00:00.000Z' },
      };
      spec
        .given([early, confirmed])
        .when(revise('2026-05-18', { ...values }))
        .then([]);
    });

    it('is judged in the zone it was logged in and in her zone now (her screens ask in hers), a night of no zone in hers', () => {
      // saved at 02:30 UTC: before the night's end in London (03:00 UTC), after it in Paris (02:00 UTC)
      const inParis: SleepLogEvent = { ...early, data: { ...early.data, timezone: 'Europe/Paris' } };
      expect(sleepLogDecider.decide(revise('2026-05-18', { ...values }, logId, { timezone: 'Europe/Paris' }), fold([inParis]))).toEqual([]);
      expect(sleepLogDecider.decide(revise('2026-05-18', { ...values }), fold([inParis]))).toHaveLength(1);
      const { timezone: _zone, ...olderData } = early.data;
      const older: SleepLogEvent = { ...early, data: olderData };
      expect(sleepLogDecider.decide(revise('2026-05-18', { ...values }, logId, { timezone: 'Europe/Paris' }), fold([older]))).toEqual([]);
      expect(sleepLogDecider.decide(revise('2026-05-18', { ...values }), fold([older]))).toHaveLength(1);
    });
  });

  it('refuses an unknown log and another log id', () => {
    spec.given([]).when(revise('2026-05-18', changed)).thenThrows(SleepLogNotFound);
    spec
      .given([recorded])
      .when(revise('2026-05-18', changed, 'a1d2e3f4-0000-4000-8000-000000000000'))
      .thenThrows(SleepLogNotFound);
  });

  it('refuses to move a log to another date', () => {
    spec.given([recorded]).when(revise('2026-05-19', changed)).thenThrows(InvalidSleepLogDate);
  });

  it('with the version her form was filled from: refuses a change when the night was saved since, applies it when not', () => {
    const revisedAt = '2026-05-20T08:00:00.000Z';
    const savedSince: SleepLogEvent = {
      type: 'SleepLogRevised',
      data: { ...recorded.data, ...changed, revisedAt } as Extract<SleepLogEvent, { type: 'SleepLogRevised' }>['data'],
    };
    const from = (expectedUpdatedAt: string): ReviseSleepLog => {
      const command = revise('2026-05-18', { ...values, sleepScore: 40 });
      return { ...command, data: { ...command.data, expectedUpdatedAt } };
    };
    // filled from the recording, saved since: refused
    spec.given([recorded, savedSince]).when(from(now.toISOString())).thenThrows(SleepLogChangedMeanwhile);
    // filled from the latest save (the same instant, written otherwise): applied
    const [applied] = sleepLogDecider.decide(from('2026-05-20T09:00:00+01:00'), fold([recorded, savedSince]));
    expect(applied).toMatchObject({ type: 'SleepLogRevised', data: { sleepScore: 40 } });
    // the night already as she wants it: nothing to refuse
    spec
      .given([recorded, savedSince])
      .when({ ...from(now.toISOString()), data: { ...from(now.toISOString()).data, values: { ...savedSince.data } as SleepLogValues } })
      .then([]);
  });
});

function fold(events: SleepLogEvent[]) {
  return events.reduce(sleepLogDecider.evolve, sleepLogDecider.initialState());
}
