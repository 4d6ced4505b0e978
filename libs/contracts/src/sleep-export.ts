import { z } from 'zod';
import { CalendarDate, textError } from './common.ts';
import type { SleepLogFieldKey } from './sleep-log-fields.ts';
import { addDays, daysBetween } from './study-protocol.ts';

/**
 * Her own sleep export (/sleep/export, and the charts page's Export to Excel and Generate
 * PDF Report): `GET /api/sleep/export?startDate=&endDate=&format=xlsx|pdf`. The web form
 * and the study service check the request with the same schema, so both say the same.
 */

/** The longest range one export covers, in calendar days (both ends included). */
export const SLEEP_EXPORT_MAX_DAYS = 366;

/** Where an export of her nights from `first` to `last` starts: at `first`, or a year before `last` when that is further than one export covers. */
export function exportStart(first: string, last: string): string {
  return daysBetween(first, last) + 1 > SLEEP_EXPORT_MAX_DAYS ? addDays(last, 1 - SLEEP_EXPORT_MAX_DAYS) : first;
}

/** docs/product.md §2: the two formats, in the spec's words. */
export const SLEEP_EXPORT_FORMATS = [
  { value: 'xlsx', label: 'Excel (.xlsx) - Detailed data with charts' },
  { value: 'pdf', label: 'PDF Report - Professional summary' },
] as const;
export const SleepExportFormat = z.enum(['xlsx', 'pdf'], { error: 'Format must be xlsx or pdf.' });
export type SleepExportFormat = z.infer<typeof SleepExportFormat>;

export const SLEEP_EXPORT_MESSAGES = {
  startRequired: 'Start Date is required.',
  endRequired: 'End Date is required.',
  badStart: 'Start Date must be a real date, like 2025-03-01.',
  badEnd: 'End Date must be a real date, like 2025-03-31.',
  endBeforeStart: 'End Date must be on or after Start Date.',
  tooLong: `The range can be at most ${SLEEP_EXPORT_MAX_DAYS} days. Please choose a shorter range.`,
} as const;

function exportDate(label: string, required: string, bad: string) {
  return z
    .string({ error: (issue) => (issue.input == null ? required : `${textError(required, label)(issue)}.`) })
    .superRefine((value, ctx) => {
      if (value.trim() === '') ctx.addIssue({ code: 'custom', message: required, abort: true });
      else if (!CalendarDate.safeParse(value).success) ctx.addIssue({ code: 'custom', message: bad });
    });
}

/** The query of GET /api/sleep/export. Every message is a sentence she can act on. */
export const SleepExportQuery = z
  .object({
    startDate: exportDate('Start Date', SLEEP_EXPORT_MESSAGES.startRequired, SLEEP_EXPORT_MESSAGES.badStart),
    endDate: exportDate('End Date', SLEEP_EXPORT_MESSAGES.endRequired, SLEEP_EXPORT_MESSAGES.badEnd),
    format: SleepExportFormat,
  })
  .superRefine((query, ctx) => {
    // (runs after a field's own issue too: only when both dates are real)
    if (!CalendarDate.safeParse(query.startDate).success || !CalendarDate.safeParse(query.endDate).success) return;
    const days = daysBetween(query.startDate, query.endDate);
    if (days < 0) ctx.addIssue({ code: 'custom', path: ['endDate'], message: SLEEP_EXPORT_MESSAGES.endBeforeStart });
    else if (days + 1 > SLEEP_EXPORT_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['endDate'], message: SLEEP_EXPORT_MESSAGES.tooLong });
  });
export type SleepExportQuery = z.infer<typeof SleepExportQuery>;

/** The name of the file: her dates in it, e.g. `sleepweave-sleep-2025-03-01-to-2025-04-11.xlsx`. */
export function sleepExportFileName(query: Pick<SleepExportQuery, 'startDate' | 'endDate' | 'format'>): string {
  return `sleepweave-sleep-${query.startDate}-to-${query.endDate}.${query.format}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "Dec 01, 2026", as the screens write a date (without Intl: see groupThousands). */
const shownDate = (date: string) => `${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(8, 10)}, ${date.slice(0, 4)}`;

/** The answer (404) for a range without a logged night: said in the screen, never an empty file. */
export function noNightsInRangeMessage(startDate: string, endDate: string): string {
  return startDate === endDate
    ? `You have no sleep logged on ${shownDate(startDate)}. Choose dates with logged nights.`
    : `You have no sleep logged between ${shownDate(startDate)} and ${shownDate(endDate)}. Choose dates with logged nights.`;
}

/**
 * The five charted metrics (docs/product.md §2: the charts page, in its order), with the
 * colour each keeps everywhere it is drawn (docs/product.md §9): the web charts and the
 * exported files' charts.
 */
export interface SleepChartMetric {
  key: Extract<SleepLogFieldKey, 'sleepScore' | 'deepMinutes' | 'remMinutes' | 'restingHr' | 'avgHrv'>;
  title: string;
  color: string;
  /** '', 'min', 'bpm' or 'ms'. */
  unit: string;
}
export const SLEEP_CHART_METRICS: readonly SleepChartMetric[] = [
  { key: 'sleepScore', title: 'Sleep Score', color: '#5a4ca6', unit: '' },
  { key: 'deepMinutes', title: 'Deep Sleep (minutes)', color: '#2f6f8f', unit: 'min' },
  { key: 'remMinutes', title: 'REM Sleep (minutes)', color: '#9b5fc0', unit: 'min' },
  { key: 'restingHr', title: 'Resting Heart Rate', color: '#c2410c', unit: 'bpm' },
  { key: 'avgHrv', title: 'Average HRV', color: '#2f7d4f', unit: 'ms' },
];
