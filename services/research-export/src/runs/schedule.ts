import { utcOffsetMs } from '@sleepweave/contracts';

/** The schedule's record of a night: one stream per date, so only one instance can start it. */
export const scheduleStreamId = (date: string) => `research_schedule:${date}`;

/** The wall clock of a zone at `instant` as YYYY-MM-DDTHH:MM (24-hour): text that sorts as time does. */
function wallClock(timeZone: string, instant: Date): string {
  return new Date(instant.getTime() + utcOffsetMs(timeZone, instant.getTime())).toISOString().slice(0, 16);
}

/** Her wall-clock time in a zone as HH:MM (24-hour). */
export function clockIn(timeZone: string, instant: Date): string {
  return wallClock(timeZone, instant).slice(11);
}

/**
 * The date whose nightly run is due at `now`: today in the zone once its clock has reached
 * `time` (HH:MM), else none. A service that was down at that time still runs that day's
 * when it is back; the schedule stream of the date makes it once, whichever instance asks.
 * No run is owed for a time before `since`, when this service's database was made: a system
 * set up at 10:00 makes its first nightly run at the next night's time, not at once.
 */
export function nightlyRunDue(now: Date, time: string, timeZone: string, since: Date): string | null {
  const [today, clock] = wallClock(timeZone, now).split('T') as [string, string];
  if (clock < time) return null;
  // owed if the database was made before today's time, on the same clock
  return wallClock(timeZone, since) < `${today}T${time}` ? today : null;
}
