/**
 * Sleep durations (total sleep, time in bed, REM, deep, latency): typed as text such as
 * `7h32m`, `15m` or `1h25m` (docs/product.md §5), stored as whole minutes, shown as 'Xh Ym', 'Xh',
 * 'Ym', or '0m' when missing (docs/product.md §9).
 */

/** A night lasts at most a day. */
export const MAX_DURATION_MINUTES = 24 * 60;

export const DURATION_FORMAT_HINT = 'Use hours and minutes, like 7h32m, 15m or 1h25m';

export type DurationParse = { ok: true; minutes: number | null } | { ok: false; error: string };

// 7h32m, 7h 32m, 7 h 32 min, 7hrs, 45m, 45 minutes (case-insensitive)
const HOURS_MINUTES = /^(?:(\d{1,3})\s*h(?:ours?|rs?)?)?\s*(?:(\d{1,4})\s*m(?:in(?:utes?|s)?)?)?$/i;
// 7:32
const CLOCK = /^(\d{1,2}):(\d{2})$/;

/**
 * Parses a typed duration into minutes. Empty text is "not recorded" (null), not 0: a
 * night without ring data must not count as zero minutes (docs/decisions.md). A bare
 * number is refused rather than guessed (is "7" hours or minutes?).
 */
export function parseDuration(text: string): DurationParse {
  const value = text.trim();
  if (value === '') return { ok: true, minutes: null };
  let hours = 0;
  let minutes = 0;
  const clock = CLOCK.exec(value);
  const hm = clock ? null : HOURS_MINUTES.exec(value);
  if (clock) {
    hours = Number(clock[1]);
    minutes = Number(clock[2]);
  } else if (hm && (hm[1] !== undefined || hm[2] !== undefined)) {
    hours = Number(hm[1] ?? 0);
    minutes = Number(hm[2] ?? 0);
  } else {
    return { ok: false, error: DURATION_FORMAT_HINT };
  }
  if ((clock || hm?.[1] !== undefined) && minutes >= 60) {
    return { ok: false, error: 'Minutes must be under 60 when hours are given, like 1h25m' };
  }
  const total = hours * 60 + minutes;
  if (total > MAX_DURATION_MINUTES) return { ok: false, error: 'A duration can be at most 24h' };
  return { ok: true, minutes: total };
}

/** For display: 452 -> '7h 32m', 420 -> '7h', 15 -> '15m', missing or 0 -> '0m'. */
export function formatDuration(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined || !Number.isFinite(minutes) || minutes <= 0) return '0m';
  const total = Math.round(minutes);
  const h = Math.floor(total / 60);
  const m = total % 60;
  if (h > 0 && m > 0) return `${h}h ${m}m`;
  if (h > 0) return `${h}h`;
  return `${m}m`;
}

/** For a form field, in the typed style: 452 -> '7h32m', 120 -> '2h', 15 -> '15m', missing -> ''. */
export function formatDurationInput(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined) return '';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h > 0 && m > 0) return `${h}h${m}m`;
  if (h > 0) return `${h}h`;
  return `${m}m`;
}

/**
 * A night's durations that cannot all be right: she slept longer than she was in bed, or
 * REM and deep sleep (two parts of her sleep) came to more than all of it. The research
 * export's quality rules leave such values out of the analysis (sleep_exceeds_bed,
 * stages_exceed_sleep); the sleep log form warns as she types them. Each check needs all its
 * durations; a missing one checks nothing.
 */
export interface NightDurations {
  totalSleepMinutes: number | null;
  timeInBedMinutes: number | null;
  remMinutes: number | null;
  deepMinutes: number | null;
}

/** Total sleep longer than time in bed. */
export function sleepExceedsBed({ totalSleepMinutes: total, timeInBedMinutes: bed }: NightDurations): boolean {
  return total !== null && bed !== null && total > bed;
}

/** REM plus deep sleep longer than total sleep. */
export function stagesExceedSleep({ totalSleepMinutes: total, remMinutes: rem, deepMinutes: deep }: NightDurations): boolean {
  return total !== null && rem !== null && deep !== null && rem + deep > total;
}
