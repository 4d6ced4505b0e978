import { lastEndedNight } from '@sleepweave/contracts';
import { ArrowLeft, ChartLine } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useUser } from '../../../lib/auth';
import { useNightClock } from '../../../lib/use-night-clock';
import { cn } from '../../../lib/utils';
import { useSleepLogs } from '../api/get-sleep-logs';
import { ChartCard, usePreloadedCharts } from './lazy-metric-chart';
import { METRICS } from './metrics';
import { PhaseLegend } from './phase-shades';
import { chartPoints, lastEntryNights, studyNights, studyStartOf, type ChartNight } from './sleep-charts';
import { ChartsExport } from './sleep-charts-export';
import { SleepLogsStatus } from './sleep-logs-status';

/** docs/product.md §2: five line charts, in this order. */
const CHARTS = [
  { title: 'Sleep Score', metric: METRICS.sleepScore },
  { title: 'Deep Sleep (minutes)', metric: METRICS.deepMinutes },
  { title: 'REM Sleep (minutes)', metric: METRICS.remMinutes },
  { title: 'Resting Heart Rate', metric: METRICS.restingHr },
  { title: 'Average HRV', metric: METRICS.avgHrv },
] as const;

/** ?view=study: the whole study (all 42 nights); otherwise her last 7 entries. */
export type ChartView = 'recent' | 'study';
const VIEWS: { view: ChartView; label: string; to: string }[] = [
  { view: 'recent', label: 'Last 7 entries', to: paths.sleep.charts },
  { view: 'study', label: 'All 42 nights', to: `${paths.sleep.charts}?view=study` },
];

function ViewSwitch({ current }: { current: ChartView }) {
  return (
    <nav aria-label="Nights shown" className="inline-flex w-full rounded-2xl bg-night-100 p-1 sm:w-auto">
      {VIEWS.map(({ view, label, to }) => (
        <Link
          key={view}
          to={to}
          replace
          aria-current={view === current ? 'page' : undefined}
          className={cn(
            'flex min-h-11 flex-1 items-center justify-center rounded-xl px-4 text-center text-base font-medium sm:flex-none',
            view === current ? 'bg-white text-night-950 shadow-sm' : 'text-night-800 hover:bg-white/60',
          )}
        >
          {label}
        </Link>
      ))}
    </nav>
  );
}

/** /sleep/charts: her last 7 entries, or her whole study, one chart per metric. */
export function SleepChartsScreen() {
  usePreloadedCharts();
  const logs = useSleepLogs();
  const [params] = useSearchParams();
  const view: ChartView = params.get('view') === 'study' ? 'study' : 'recent';

  let content: ReactNode = (
    <SleepLogsStatus logs={logs} icon={ChartLine} emptyText="Your charts appear here once you have logged a night." />
  );
  // her zone's last ended night: the nights after it not logged are still to come
  const timezone = useUser().data?.timezone;
  const now = useNightClock(timezone);
  if (logs.data && logs.data.length > 0) {
    const start = studyStartOf(logs.data);
    const lastEnded = timezone ? lastEndedNight(timezone, now) : null;
    const nights: ChartNight[] = view === 'study' && start ? studyNights(logs.data, start) : lastEntryNights(logs.data);
    const phases = [...new Set(chartPoints(nights, 'sleepScore', start).flatMap((point) => (point.phase ? [point.phase] : [])))];
    content = (
      <>
        <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <ViewSwitch current={view} />
          <PhaseLegend phases={phases} />
        </div>
        {nights.length > 0 ? <ChartsExport startDate={nights[0]!.date} endDate={nights.at(-1)!.date} /> : null}
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
              points={chartPoints(nights, metric.key, start, lastEnded)}
            />
          ))}
        </div>
      </>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:py-14">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="max-w-xl">
          <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">Sleep Analytics</h1>
          <p className="mt-3 text-lg text-night-700">
            {view === 'study'
              ? 'All 42 nights of your study, night by night, the phases shaded.'
              : 'Your last 7 entries, night by night: a night you did not log is a gap.'}
          </p>
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
