import { addDays, lastEndedNight, type SleepLog } from '@sleepweave/contracts';

/** docs/product.md §9: the weekly report covers exactly 7 days. */
export const REPORT_DAYS = 7;

export interface ReportDay {
  date: string;
  /** null: no log that day (a gap in the charts). */
  log: SleepLog | null;
}

/**
 * The night the report ends with: the last that has ended (tonight is not slept yet), or
 * the latest she has logged ahead (tonight's, her first night logged on the day she joined;
 * or tomorrow's, which the log takes), so that no night she saved is left out of it.
 */
export function reportEnd(logs: SleepLog[], timeZone: string, now: Date): string {
  return logs.reduce((end, log) => (log.date > end ? log.date : end), lastEndedNight(timeZone, now));
}

/**
 * The report's 7 days: the seven nights ending with `lastNight` (reportEnd), oldest first;
 * a night without a log is a gap. null when none of them has a log. docs/product.md §4 starts the window at
 * the earliest log instead, which runs into the future under "the last 7 days"
 * (docs/study-protocol.md, "Weekly report window").
 */
export function reportDays(logs: SleepLog[], lastNight: string): ReportDay[] | null {
  const days = Array.from({ length: REPORT_DAYS }, (_, i) => {
    const date = addDays(lastNight, i - (REPORT_DAYS - 1));
    return { date, log: logs.find((log) => log.date === date) ?? null };
  });
  return days.some((day) => day.log !== null) ? days : null;
}

export interface WeeklySummary {
  /** Days with a sleep score. */
  daysLogged: number;
  averageSleepScore: number | null;
  averageRemMinutes: number | null;
  averageDeepMinutes: number | null;
  averageRestingHr: number | null;
}

function mean(values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : present.reduce((sum, v) => sum + v, 0) / present.length;
}
const rounded = (value: number | null) => (value === null ? null : Math.round(value));

/** docs/product.md §9's Weekly Summary; null where there is no data (shown as '--'). */
export function weeklySummary(days: ReportDay[]): WeeklySummary {
  const logs = days.map((day) => day.log).filter((log): log is SleepLog => log !== null);
  return {
    daysLogged: logs.filter((log) => log.sleepScore !== null).length,
    averageSleepScore: rounded(mean(logs.map((log) => log.sleepScore))),
    averageRemMinutes: rounded(mean(logs.map((log) => log.remMinutes))),
    averageDeepMinutes: rounded(mean(logs.map((log) => log.deepMinutes))),
    averageRestingHr: rounded(mean(logs.map((log) => log.restingHr))),
  };
}
