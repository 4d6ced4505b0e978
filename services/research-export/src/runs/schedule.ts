import { calendarDateIn } from '@sleepweave/contracts';

/** The schedule's record of a night: one stream per date, so only one instance can start it. */
export const scheduleStreamId = (date: string) => `research_schedule:${date}`;

/** Her wall-clock time in a zone as HH:MM (24-hour). */
export function clockIn(timeZone: string, instant: Date): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('hour')}:${part('minute')}`;
}

/**
 * The date whose nightly run is due at `now`: today in the zone once its clock has reached
 * `time` (HH:MM), else none. A service that was down at that time still runs that day's
 * when it is back; the schedule stream of the date makes it once, whichever instance asks.
 */
export function nightlyRunDue(now: Date, time: string, timeZone: string): string | null {
  return clockIn(timeZone, now) >= time ? calendarDateIn(timeZone, now) : null;
}
