import { NIGHT_ENDS_AT_HOUR, wallClockIn } from '@sleepweave/contracts';
import { useEffect, useState } from 'react';

/** The longest the clock goes unread (summer time changes an hour's length; her device's clock may be set). */
const READ_AT_LEAST_EVERY_MS = 60 * 60_000;

/**
 * How long until her wall clock in `timeZone` next shows midnight or 04:00
 * (NIGHT_ENDS_AT_HOUR): the two hours at which what the screens say of her nights changes
 * (which night is "tonight", which "last night", what to wear).
 */
export function msToNextNightHour(timeZone: string, now: Date): number {
  const { hour, minute, second } = wallClockIn(timeZone, now);
  const next = hour < NIGHT_ENDS_AT_HOUR ? NIGHT_ENDS_AT_HOUR : 24;
  return ((next - hour) * 3600 - minute * 60 - second) * 1000 - (now.getTime() % 1000);
}

/**
 * Now, for what the screens say of her nights and days in `timeZone` (undefined while her
 * profile loads): read again just after her clock passes midnight or 04:00, at least
 * hourly, and when the page is shown again (a sleeping device's timers run late). A tab left
 * open overnight said "Tonight" of the night before and offered it to log; the weekly
 * report kept last week, and the journal's streak "You have written today" of yesterday.
 */
export function useNightClock(timeZone: string | undefined): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (timeZone === undefined) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = (at: Date) => {
      clearTimeout(timer);
      timer = setTimeout(read, Math.min(msToNextNightHour(timeZone, at) + 1000, READ_AT_LEAST_EVERY_MS));
    };
    const read = () => {
      const at = new Date();
      setNow(at);
      schedule(at);
    };
    const shown = () => {
      if (document.visibilityState === 'visible') read();
    };
    schedule(new Date());
    document.addEventListener('visibilitychange', shown);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', shown);
    };
  }, [timeZone]);
  return now;
}
