import {
  SLEEP_LOG_FIELDS,
  latestLoggableDate,
  nightEndTime,
  studyStatusOn,
  type SleepLogValues,
  type Timezone,
} from '@sleepweave/contracts';
import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type SleepLogEvent, type SleepLogState } from './sleep-log.ts';

export type RecordSleepLog = {
  type: 'RecordSleepLog';
  data: {
    logId: string;
    userId: string;
    date: string;
    values: SleepLogValues;
    /** From her consent; null when she has not consented. */
    studyStartDate: string | null;
    timezone: Timezone;
    now: Date;
  };
};
export type ReviseSleepLog = {
  type: 'ReviseSleepLog';
  data: {
    logId: string;
    userId: string;
    date: string;
    values: SleepLogValues;
    /** Her time zone now: when the night has none of its own (logged before zones were kept). */
    timezone: Timezone;
    now: Date;
    /** The `updatedAt` of the night her form was filled from: saved since, the change is refused. */
    expectedUpdatedAt?: string | undefined;
  };
};
export type SleepLogCommand = RecordSleepLog | ReviseSleepLog;

export class ConsentRequired extends Error {
  override name = 'ConsentRequired';
}
export class SleepLogAlreadyRecorded extends Error {
  override name = 'SleepLogAlreadyRecorded';
}
export class SleepLogNotFound extends Error {
  override name = 'SleepLogNotFound';
}
/** The night was saved again (another tab, another device) after the form she saved from was filled. */
export class SleepLogChangedMeanwhile extends Error {
  override name = 'SleepLogChangedMeanwhile';
}
/** A rule about the night's date (the HTTP layer names the `date` field). */
export class InvalidSleepLogDate extends Error {
  override name = 'InvalidSleepLogDate';
}

/**
 * A night is logged once, by a participant who consented, for a date from her study's
 * first day up to tomorrow in her timezone. Its study day and phase are stored with it.
 */
export function recordSleepLog(command: RecordSleepLog, state: SleepLogState): SleepLogEvent[] {
  const { logId, userId, date, values, studyStartDate, timezone, now } = command.data;
  if (state.status !== 'none') throw new SleepLogAlreadyRecorded('A sleep log for this date already exists.');
  if (studyStartDate === null) throw new ConsentRequired('Please give your consent to the sleep study before logging sleep.');
  const latest = latestLoggableDate(timezone, now);
  if (date > latest) throw new InvalidSleepLogDate(`You can log nights up to tomorrow (${latest}).`);
  if (date < studyStartDate) {
    throw new InvalidSleepLogDate(`Your study started on ${studyStartDate}; nights before it are not part of the study.`);
  }
  const status = studyStatusOn(studyStartDate, date);
  return [
    {
      type: 'SleepLogRecorded',
      data: {
        logId,
        userId,
        date,
        studyDay: status.day!,
        phase: status.phase,
        recommendedMaterial: status.recommendedMaterial,
        timezone,
        ...values,
        recordedAt: now.toISOString(),
      },
    },
  ];
}

const sameValues = (a: SleepLogValues, b: SleepLogValues) => SLEEP_LOG_FIELDS.every((key) => a[key] === b[key]);

/**
 * Whether a save now is the one the research waits for: the night was last saved before it
 * ended (04:00 on its morning) and has ended since. Research leaves such a night out until it
 * is saved after it ended, judged in the zone she logged it in; her screens judge it in her
 * zone now and ask her to save it again, unchanged if nothing changed (docs/study-protocol.md,
 * "Dates"). Either asks, and the save is stamped anew.
 */
function confirmsEndedNight(state: Extract<SleepLogState, { status: 'recorded' }>, timezone: Timezone, now: Date): boolean {
  const saved = Date.parse(state.updatedAt);
  return [state.night.timezone ?? timezone, timezone].some((zone) => {
    const end = nightEndTime(zone, state.night.date);
    return saved < end && now.getTime() >= end;
  });
}

/** Replaces every field of a logged night; the night itself (date, study day) never changes. */
export function reviseSleepLog(command: ReviseSleepLog, state: SleepLogState): SleepLogEvent[] {
  const { logId, date, values, timezone, now, expectedUpdatedAt } = command.data;
  if (state.status !== 'recorded' || state.night.logId !== logId) throw new SleepLogNotFound('Sleep log not found.');
  if (state.night.date !== date) {
    throw new InvalidSleepLogDate(
      `A sleep log's date cannot be changed (this one is for ${state.night.date}); log the other night as a new entry.`,
    );
  }
  if (sameValues(state.values, values) && !confirmsEndedNight(state, timezone, now)) return [];
  // her form showed an older save: replacing the whole night would drop that save unseen
  if (expectedUpdatedAt !== undefined && Date.parse(expectedUpdatedAt) !== Date.parse(state.updatedAt)) {
    throw new SleepLogChangedMeanwhile('This night was saved again since you opened it.');
  }
  return [{ type: 'SleepLogRevised', data: { ...state.night, ...values, revisedAt: now.toISOString() } }];
}

export function decide(command: SleepLogCommand, state: SleepLogState): SleepLogEvent[] {
  switch (command.type) {
    case 'RecordSleepLog':
      return recordSleepLog(command, state);
    case 'ReviseSleepLog':
      return reviseSleepLog(command, state);
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

export const sleepLogDecider: Decider<SleepLogCommand, SleepLogState, SleepLogEvent> = { decide, evolve, initialState };
