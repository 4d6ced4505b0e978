import { addDays, daysBetween, roundDecimal, studyLength, studyStatusOn, type SleepLog, type StudyPhase } from '@sleepweave/contracts';
import { format, parseISO } from 'date-fns';
import { metricValue, type ChartPoint, type Metric } from './metrics';

/** docs/product.md §9: charts show the last 7 entries. */
export const CHART_ENTRIES = 7;

/** One night on a chart's axis: its log, or null (a gap: nothing logged that night). */
export interface ChartNight {
  date: string;
  log: SleepLog | null;
}

const byDate = (logs: SleepLog[]) => new Map(logs.map((log) => [log.date, log]));

/** Every night from `first` to `last` (inclusive), with her log of it or a gap. */
export function nightsBetween(logs: SleepLog[], first: string, last: string): ChartNight[] {
  const found = byDate(logs);
  return Array.from({ length: daysBetween(first, last) + 1 }, (_, i) => {
    const date = addDays(first, i);
    return { date, log: found.get(date) ?? null };
  });
}

/**
 * Her last 7 entries, on their dates: every night from the oldest of them to the newest,
 * so a night she did not log between them is a gap, not hidden.
 */
export function lastEntryNights(logs: SleepLog[], count = CHART_ENTRIES): ChartNight[] {
  const recent = [...logs].sort((a, b) => (a.date < b.date ? 1 : -1)).slice(0, count);
  if (recent.length === 0) return [];
  return nightsBetween(recent, recent.at(-1)!.date, recent[0]!.date);
}

/** Her study's first night, from any of her nights (each is stored with its study day). */
export function studyStartOf(logs: SleepLog[]): string | null {
  const [log] = logs;
  return log ? addDays(log.date, 1 - log.studyDay) : null;
}

/** The whole study: nights 1 to 42 from her start date, logged or not. */
export function studyNights(logs: SleepLog[], studyStartDate: string): ChartNight[] {
  return nightsBetween(logs, studyStartDate, addDays(studyStartDate, studyLength() - 1));
}

/**
 * One chart's points: labelled by date ('May 04'), the full date in the tooltip, the
 * night's phase for the shading (the stored one, else from her start date). A night before
 * her start date (the weekly report's days before she joined) has no phase: it was shaded
 * and counted as a polyester night she had missed. A night after `lastEnded` (the night that
 * ended last in her zone) with no log is still to come: the whole study's 42 nights on its
 * second day said "2 of 42 nights recorded", as if she had missed 40.
 */
export function chartPoints(
  nights: ChartNight[],
  key: Metric['key'],
  studyStartDate: string | null,
  lastEnded: string | null = null,
): ChartPoint[] {
  return nights.map(({ date, log }) => {
    const day = parseISO(date);
    const beforeStudy = studyStartDate !== null && date < studyStartDate && log === null;
    const toCome = lastEnded !== null && date > lastEnded && log === null;
    const phase: StudyPhase | null = log?.phase ?? (studyStartDate && !beforeStudy ? studyStatusOn(studyStartDate, date).phase : null);
    return {
      date,
      label: format(day, 'MMM dd'),
      title: format(day, 'EEEE, MMM dd'),
      value: metricValue(log, key),
      phase,
      beforeStudy,
      toCome,
    };
  });
}

/** A run of neighbouring points in one phase (index range, inclusive), for the shading. */
export interface PhaseBand {
  phase: StudyPhase;
  from: number;
  to: number;
}

export function phaseBands(points: ChartPoint[]): PhaseBand[] {
  const bands: PhaseBand[] = [];
  points.forEach((point, index) => {
    const last = bands.at(-1);
    if (point.phase === null) return;
    if (last && last.phase === point.phase && last.to === index - 1) last.to = index;
    else bands.push({ phase: point.phase, from: index, to: index });
  });
  return bands;
}

/** Which points get an axis label: all of a week; on longer spans the first, every 7th and the last. */
export function tickIndices(count: number): number[] {
  if (count <= 8) return Array.from({ length: count }, (_, i) => i);
  const ticks = Array.from({ length: Math.ceil(count / 7) }, (_, i) => i * 7);
  if (count - 1 - ticks.at(-1)! >= 3) ticks.push(count - 1);
  return ticks;
}

/** A value of a chart with its unit: with one decimal for a metric typed with one (HRV: "42.0 ms"). */
export function metricText(value: number, unit: string, decimals: 0 | 1 = 0): string {
  const text = decimals === 1 ? value.toFixed(1) : String(value);
  return unit ? `${text} ${unit}` : text;
}

/**
 * The chart in words, for everyone and for screen readers: how many nights have a value,
 * the lowest, highest and average, and the latest value with its date. A metric typed with
 * a decimal (HRV) says each with one ("lowest 31.6 ms, highest 42.3 ms, average 38.0 ms",
 * as her PDF report does; the average read "38 ms" beside them); a whole-number one says
 * its values as they are and the average to a decimal where it has one ("average 67.5").
 */
export function chartSummary(shown: ChartPoint[], unit: string, decimals: 0 | 1 = 0): string {
  const withUnit = (value: number) => metricText(value, unit, decimals);
  // the nights of her study so far: one before it was not hers to record, one to come not yet
  const points = shown.filter((point) => !point.beforeStudy && !point.toCome);
  const toCome = shown.filter((point) => point.toCome).length;
  const later = toCome === 0 ? '' : ` ${toCome} ${toCome === 1 ? 'night is' : 'nights are'} still to come.`;
  const present = points.filter((point): point is ChartPoint & { value: number } => point.value !== null);
  const nights = `${points.length} ${points.length === 1 ? 'night' : 'nights'}`;
  if (points.length === 0) return `No night has ended yet.${later}`;
  if (present.length === 0) return `Nothing recorded for ${points.length === 1 ? 'this night' : `these ${nights}`}.${later}`;
  const values = present.map((point) => point.value);
  const mean = roundDecimal(values.reduce((sum, v) => sum + v, 0) / values.length, 1);
  const latest = present.at(-1)!;
  const recorded =
    present.length < points.length
      ? `${present.length} of ${nights} recorded`
      : points.length === 1
        ? '1 night recorded'
        : `All ${nights} recorded`;
  // one value has no lowest, highest and average of its own ("All 1 night recorded: lowest 74, highest 74, average 74")
  if (present.length === 1) return `${recorded}: ${withUnit(latest.value)} on ${latest.title}.${later}`;
  return `${recorded}: lowest ${withUnit(Math.min(...values))}, highest ${withUnit(Math.max(...values))}, average ${withUnit(mean)}. Latest ${withUnit(latest.value)} on ${latest.title}.${later}`;
}
