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
 * No run is owed for a time before `since`, when this service's database was made: a system
 * set up at 10:00 makes its first nightly run at the next night's time, not at once.
 */
export function nightlyRunDue(now: Date, time: string, timeZone: string, since: Date): string | null {
  if (clockIn(timeZone, now) < time) return null;
  const today = calendarDateIn(timeZone, now);
  // wall-clock readings compared as text (YYYY-MM-DD HH:MM): owed if made before today's time
  const made = `${calendarDateIn(timeZone, since)} ${clockIn(timeZone, since)}`;
  return made < `${today} ${time}` ? today : null;
}
