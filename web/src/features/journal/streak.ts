/**
 * Her current journaling streak (beyond the spec).
 *
 * What counts:
 * - Days are her calendar days in her profile timezone. The server stamps each entry with
 *   that day when she writes it, and "today" is computed in the same timezone here, so a
 *   late-evening entry counts for the evening's day wherever her browser is.
 * - A day counts once, however many entries she wrote that day.
 * - The streak is the number of consecutive days ending at her latest day, and it is
 *   alive only while that latest day is today or yesterday: she has until the end of
 *   today to keep it. Otherwise it is 0.
 * - Entries dated after today (possible after she moves her timezone west) count as today.
 */

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date (calendar arithmetic, no timezone involved). */
function dayNumber(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Math.round(Date.UTC(y, m - 1, d) / DAY_MS);
}

export interface Streak {
  /** Consecutive days with an entry, 0 when broken. */
  days: number;
  /** She already wrote today. */
  writtenToday: boolean;
  /** The streak runs back to the oldest of these days: older entries (not loaded yet) may go on with it. */
  reachesOldest: boolean;
}

export function currentStreak(entryDates: readonly string[], today: string): Streak {
  const todayNumber = dayNumber(today);
  const days = new Set(entryDates.map((date) => Math.min(dayNumber(date), todayNumber)));
  const writtenToday = days.has(todayNumber);
  let day = writtenToday ? todayNumber : todayNumber - 1;
  let count = 0;
  while (days.has(day)) {
    count += 1;
    day -= 1;
  }
  const oldest = Math.min(...days);
  return { days: count, writtenToday, reachesOldest: count > 0 && day + 1 === oldest };
}
