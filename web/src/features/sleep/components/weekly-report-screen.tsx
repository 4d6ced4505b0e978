import { addDays, formatDuration, lastEndedNight } from '@sleepweave/contracts';
import { format, parseISO } from 'date-fns';
import { ArrowLeft, ChartLine, Moon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { useSleepLogs } from '../api/get-sleep-logs';
import { useStudyProfile } from '../api/get-study-profile';
import { useNightClock } from '../../../lib/use-night-clock';
import { ChartCard, usePreloadedCharts } from './lazy-metric-chart';
import { METRICS } from './metrics';
import { CHECK_CONNECTION, EmptyState, ErrorState, LoadingState } from '../../../components/ui/states';
import { nightName } from './nights';
import { PhaseLegend } from './phase-shades';
import { chartPoints, studyStartOf } from './sleep-charts';
import { wholeStudyLink } from './study-today-card';
import { REPORT_DAYS, reportDays, reportEnd, weeklySummary } from './weekly-report';

/** docs/product.md §2: five charts in a two-column grid, in this order. */
const CHARTS = [
  { title: 'Sleep Score', metric: METRICS.sleepScore },
  { title: 'REM Sleep', metric: METRICS.remMinutes },
  { title: 'Deep Sleep', metric: METRICS.deepMinutes },
  { title: 'Resting Heart Rate', metric: METRICS.restingHr },
  { title: 'Heart Rate Variability (HRV)', metric: METRICS.avgHrv },
] as const;

const dash = (value: number | null, show: (v: number) => string) => (value === null ? '--' : show(value));

function SummaryItem({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5 rounded-2xl bg-night-50 p-4">
      <dt className="text-base text-night-700">{label}</dt>
      <dd className="text-2xl font-semibold text-night-950">{value}</dd>
    </div>
  );
}

/** /sleep/weekly-report: seven days of her sleep, charted and summarised. */
export function WeeklyReportScreen() {
  usePreloadedCharts();
  const profile = useStudyProfile();
  const logs = useSleepLogs();
  // the seven nights end with the last that ended: read again as one ends (a tab left open past 04:00)
  const now = useNightClock(profile.data?.timezone);

  const end = profile.data && logs.data ? reportEnd(logs.data, profile.data.timezone, now) : null;
  const days = end && logs.data ? reportDays(logs.data, end) : null;
  // which 7 days, with or without nights in them; none before her first night (they were
  // days before her study, above "No Sleep Data Available")
  const range =
    end && logs.data && logs.data.length > 0
      ? `${format(parseISO(addDays(end, 1 - REPORT_DAYS)), 'MMM dd')} – ${format(parseISO(end), 'MMM dd, yyyy')}`
      : null;

  let content: ReactNode;
  if (profile.isPending || logs.isPending) content = <LoadingState text="Loading your weekly sleep data..." />;
  // A failed background reload keeps the report it has: the error is for data never loaded.
  else if (profile.data === undefined || logs.data === undefined) {
    content = (
      <ErrorState
        title="Failed to fetch sleep logs"
        text={CHECK_CONNECTION}
        error={profile.error ?? logs.error}
        retrying={profile.isFetching || logs.isFetching}
        onRetry={() => {
          void profile.refetch();
          void logs.refetch();
        }}
      />
    );
  } else if (!days && logs.data.length > 0) {
    // She has nights, just none in these 7 days: say so, and show her the rest (docs/study-protocol.md).
    const latest = logs.data.reduce((newest, log) => (log.date > newest.date ? log : newest));
    content = (
      <EmptyState
        icon={ChartLine}
        title="Nothing in the last 7 days"
        text={`You haven't logged a night in the last 7 days. Your latest is the ${nightName(latest.date).replace('Night of', 'night of')}; all your nights are in the whole study.`}
        action={
          <Button asChild size="lg">
            <Link to={wholeStudyLink}>See the whole study</Link>
          </Button>
        }
      />
    );
  } else if (!days) {
    content = (
      <EmptyState
        icon={Moon}
        title="No Sleep Data Available"
        text="Start logging your sleep data to see your weekly trends and patterns."
        action={
          <Button asChild size="lg">
            <Link to={paths.sleep.log}>Log Your First Sleep</Link>
          </Button>
        }
      />
    );
  } else {
    const summary = weeklySummary(days);
    const start = studyStartOf(logs.data) ?? profile.data.studyStartDate;
    const phases = [...new Set(chartPoints(days, 'sleepScore', start).flatMap((point) => (point.phase ? [point.phase] : [])))];
    content = (
      <>
        <PhaseLegend phases={phases} />
        <div className="grid gap-5 lg:grid-cols-2">
          {CHARTS.map(({ title, metric }) => (
            <ChartCard
              key={title}
              title={title}
              name={title}
              color={metric.color}
              unit={metric.unit}
              max={metric.max}
              decimals={metric.decimals}
              points={chartPoints(days, metric.key, start, lastEndedNight(profile.data.timezone, now))}
            />
          ))}
        </div>
        <Card className="grid gap-4 p-6">
          <h2 className="text-xl font-semibold text-night-950">Weekly Summary</h2>
          <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
            <SummaryItem label="Days logged" value={String(summary.daysLogged)} />
            <SummaryItem label="Avg sleep score" value={dash(summary.averageSleepScore, String)} />
            <SummaryItem label="Avg REM sleep" value={dash(summary.averageRemMinutes, formatDuration)} />
            <SummaryItem label="Avg deep sleep" value={dash(summary.averageDeepMinutes, formatDuration)} />
            <SummaryItem label="Avg resting HR" value={dash(summary.averageRestingHr, (v) => `${v} bpm`)} />
          </dl>
        </Card>
      </>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:py-14">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="max-w-xl">
          <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">Weekly Sleep Report</h1>
          <p className="mt-3 text-lg text-night-700">Your sleep patterns over the last 7 days</p>
          {range ? <p className="mt-1 text-base font-medium text-night-800">{range}</p> : null}
        </div>
        <nav aria-label="Sleep study" className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <Link to={paths.sleep.dashboard}>
              <ArrowLeft aria-hidden="true" className="size-5" />
              Back to Dashboard
            </Link>
          </Button>
          <Button asChild>
            <Link to={paths.sleep.log}>Log Sleep Data</Link>
          </Button>
        </nav>
      </header>
      {content}
    </div>
  );
}
