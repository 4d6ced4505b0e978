import { addDays, type SleepLog } from '@sleepweave/contracts';

/** Section 9: the weekly report covers exactly 7 days. */
export const REPORT_DAYS = 7;

export interface ReportDay {
  date: string;
  /** null: no log that day (a gap in the charts). */
  log: SleepLog | null;
}

/**
 * The report's 7 days (section 4): the logs of the last 7 days (today and the six before,
 * in her timezone) sorted by date; the earliest one's date is day 1 and seven consecutive
 * days follow. null when there is no log in that span.
 */
export function reportDays(logs: SleepLog[], today: string): ReportDay[] | null {
  const from = addDays(today, -(REPORT_DAYS - 1));
  const recent = logs.filter((log) => log.date >= from).sort((a, b) => (a.date < b.date ? -1 : 1));
  const first = recent[0];
  if (!first) return null;
  return Array.from({ length: REPORT_DAYS }, (_, i) => {
    const date = addDays(first.date, i);
    return { date, log: recent.find((log) => log.date === date) ?? null };
  });
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

/** Section 9's Weekly Summary; null where there is no data (shown as '--'). */
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
