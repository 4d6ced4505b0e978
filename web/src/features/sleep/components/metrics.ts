import type { SleepLog, StudyPhase } from '@sleepweave/contracts';

/** The charted metrics, each with a fixed colour (docs/product.md §9) and its unit. */
export interface Metric {
  key: 'sleepScore' | 'deepMinutes' | 'remMinutes' | 'restingHr' | 'avgHrv';
  color: string;
  unit: string;
  /** The most the metric can be (a score's 100), the axis's top at most; null when open-ended. */
  max: number | null;
  /** Decimals its values are said with: 1 for one typed with a decimal (HRV, step 0.1). */
  decimals: 0 | 1;
}

export const METRICS = {
  sleepScore: { key: 'sleepScore', color: '#5a4ca6', unit: '', max: 100, decimals: 0 },
  deepMinutes: { key: 'deepMinutes', color: '#2f6f8f', unit: 'min', max: null, decimals: 0 },
  remMinutes: { key: 'remMinutes', color: '#9b5fc0', unit: 'min', max: null, decimals: 0 },
  restingHr: { key: 'restingHr', color: '#c2410c', unit: 'bpm', max: null, decimals: 0 },
  avgHrv: { key: 'avgHrv', color: '#2f7d4f', unit: 'ms', max: null, decimals: 1 },
} as const satisfies Record<Metric['key'], Metric>;

/** Steps an axis may count in: each divides 100 (and 10), so a top of 100 is a tick. */
const STEPS = [1, 2, 5, 10, 20, 25, 50];

/**
 * The value axis of a chart. Open-ended metrics: as recharts rounds it. A metric with a top
 * (a score's 100): the axis is worked out here, from the values, in round steps, and never
 * past the top: recharts widens any domain it rounds itself to its own round ticks (a score
 * axis read 102, 104, 105), whatever top it is given.
 */
export function valueAxis(
  points: readonly ChartPoint[],
  max: number | null,
): { domain: [number | 'auto', number | 'auto']; ticks?: number[] } {
  const values = points.flatMap((point) => (point.value === null ? [] : [point.value]));
  if (max === null || values.length === 0) return { domain: ['auto', 'auto'] };
  const low = Math.min(...values);
  const high = Math.min(Math.max(...values), max);
  // at most 5 intervals between the round values around the data
  const step = STEPS.find((s) => Math.ceil(high / s) - Math.floor(low / s) <= 5) ?? STEPS.at(-1)!;
  let start = Math.max(0, Math.floor(low / step) * step);
  let top = Math.min(max, Math.ceil(high / step) * step);
  // one value (or all the same): a step either side, so that it sits in the middle, not on
  // the axis line (77 was drawn on the bottom of 77-78); at 0 or at the top, a step inside
  if (top === start) {
    start = Math.max(0, start - step);
    top = Math.min(max, top + step);
  }
  const ticks: number[] = [];
  for (let tick = start; tick <= top; tick += step) ticks.push(tick);
  return { domain: [start, top], ticks };
}

/** One point of a chart; `value` null is a gap. */
export interface ChartPoint {
  /** The night (YYYY-MM-DD). */
  date: string;
  /** The axis label ('May 04'). */
  label: string;
  /** The tooltip's label ('Monday, May 04'). */
  title: string;
  value: number | null;
  /** The night's phase (the shading behind it); null when not known, and before her study. */
  phase: StudyPhase | null;
  /** A night before her study started: not hers to log, so neither a gap nor a phase. */
  beforeStudy: boolean;
  /** A night of hers that has not ended yet and is not logged: still to come, not missed. */
  toCome: boolean;
}

export const metricValue = (log: SleepLog | null, key: Metric['key']): number | null => (log ? log[key] : null);
