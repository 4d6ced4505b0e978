/**
 * Wall-clock times in a participant's time zone, for the demo's past clock: "21:30 on
 * 2025-03-04 in Europe/London" as an instant. Intl only (as the study's own date code).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

const HOUR = 3_600_000;
const offsets = new Map<string, number>();

/**
 * How far the zone's wall clock is ahead of UTC at `instant`, in milliseconds. Remembered
 * per zone and UTC hour: the zones of the app change their offset on the hour.
 */
export function offsetMs(timeZone: string, instant: number): number {
  const key = `${timeZone}:${Math.floor(instant / HOUR)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = computeOffset(timeZone, Math.floor(instant / HOUR) * HOUR);
    offsets.set(key, offset);
  }
  return offset;
}

function computeOffset(timeZone: string, instant: number): number {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant it is `minutes` after midnight of `date` on the wall clock of `timeZone`.
 * Two passes settle the offset on either side of a DST change; a wall time that does not
 * exist (skipped in spring) comes out an hour later, one that exists twice is the first.
 */
export function instantAt(date: string, minutes: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d) + minutes * 60_000;
  let instant = wall - offsetMs(timeZone, wall);
  instant = wall - offsetMs(timeZone, instant);
  return new Date(instant);
}
