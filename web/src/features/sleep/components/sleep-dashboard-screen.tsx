import type { SleepLog } from '@sleepweave/contracts';
import { format, parseISO } from 'date-fns';
import { CalendarDays, ChartLine, ChevronDown, Moon, NotebookPen } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadMore } from '../../../components/ui/load-more';
import { paths } from '../../../config/paths';
import { useEntryState } from '../../../lib/use-entry-state';
import { sleepLogsQueryOptions, useSleepLogPages } from '../api/get-sleep-logs';
import { ResearchExportCard } from './research-export-card';
import { SleepExportCard } from './sleep-export-card';
import { SleepLogCard } from './sleep-log-card';
import { groupByPhase, type PhaseGroup } from './sleep-log-groups';
import { SleepLogsStatus } from './sleep-logs-status';

/** docs/product.md §2: the rounded mean of the entries with a score, or '--'. */
export function averageSleepScore(logs: SleepLog[]): string {
  const scores = logs.map((log) => log.sleepScore).filter((score): score is number => score !== null);
  if (scores.length === 0) return '--';
  return String(Math.round(scores.reduce((sum, score) => sum + score, 0) / scores.length));
}

/** A stat card: three side by side on a phone too, so the nights start above the fold. */
function Stat({ label, value, icon }: { label: string; value: string; icon: ReactNode }) {
  return (
    <Card className="flex items-center gap-4 rounded-2xl p-3 sm:rounded-3xl sm:p-5">
      <span className="hidden size-12 shrink-0 place-items-center rounded-2xl bg-night-100 text-night-700 sm:grid">{icon}</span>
      <div>
        <p className="text-sm leading-tight text-night-700 sm:text-base">{label}</p>
        <p className="mt-1 text-xl font-semibold text-night-950 sm:mt-0 sm:text-2xl">{value}</p>
      </div>
    </Card>
  );
}

/** The three links stay on one line on a phone (no lone 'Charts' below), unless it is narrower than 340 px or the text is large. */
const navButton = 'flex-auto whitespace-nowrap px-3 text-[0.9375rem] sm:flex-none sm:px-5 sm:text-base';

const nightsCount = (count: number) => `${count} ${count === 1 ? 'night' : 'nights'}`;

/** A phase's nights show a week at a time: the newest 7, then all of them on request. */
export const NIGHTS_SHOWN = 7;

/**
 * One phase of her nights, folded away unless it is the newest. Whether she opened it and
 * asked for its older nights is kept with the visit: back from a night's Edit, the list is
 * as she left it (and the page scrolls back to where she was).
 */
function PhaseNights({ group, open: openAtFirst }: { group: PhaseGroup; open: boolean }) {
  const [open, setOpen] = useEntryState(`phase:${group.phase}:open`, openAtFirst);
  const [all, setAll] = useEntryState(`phase:${group.phase}:all`, false);
  const shown = all ? group.logs : group.logs.slice(0, NIGHTS_SHOWN);
  const hidden = group.logs.length - shown.length;
  return (
    <details
      open={open}
      onToggle={(event) => {
        if (event.currentTarget.open !== open) setOpen(event.currentTarget.open);
      }}
      className="group/phase grid gap-3"
    >
      <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-3 rounded-2xl bg-night-50 px-4 py-2.5 text-night-900 hover:bg-night-100 [&::-webkit-details-marker]:hidden">
        <span className="flex flex-wrap items-baseline gap-x-3">
          <span className="text-lg font-semibold">{group.name}</span>
          <span className="text-base text-night-700">
            {nightsCount(group.logs.length)}
            {group.averageScore === null ? '' : ` · avg score ${group.averageScore}`}
          </span>
        </span>
        <ChevronDown aria-hidden="true" className="size-5 shrink-0 transition-transform group-open/phase:rotate-180" />
      </summary>
      <ul className="mt-3 grid gap-3 sm:gap-4">
        {shown.map((log) => (
          <li key={log.id}>
            <SleepLogCard log={log} />
          </li>
        ))}
      </ul>
      {hidden > 0 ? (
        <Button variant="outline" className="mt-3 w-full" onClick={() => setAll(true)}>
          Show {hidden} older {hidden === 1 ? 'night' : 'nights'} of {group.name.toLowerCase()}
        </Button>
      ) : null}
    </details>
  );
}

/** /sleep and /sleep/dashboard: her numbers at a glance and every night she logged. */
export function SleepDashboardScreen() {
  const logs = useSleepLogPages();
  // The stat cards count every night: from the list when its first page holds them all (a
  // study's 42 and more), else from all her nights, asked for only then.
  const all = useQuery({ ...sleepLogsQueryOptions(), enabled: logs.hasNextPage });
  const counted = logs.hasNextPage ? all.data : logs.data;
  /** A stat of every night; while they load (or if they cannot), said so instead of a figure. */
  const stat = (of: (nights: SleepLog[]) => string) => (counted ? of(counted) : all.isError ? 'Unavailable' : '...');

  let content: ReactNode = <SleepLogsStatus logs={logs} icon={Moon} emptyText="Log your first night to see your sleep here." />;
  if (logs.data && logs.data.length > 0) {
    const latest = logs.data[0]!;
    content = (
      <>
        <section aria-label="Summary" className="grid grid-cols-3 gap-2 sm:gap-4">
          <Stat
            label="Total Entries"
            value={stat((nights) => String(nights.length))}
            icon={<NotebookPen aria-hidden="true" className="size-6" />}
          />
          <Stat
            label="Latest Entry"
            value={format(parseISO(latest.date), 'MMM dd')}
            icon={<CalendarDays aria-hidden="true" className="size-6" />}
          />
          <Stat label="Avg Sleep Score" value={stat(averageSleepScore)} icon={<ChartLine aria-hidden="true" className="size-6" />} />
        </section>
        <ResearchExportCard />
        <SleepExportCard />
        <section aria-labelledby="recent-sleep-logs" className="grid gap-4">
          <h2 id="recent-sleep-logs" className="text-2xl font-semibold text-night-950">
            Recent Sleep Logs
          </h2>
          {/* By phase, the newest first and open; older phases fold away (a study has up to 42 nights). */}
          {groupByPhase(logs.data).map((group, index) => (
            <PhaseNights key={group.phase} group={group} open={index === 0} />
          ))}
          {/* Older nights than the first page (100) come a page at a time, into their phases. */}
          <LoadMore
            hasMore={logs.hasNextPage}
            pending={logs.isFetchingNextPage}
            failed={logs.isFetchNextPageError}
            onLoad={() => void logs.fetchNextPage()}
            label="Load older nights"
            pendingLabel="Loading older nights..."
            errorText="Older nights could not be loaded. Please try again."
          />
        </section>
      </>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-8 px-4 py-10 sm:px-6 lg:py-14">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="max-w-xl">
          <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">Sleep Dashboard</h1>
          <p className="mt-3 text-lg text-night-700">Your nights in the study, by phase, newest first.</p>
        </div>
        <nav aria-label="Sleep study" className="flex flex-wrap gap-2">
          <Button asChild className={navButton}>
            <Link to={paths.sleep.log}>Log Sleep</Link>
          </Button>
          <Button asChild variant="outline" className={navButton}>
            <Link to={paths.sleep.weeklyReport}>Weekly Report</Link>
          </Button>
          <Button asChild variant="outline" className={navButton}>
            <Link to={paths.sleep.charts}>Charts</Link>
          </Button>
        </nav>
      </header>
      {content}
    </div>
  );
}
