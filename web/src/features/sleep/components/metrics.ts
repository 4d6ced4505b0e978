import type { SleepLog, StudyPhase } from '@sleepweave/contracts';

/** The charted metrics, each with a fixed colour (docs/product.md §9) and its unit. */
export interface Metric {
  key: 'sleepScore' | 'deepMinutes' | 'remMinutes' | 'restingHr' | 'avgHrv';
  color: string;
  unit: string;
  /** The most the metric can be (a score's 100), the axis's top at most; null when open-ended. */
  max: number | null;
}

export const METRICS = {
  sleepScore: { key: 'sleepScore', color: '#5a4ca6', unit: '', max: 100 },
  deepMinutes: { key: 'deepMinutes', color: '#2f6f8f', unit: 'min', max: null },
  remMinutes: { key: 'remMinutes', color: '#9b5fc0', unit: 'min', max: null },
  restingHr: { key: 'restingHr', color: '#c2410c', unit: 'bpm', max: null },
  avgHrv: { key: 'avgHrv', color: '#2f7d4f', unit: 'ms', max: null },
} as const satisfies Record<Metric['key'], Metric>;

/**
 * The value axis of a chart: as its values need it, but not past the metric's maximum. Near
 * the top (within a tenth of it) the axis ends there: the rounded axis read 102 for a score.
 */
export function valueDomain(points: readonly ChartPoint[], max: number | null): [number | 'auto', number | 'auto'] {
  if (max === null) return ['auto', 'auto'];
  const top = Math.max(...points.map((point) => point.value ?? Number.NEGATIVE_INFINITY));
  return top >= max * 0.9 ? ['auto', max] : ['auto', 'auto'];
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
  /** The night's phase (the shading behind it); null when not known. */
  phase: StudyPhase | null;
}

export const metricValue = (log: SleepLog | null, key: Metric['key']): number | null => (log ? log[key] : null);
