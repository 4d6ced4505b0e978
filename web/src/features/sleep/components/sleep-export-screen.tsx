import {
  exportStart,
  SLEEP_EXPORT_FORMATS,
  SLEEP_EXPORT_MAX_DAYS,
  SleepExportQuery,
  type SleepExportFormat,
  type SleepLog,
} from '@sleepweave/contracts';
import { format as formatDate, parseISO } from 'date-fns';
import { ArrowLeft, Download, FileDown, FileSpreadsheet, FileText } from 'lucide-react';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { FormMessage, type FormMessageValue } from '../../../components/ui/form-message';
import { Input } from '../../../components/ui/input';
import { paths } from '../../../config/paths';
import { isApiRequestError } from '../../../lib/api-client';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { cn } from '../../../lib/utils';
import { useDownloadSleepExport } from '../api/download-sleep-export';
import { useSleepLogs } from '../api/get-sleep-logs';
import { sleepExportFailure } from './sleep-export-failure';
import { SleepLogsStatus } from './sleep-logs-status';

/** docs/product.md §2: the Export Contents list, for each format: what the file will hold. */
export const EXPORT_CONTENTS: Record<SleepExportFormat, string[]> = {
  xlsx: [
    'Nights: every night of the range with every field you logged, as real dates and numbers; durations in minutes and as h:mm',
    'Summary: for each study phase, the nights and the mean, lowest and highest of every metric; polyester and linen side by side',
    'Charts: sleep score, deep sleep, REM sleep, resting heart rate and HRV, with your study phases shaded',
    'Your study: the dates of each phase and the sleepwear of each',
  ],
  pdf: [
    'Your name, the dates and your study phases',
    'Your headline numbers at a glance',
    'Five charts (sleep score, deep sleep, REM sleep, resting heart rate, HRV) with your phases shaded',
    'Each phase side by side, and your polyester and linen nights compared',
    'Every night in a table, with your comments',
    'Page numbers on every page: ready to print or to show your doctor',
  ],
};

const FORMAT_ICONS = { xlsx: FileSpreadsheet, pdf: FileText } as const;

const readable = (date: string) => formatDate(parseISO(date), 'MMM dd, yyyy');

/** Her first and last logged night, from a newest-first list. */
function span(logs: SleepLog[]): { first: string; last: string } {
  const dates = logs.map((log) => log.date).sort();
  return { first: dates[0]!, last: dates.at(-1)! };
}

type DateField = 'startDate' | 'endDate';

function ExportForm({ logs }: { logs: SleepLog[] }) {
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [format, setFormat] = useState<SleepExportFormat>('xlsx');
  const [fieldError, setFieldError] = useState<{ field: DateField; text: string } | null>(null);
  const [message, setMessage] = useState<FormMessageValue | null>(null);
  const contentsId = useId();
  const startInput = useRef<HTMLInputElement>(null);
  const endInput = useRef<HTMLInputElement>(null);
  const loggedOut = useLoggedOutRedirect();
  const download = useDownloadSleepExport({
    // said under the button, where she is (a toast saying it too covered the format choice on a phone)
    onSuccess: (fileName) => setMessage({ kind: 'success', text: `Downloaded ${fileName}` }),
    onError: (error) => {
      if (isApiRequestError(error) && error.status === 401) return loggedOut();
      setMessage({ kind: 'error', text: sleepExportFailure(error) });
    },
  });

  const { first, last } = span(logs);
  // All her nights, or the latest year of them when there are more.
  const allFrom = exportStart(first, last);

  const change = (field: DateField, value: string) => {
    (field === 'startDate' ? setStartDate : setEndDate)(value);
    setFieldError(null);
    setMessage(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const parsed = SleepExportQuery.safeParse({ startDate, endDate, format });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path[0] === 'startDate' ? 'startDate' : 'endDate';
      // as the app's other forms do: the field at fault takes the focus once its message is
      // on the page, so that a screen reader reads the message with it (aria-describedby)
      flushSync(() => setFieldError({ field, text: issue.message }));
      (field === 'startDate' ? startInput : endInput).current?.focus();
      return;
    }
    setFieldError(null);
    download.mutate(parsed.data);
  };

  const errorOf = (field: DateField) => (fieldError?.field === field ? fieldError.text : undefined);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <Card className="p-6 sm:p-8">
        <form aria-label="Export sleep data" noValidate onSubmit={submit} className="grid gap-6">
          <div className="grid gap-3 rounded-2xl bg-night-50 p-4 text-base text-night-800">
            <p>
              You logged {logs.length} {logs.length === 1 ? 'night' : 'nights'}, from {readable(first)} to {readable(last)}.
            </p>
            <Button
              variant="outline"
              className="justify-self-start"
              onClick={() => {
                change('startDate', allFrom);
                change('endDate', last);
              }}
            >
              {allFrom === first ? 'Use all my nights' : 'Use my latest year'}
            </Button>
          </div>

          <div className="grid gap-5 sm:grid-cols-2">
            <Field id="export-start" label="Start Date" error={errorOf('startDate')}>
              {(control) => (
                <Input
                  {...control}
                  ref={startInput}
                  type="date"
                  value={startDate}
                  onChange={(e) => change('startDate', e.target.value)}
                  required
                />
              )}
            </Field>
            <Field id="export-end" label="End Date" error={errorOf('endDate')}>
              {(control) => (
                <Input
                  {...control}
                  ref={endInput}
                  type="date"
                  value={endDate}
                  onChange={(e) => change('endDate', e.target.value)}
                  required
                />
              )}
            </Field>
          </div>

          <fieldset className="grid gap-3">
            <legend className="mb-2 text-base font-medium text-night-900">Format</legend>
            {SLEEP_EXPORT_FORMATS.map((option) => {
              const Icon = FORMAT_ICONS[option.value];
              const checked = format === option.value;
              return (
                <label
                  key={option.value}
                  className={cn(
                    'flex min-h-14 cursor-pointer items-center gap-3 rounded-2xl border px-4 py-3 text-base',
                    'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-night-500',
                    checked
                      ? 'border-night-500 bg-night-50 text-night-950'
                      : 'border-night-200 bg-white text-night-800 hover:bg-night-50/60',
                  )}
                >
                  <input
                    type="radio"
                    name="format"
                    value={option.value}
                    checked={checked}
                    onChange={() => {
                      setFormat(option.value);
                      setMessage(null);
                    }}
                    aria-describedby={contentsId}
                    className="size-5 shrink-0 accent-night-700"
                  />
                  <Icon aria-hidden="true" className="size-6 shrink-0 text-night-600" />
                  <span className="min-w-0">{option.label}</span>
                </label>
              );
            })}
          </fieldset>

          <FormMessage message={message} successIcon={FileDown} />

          <Button type="submit" size="lg" className="sm:justify-self-start" disabled={!startDate || !endDate} pending={download.isPending}>
            {download.isPending ? null : <Download aria-hidden="true" className="size-5" />}
            {download.isPending ? 'Exporting...' : 'Export'}
          </Button>
        </form>
      </Card>

      <Card className="p-6 sm:p-8" role="region" aria-labelledby={`${contentsId}-title`}>
        <h2 id={`${contentsId}-title`} className="text-xl font-semibold text-night-950">
          Export Contents
        </h2>
        <ul id={contentsId} className="mt-4 grid list-disc gap-2 pl-5 text-base text-night-800 marker:text-night-400">
          {EXPORT_CONTENTS[format].map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <p className="mt-4 text-sm text-night-600">At most {SLEEP_EXPORT_MAX_DAYS} days at a time.</p>
      </Card>
    </div>
  );
}

/** /sleep/export: her nights of a range as an Excel workbook or a PDF report (docs/personal-exports.md). */
export function SleepExportScreen() {
  const logs = useSleepLogs();
  let content: ReactNode = (
    <SleepLogsStatus logs={logs} icon={FileDown} emptyText="Once you have logged a night, you can export your sleep here." />
  );
  if (logs.data && logs.data.length > 0) content = <ExportForm logs={logs.data} />;

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-8 px-4 py-10 sm:px-6 lg:py-14">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="max-w-xl">
          <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">Export Sleep Data</h1>
          <p className="mt-3 text-lg text-night-700">Take your nights with you: to keep, to study, or to show your doctor.</p>
        </div>
        <Button asChild variant="outline">
          <Link to={paths.sleep.dashboard}>
            <ArrowLeft aria-hidden="true" className="size-5" />
            Back to Dashboard
          </Link>
        </Button>
      </header>
      {content}
    </div>
  );
}
