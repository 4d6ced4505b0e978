import {
  addDays,
  CURRENT_PROTOCOL,
  daysBetween,
  formatDuration,
  roundDecimal,
  phaseRanges,
  SLEEP_CHART_METRICS,
  SLEEP_LOG_FIELD_LIST,
  studyStatusOn,
  type SleepChartMetric,
  type SleepLog,
  type SleepLogFieldKey,
  type StudyPhase,
} from '@sleepweave/contracts';

/**
 * What her export says, worked out without I/O: the statistics of the Summary sheet and the
 * PDF's tables (NightsDigest, fed night by night as they stream from the database), the
 * phases of her study as dates, the shaded bands of the charts, and how values are written.
 */

/** A metric of the summary: every numeric field of a night (scores, durations, heart, ratings). */
export interface SummaryMetric {
  key: SleepLogFieldKey;
  label: string;
  /** 'min', 'bpm', 'ms', '%' or null. */
  unit: string | null;
  kind: 'integer' | 'decimal' | 'duration';
}

export const SUMMARY_METRICS: readonly SummaryMetric[] = SLEEP_LOG_FIELD_LIST.flatMap((spec) =>
  spec.kind === 'integer' || spec.kind === 'decimal' || spec.kind === 'duration'
    ? [{ key: spec.key, label: spec.label, unit: spec.unit, kind: spec.kind }]
    : [],
);

export const PHASE_ORDER: readonly StudyPhase[] = ['polyester', 'washout', 'linen', 'completed'];

export const PHASE_NAMES: Record<StudyPhase, string> = {
  polyester: 'Polyester',
  washout: 'Washout (cotton)',
  linen: 'Linen',
  completed: 'After the study',
};

/** The phase in few words, for a table's narrow column. */
export const PHASE_SHORT_NAMES: Record<StudyPhase, string> = {
  polyester: 'Polyester',
  washout: 'Washout',
  linen: 'Linen',
  completed: 'After study',
};

/** '1 night', '42 nights'. */
export const nightsText = (n: number) => `${n} ${n === 1 ? 'night' : 'nights'}`;

/** n, mean, min and max of one metric over some nights; mean null when no night has a value. */
export interface MetricStats {
  n: number;
  mean: number | null;
  min: number | null;
  max: number | null;
}

interface Accumulator {
  n: number;
  sum: number;
  min: number;
  max: number;
}

class PhaseAccumulator {
  nights = 0;
  first: string | null = null;
  last: string | null = null;
  readonly materials = new Map<string, number>();
  readonly metrics = new Map<SleepLogFieldKey, Accumulator>();

  add(log: SleepLog): void {
    this.nights += 1;
    if (this.first === null || log.date < this.first) this.first = log.date;
    if (this.last === null || log.date > this.last) this.last = log.date;
    const material = log.sleepwearMaterial ?? 'Not recorded';
    this.materials.set(material, (this.materials.get(material) ?? 0) + 1);
    for (const metric of SUMMARY_METRICS) {
      const value = log[metric.key];
      if (typeof value !== 'number' || !Number.isFinite(value)) continue;
      const acc = this.metrics.get(metric.key);
      if (acc) {
        acc.n += 1;
        acc.sum += value;
        acc.min = Math.min(acc.min, value);
        acc.max = Math.max(acc.max, value);
      } else {
        this.metrics.set(metric.key, { n: 1, sum: value, min: value, max: value });
      }
    }
  }

  stats(key: SleepLogFieldKey): MetricStats {
    const acc = this.metrics.get(key);
    if (!acc) return { n: 0, mean: null, min: null, max: null };
    return { n: acc.n, mean: acc.sum / acc.n, min: acc.min, max: acc.max };
  }
}

export interface PhaseSummary {
  /** A phase, or null for all her nights in the range. */
  phase: StudyPhase | null;
  name: string;
  nights: number;
  first: string | null;
  last: string | null;
  /** What she wore, most worn first: [['100% Linen', 13], ['100% Cotton', 1]]. */
  materials: [string, number][];
  metrics: Record<SleepLogFieldKey, MetricStats>;
}

/** The values of the charted metrics on one night. */
export type ChartValues = Record<SleepChartMetric['key'], number | null>;

/**
 * Her nights, digested as they stream by: per phase and overall, the count and each metric's
 * n, mean, min and max; and the charted values by date (five numbers a night, so a year is
 * a few kilobytes). Never holds the nights themselves.
 */
export class NightsDigest {
  private readonly phases = new Map<StudyPhase, PhaseAccumulator>();
  private readonly all = new PhaseAccumulator();
  private readonly chartValues = new Map<string, ChartValues>();

  add(log: SleepLog): void {
    let phase = this.phases.get(log.phase);
    if (!phase) this.phases.set(log.phase, (phase = new PhaseAccumulator()));
    phase.add(log);
    this.all.add(log);
    this.chartValues.set(
      log.date,
      Object.fromEntries(SLEEP_CHART_METRICS.map((m) => [m.key, typeof log[m.key] === 'number' ? log[m.key] : null])) as ChartValues,
    );
  }

  get nights(): number {
    return this.all.nights;
  }

  /** One summary per phase she has nights in (study order), then all of them. */
  summaries(): PhaseSummary[] {
    const phases = PHASE_ORDER.flatMap((phase) => {
      const acc = this.phases.get(phase);
      return acc ? [summaryOf(phase, PHASE_NAMES[phase], acc)] : [];
    });
    return [...phases, summaryOf(null, 'All nights', this.all)];
  }

  /** The summary of one phase, or null when the range has none of its nights. */
  phase(phase: StudyPhase): PhaseSummary | null {
    const acc = this.phases.get(phase);
    return acc ? summaryOf(phase, PHASE_NAMES[phase], acc) : null;
  }

  /** A metric's value on each date of `dates` (null: no night, or not recorded: a gap). */
  series(key: SleepChartMetric['key'], dates: readonly string[]): (number | null)[] {
    return dates.map((date) => this.chartValues.get(date)?.[key] ?? null);
  }
}

function summaryOf(phase: StudyPhase | null, name: string, acc: PhaseAccumulator): PhaseSummary {
  return {
    phase,
    name,
    nights: acc.nights,
    first: acc.first,
    last: acc.last,
    materials: [...acc.materials.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
    metrics: Object.fromEntries(SUMMARY_METRICS.map((m) => [m.key, acc.stats(m.key)])) as Record<SleepLogFieldKey, MetricStats>,
  };
}

/** One metric of her polyester and linen nights side by side: descriptive, no test. */
export interface PhaseComparison {
  metric: SummaryMetric;
  polyester: MetricStats;
  linen: MetricStats;
  /** Linen mean minus polyester mean; null unless both have values. */
  difference: number | null;
}

/** Null when the range lacks polyester or linen nights: there is nothing to set side by side. */
export function comparePolyesterLinen(digest: NightsDigest): PhaseComparison[] | null {
  const polyester = digest.phase('polyester');
  const linen = digest.phase('linen');
  if (!polyester || !linen) return null;
  return SUMMARY_METRICS.map((metric) => {
    const p = polyester.metrics[metric.key];
    const l = linen.metrics[metric.key];
    return { metric, polyester: p, linen: l, difference: p.mean !== null && l.mean !== null ? l.mean - p.mean : null };
  });
}

export const COMPARISON_NOTE =
  'Descriptive only: the nights of one person are not independent of each other, so these differences are not a test ' +
  'and say nothing certain about the fabrics. The study answers that across all its participants. Each difference is ' +
  'of the means before rounding, so it can differ by 0.1 from the rounded means shown. These are every night you logged in ' +
  'each phase, as you logged it, whatever you wore; the study analyses only the nights in its fabric, with values in ' +
  'range, so the means of your research export (my_comparison.csv) can differ.';

// ---------------------------------------------------------------------------------------
// Dates, phases and bands

/** Every calendar date from `start` to `end`, both included. */
export function datesBetween(start: string, end: string): string[] {
  const count = daysBetween(start, end) + 1;
  return Array.from({ length: Math.max(0, count) }, (_, i) => addDays(start, i));
}

/** The phases of her study as calendar dates, from her start date (docs/study-protocol.md). */
export interface StudyPhaseDates {
  phase: StudyPhase;
  name: string;
  /** What the protocol has her wear. */
  material: string;
  first: string;
  /** null for the open-ended time after the study. */
  last: string | null;
  nights: string;
}

export function studyPhaseDates(studyStartDate: string): StudyPhaseDates[] {
  const phases: StudyPhaseDates[] = phaseRanges(CURRENT_PROTOCOL).map(({ phase, first, last }) => ({
    phase: phase.id,
    name: PHASE_NAMES[phase.id],
    material: phase.material,
    first: addDays(studyStartDate, first - 1),
    last: addDays(studyStartDate, last - 1),
    nights: `nights ${first}-${last}`,
  }));
  const end = phaseRanges(CURRENT_PROTOCOL).at(-1)!.last;
  phases.push({
    phase: 'completed',
    name: PHASE_NAMES.completed,
    material: `${CURRENT_PROTOCOL.completed.material} (recommended)`,
    first: addDays(studyStartDate, end),
    last: null,
    nights: `from night ${end + 1}`,
  });
  return phases;
}

/** A stretch of the chart's dates that belongs to one phase: shaded, and named at the top. */
export interface PhaseBand {
  phase: StudyPhase;
  label: string;
  /** Indexes into the dates, both included. */
  from: number;
  to: number;
}

/** The phase of each date (from her start date), as runs of dates; dates before her study have none. */
export function phaseBands(studyStartDate: string | null, dates: readonly string[]): PhaseBand[] {
  const bands: PhaseBand[] = [];
  dates.forEach((date, i) => {
    if (studyStartDate === null || date < studyStartDate) return;
    const phase = studyStatusOn(studyStartDate, date).phase;
    const last = bands.at(-1);
    if (last && last.phase === phase && last.to === i - 1) last.to = i;
    else bands.push({ phase, label: PHASE_NAMES[phase], from: i, to: i });
  });
  return bands;
}

// ---------------------------------------------------------------------------------------
// Writing values

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const parts = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { y, m, d, weekday: new Date(Date.UTC(y, m - 1, d)).getUTCDay() };
};

/** 'Mar 03' (docs/product.md §2: the charts' date axis). */
export function shortDate(date: string): string {
  const { m, d } = parts(date);
  return `${MONTHS[m - 1]} ${String(d).padStart(2, '0')}`;
}

/** 'Mar 03, 2025'. */
export function longDate(date: string): string {
  return `${shortDate(date)}, ${parts(date).y}`;
}

/** 'Mon Mar 03'. */
export function weekdayDate(date: string): string {
  return `${WEEKDAYS[parts(date).weekday]} ${shortDate(date)}`;
}

/** 'Mar 03, 2025 – Apr 11, 2025' or one date. */
export function dateRange(start: string, end: string): string {
  return start === end ? longDate(start) : `${longDate(start)} – ${longDate(end)}`;
}

/** A metric's value for reading: durations as '7h 32m', others with their unit; '--' for none. */
export function formatMetric(metric: Pick<SummaryMetric, 'kind' | 'unit'>, value: number | null, digits = 1): string {
  if (value === null) return '--';
  if (metric.kind === 'duration') return formatDuration(roundDecimal(value));
  const rounded = metric.kind === 'integer' && Number.isInteger(value) ? String(value) : roundDecimal(value, digits).toFixed(digits);
  if (!metric.unit) return rounded;
  return metric.unit === '%' ? `${rounded}%` : `${rounded} ${metric.unit}`;
}

/** A value that a line never breaks inside ("1h 26m", "55 bpm"): its spaces are no-break spaces. */
const unbroken = (value: string) => value.replace(/ /g, '\u00A0');

/**
 * A mean: with its one decimal whatever it comes to (a mean of 63.0 printed "63" beside
 * "63.2"), durations in whole minutes; never broken across lines.
 */
export function formatMean(metric: Pick<SummaryMetric, 'kind' | 'unit'>, value: number | null): string {
  return unbroken(formatMetric(metric.kind === 'integer' ? { ...metric, kind: 'decimal' } : metric, value));
}

/**
 * Smallest to largest ("47m–1h 26m"), each end unbroken: a narrow cell breaks it after the
 * dash, not inside a value (it read "47m–1h" on one line, "26m" on the next).
 */
export function formatRange(metric: Pick<SummaryMetric, 'kind' | 'unit'>, min: number | null, max: number | null): string {
  return `${unbroken(formatMetric(metric, min))}–${unbroken(formatMetric(metric, max))}`;
}

/** A signed difference ('+4.5 ms', '−12m', '0m'); durations in minutes. */
export function formatDifference(metric: Pick<SummaryMetric, 'kind' | 'unit'>, value: number | null): string {
  if (value === null) return '--';
  const rounded = roundDecimal(value, metric.kind === 'duration' ? 0 : 1);
  const sign = rounded > 0 ? '+' : rounded < 0 ? '−' : '';
  const magnitude = Math.abs(rounded);
  if (metric.kind === 'duration') return `${sign}${formatDuration(magnitude)}`;
  const text = magnitude.toFixed(1);
  if (!metric.unit) return `${sign}${text}`;
  return metric.unit === '%' ? `${sign}${text} pts` : `${sign}${text} ${metric.unit}`;
}
