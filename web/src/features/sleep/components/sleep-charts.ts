import type { SleepLog } from '@sleepweave/contracts';
import { format, parseISO } from 'date-fns';
import { metricValue, type ChartPoint, type Metric } from './metrics';

/** docs/product.md §9: charts show the last 7 entries. */
export const CHART_ENTRIES = 7;

/** The last 7 entries sorted by date (oldest first), from a newest-first list. */
export function lastEntries(logs: SleepLog[], count = CHART_ENTRIES): SleepLog[] {
  return [...logs]
    .sort((a, b) => (a.date < b.date ? 1 : -1))
    .slice(0, count)
    .reverse();
}

/** Points labelled by weekday ('Mon'), with the full date in the tooltip. */
export function weekdayPoints(logs: SleepLog[], key: Metric['key']): ChartPoint[] {
  return logs.map((log) => {
    const date = parseISO(log.date);
    return { label: format(date, 'EEE'), title: format(date, 'EEEE, MMM dd'), value: metricValue(log, key) };
  });
}
