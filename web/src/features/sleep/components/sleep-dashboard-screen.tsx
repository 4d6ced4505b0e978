import type { SleepLog } from '@sleepweave/contracts';
import { format, parseISO } from 'date-fns';
import { CalendarDays, ChartLine, Moon, NotebookPen } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { useSleepLogs } from '../api/get-sleep-logs';
import { ResearchExportCard } from './research-export-card';
import { SleepLogCard } from './sleep-log-card';
import { SleepLogsStatus } from './sleep-logs-status';

/** docs/product.md §2: the rounded mean of the entries with a score, or '--'. */
export function averageSleepScore(logs: SleepLog[]): string {
  const scores = logs.map((log) => log.sleepScore).filter((score): score is number => score !== null);
  if (scores.length === 0) return '--';
  return String(Math.round(scores.reduce((sum, score) => sum + score, 0) / scores.length));
}

function Stat({ label, value, icon }: { label: string; value: string; icon: ReactNode }) {
  return (
    <Card className="flex items-center gap-4 p-5">
      <span className="grid size-12 shrink-0 place-items-center rounded-2xl bg-night-100 text-night-700">{icon}</span>
      <div>
        <p className="text-base text-night-700">{label}</p>
        <p className="text-2xl font-semibold text-night-950">{value}</p>
      </div>
    </Card>
  );
}

/** /sleep and /sleep/dashboard: her numbers at a glance and every night she logged. */
export function SleepDashboardScreen() {
  const logs = useSleepLogs();

  let content: ReactNode = <SleepLogsStatus logs={logs} icon={Moon} emptyText="Log your first night to see your sleep here." />;
  if (logs.data && logs.data.length > 0) {
    const latest = logs.data[0]!;
    content = (
      <>
        <section aria-label="Summary" className="grid gap-4 sm:grid-cols-3">
          <Stat label="Total Entries" value={String(logs.data.length)} icon={<NotebookPen aria-hidden="true" className="size-6" />} />
          <Stat
            label="Latest Entry"
            value={format(parseISO(latest.date), 'MMM dd')}
            icon={<CalendarDays aria-hidden="true" className="size-6" />}
          />
          <Stat label="Avg Sleep Score" value={averageSleepScore(logs.data)} icon={<ChartLine aria-hidden="true" className="size-6" />} />
        </section>
        <ResearchExportCard />
        <section aria-labelledby="recent-sleep-logs" className="grid gap-4">
          <h2 id="recent-sleep-logs" className="text-2xl font-semibold text-night-950">
            Recent Sleep Logs
          </h2>
          <ul className="grid gap-4">
            {logs.data.map((log) => (
              <li key={log.id}>
                <SleepLogCard log={log} />
              </li>
            ))}
          </ul>
        </section>
      </>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-8 px-4 py-10 sm:px-6 lg:py-14">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="max-w-xl">
          <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">Sleep Dashboard</h1>
          <p className="mt-3 text-lg text-night-700">Your nights in the study, newest first.</p>
        </div>
        <nav aria-label="Sleep study" className="flex flex-wrap gap-2">
          <Button asChild>
            <Link to={paths.sleep.log}>Log Sleep</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={paths.sleep.weeklyReport}>Weekly Report</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={paths.sleep.charts}>Charts</Link>
          </Button>
        </nav>
      </header>
      {content}
    </div>
  );
}
