import type { SleepLog, StudyPhase } from '@sleepweave/contracts';

/** The charted metrics, each with a fixed colour (docs/product.md §9) and its unit. */
export interface Metric {
  key: 'sleepScore' | 'deepMinutes' | 'remMinutes' | 'restingHr' | 'avgHrv';
  color: string;
  unit: string;
}

export const METRICS = {
  sleepScore: { key: 'sleepScore', color: '#5a4ca6', unit: '' },
  deepMinutes: { key: 'deepMinutes', color: '#2f6f8f', unit: 'min' },
  remMinutes: { key: 'remMinutes', color: '#9b5fc0', unit: 'min' },
  restingHr: { key: 'restingHr', color: '#c2410c', unit: 'bpm' },
  avgHrv: { key: 'avgHrv', color: '#2f7d4f', unit: 'ms' },
} as const satisfies Record<Metric['key'], Metric>;

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
