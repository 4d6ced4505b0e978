import {
  addDays,
  calendarDateIn,
  currentNight,
  lastEndedNight,
  savedBeforeItEnded,
  studyDayOf,
  studyLength,
  studyStatusOn,
  type SleepLog,
  type StudyStatus,
} from '@sleepweave/contracts';

/** Where she is in the study at `now`, for the home page. Pure: the clock comes in. */
export type StudyProgress =
  | { state: 'not-joined' }
  | {
      state: 'in-study';
      /** Tonight's night (the one she is in or sleeps next) and its status: phase, day, material. */
      tonight: string;
      /**
       * That night begins tomorrow evening: her study starts tomorrow in her zone (she joined
       * in another zone, further east, and has moved since).
       */
      tonightIsTomorrow: boolean;
      /** Her log of that night, when she logged it ahead. */
      tonightLog: SleepLog | null;
      tonightStatus: StudyStatus;
      /** The study day of tonight's night (1-42). */
      day: number;
      /**
       * Nights of the study that have ended, and of those the ones logged (a night logged
       * ahead, tonight's or tomorrow's, counts once it has ended, as in the admin's and the
       * research's counts).
       */
      nightsLogged: number;
      nightsEnded: number;
      /** Nights of her study logged ahead, not ended yet (tonight's, tomorrow's). */
      nightsAhead: number;
      /** Earlier nights of her study, ended and not logged, newest first (last night aside: it has its own prompt). */
      missedNights: string[];
      /**
       * The night that just ended, when it belongs to her study (null on the day she joined),
       * and whether she saved it before it ended (the study counts it once saved after).
       */
      lastNight: LastNight | null;
    }
  | {
      state: 'complete';
      nightsLogged: number;
      nights: number;
      lastNight: LastNight;
      /** Her last study night, ended and not logged yet: the morning after it, the one prompt left. */
      lastStudyNightToLog: string | null;
      /** Her last study night, saved before it ended and not since: the morning after it, to save again. */
      lastStudyNightToSaveAgain: SleepLog | null;
      /** Nights of her study not logged, newest first (night 42 aside on the morning after it: it has its own prompt). */
      missedNights: string[];
    };

export interface LastNight {
  date: string;
  log: SleepLog | null;
  /** Saved before the night ended, not since: research leaves it out until she saves it again. */
  saveAgain: boolean;
}

/** For how many days after her study ends the home page still offers the nights she missed. */
export const MISSED_NIGHTS_OFFERED_AFTER_STUDY = 7;

export function studyProgress({
  hasConsent,
  studyStartDate,
  logs,
  timezone,
  now,
}: {
  hasConsent: boolean;
  studyStartDate: string | null;
  logs: SleepLog[];
  timezone: string;
  now: Date;
}): StudyProgress {
  if (!hasConsent || studyStartDate === null) return { state: 'not-joined' };
  const nights = studyLength();
  const lastEnded = lastEndedNight(timezone, now);
  // Joined between 00:00 and 04:00: the night she is in began before her study (day 1 is the
  // day of consent); her first night is the coming one, which the server takes, not this one.
  const current = currentNight(timezone, now);
  const tonight = current < studyStartDate ? studyStartDate : current;
  const inStudy = (log: SleepLog) => log.studyDay >= 1 && log.studyDay <= nights;
  const nightsLogged = logs.filter(inStudy).length;
  const endedDay = studyDayOf(studyStartDate, lastEnded) ?? 0;
  const lastLog = logs.find((log) => log.date === lastEnded) ?? null;
  const lastNight =
    endedDay >= 1 ? { date: lastEnded, log: lastLog, saveAgain: lastLog !== null && savedBeforeItEnded(lastLog, timezone) } : null;
  const day = studyDayOf(studyStartDate, tonight) ?? 1;
  // her study's nights that have ended, newest first, not logged (last night has a prompt of its own)
  const logged = new Set(logs.map((log) => log.date));
  const missedNights: string[] = [];
  for (let n = Math.min(endedDay, nights); n >= 1; n--) {
    const date = addDays(studyStartDate, n - 1);
    if (date !== lastEnded && !logged.has(date)) missedNights.push(date);
  }
  if (day > nights) {
    const lastStudyNight = endedDay === nights ? lastNight! : null;
    return {
      state: 'complete',
      nightsLogged,
      nights,
      lastNight: lastNight!,
      lastStudyNightToLog: lastStudyNight && !lastStudyNight.log ? lastEnded : null,
      lastStudyNightToSaveAgain: lastStudyNight?.saveAgain ? lastStudyNight.log : null,
      // offered for a week after her study: later, a night weeks old is no longer hers to recall
      missedNights: day - nights <= MISSED_NIGHTS_OFFERED_AFTER_STUDY ? missedNights : [],
    };
  }
  return {
    state: 'in-study',
    tonight,
    tonightIsTomorrow: tonight > calendarDateIn(timezone, now),
    tonightLog: logs.find((log) => log.date === tonight) ?? null,
    tonightStatus: studyStatusOn(studyStartDate, tonight),
    day,
    nightsLogged: logs.filter((log) => inStudy(log) && log.date <= lastEnded).length,
    nightsAhead: logs.filter((log) => inStudy(log) && log.date > lastEnded).length,
    nightsEnded: Math.min(Math.max(endedDay, 0), nights),
    missedNights,
    lastNight,
  };
}
