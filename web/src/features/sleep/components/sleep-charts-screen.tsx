import { ArrowLeft, ChartLine } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useSleepLogs } from '../api/get-sleep-logs';
import { ChartCard } from './lazy-metric-chart';
import { METRICS } from './metrics';
import { lastEntries, weekdayPoints } from './sleep-charts';
import { SleepLogsStatus } from './sleep-logs-status';

/** docs/product.md §2: five line charts, in this order. */
const CHARTS = [
  { title: 'Sleep Score', metric: METRICS.sleepScore },
  { title: 'Deep Sleep (minutes)', metric: METRICS.deepMinutes },
  { title: 'REM Sleep (minutes)', metric: METRICS.remMinutes },
  { title: 'Resting Heart Rate', metric: METRICS.restingHr },
  { title: 'Average HRV', metric: METRICS.avgHrv },
] as const;

/** /sleep/charts: her last 7 entries, one chart per metric. */
export function SleepChartsScreen() {
  const logs = useSleepLogs();

  let content: ReactNode = (
    <SleepLogsStatus logs={logs} icon={ChartLine} emptyText="Your charts appear here once you have logged a night." />
  );
  if (logs.data && logs.data.length > 0) {
    const recent = lastEntries(logs.data);
    content = (
      <div className="grid gap-5 lg:grid-cols-2">
        {CHARTS.map(({ title, metric }) => (
          <ChartCard
            key={title}
            title={title}
            name={title}
            color={metric.color}
            unit={metric.unit}
            points={weekdayPoints(recent, metric.key)}
          />
        ))}
      </div>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:py-14">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="max-w-xl">
          <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">Sleep Analytics</h1>
          <p className="mt-3 text-lg text-night-700">Your last 7 entries, by weekday.</p>
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
