import type { ResearchRun, ResearchSchedule } from '@sleepweave/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { FlaskConical, Play } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { NO_ACCESS_TEXT, NoAccess } from '../../../components/no-access';
import { Button } from '../../../components/ui/button';
import { LoadMore } from '../../../components/ui/load-more';
import { CHECK_CONNECTION, EmptyState, ErrorState, LoadingState } from '../../../components/ui/states';
import { toast } from '../../../components/ui/toast';
import { failureMessage, isApiRequestError, serverMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { LATEST_RESEARCH_EXPORT_PATH } from '../api/download-research-export';
import { isRefused, isRunDone, useResearchRun } from '../api/get-research-run';
import { researchRunsQueryKey, useResearchRuns } from '../api/get-research-runs';
import { useResearchSchedule } from '../api/get-research-schedule';
import { useStartResearchRun } from '../api/start-research-run';
import { DownloadButton } from './download-button';
import { LatestResults } from './latest-results';
import { RunsTable } from './runs-table';

/** The page's lead: when runs are made (the schedule as the service has it; unknown while it loads or if it failed). */
export function scheduleText(schedule: ResearchSchedule | undefined): string {
  if (!schedule) return 'The research export of the whole study, run on its schedule or when an admin asks.';
  if (!schedule.nightly) return 'The research export of the whole study, run when an admin asks (the nightly run is off).';
  return `The research export of the whole study, run every night at ${schedule.nightly.time} ${schedule.nightly.timeZone} or when an admin asks.`;
}

/** What the empty list says: when the first run comes. */
export function noRunsText(schedule: ResearchSchedule | undefined): string {
  if (!schedule) return 'Press Run now to make one.';
  if (!schedule.nightly) return 'Press Run now to make the first one.';
  return `The first one runs at ${schedule.nightly.time} ${schedule.nightly.timeZone}, or press Run now.`;
}

function Page({ lead, actions, children }: { lead?: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:py-14">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="max-w-2xl">
          <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">Research Runs</h1>
          <p className="mt-3 text-lg text-night-700">{lead ?? scheduleText(undefined)}</p>
        </div>
        {actions}
      </header>
      {children}
    </div>
  );
}

/**
 * A run the screen follows: asked about every 2 s until done; then the list is read again,
 * once per run and outcome (`refreshed` remembers which), since it may have been read
 * before the run ended.
 */
function useFollowedRun(id: string | null, runs: ResearchRun[] | undefined, refreshed: RefObject<Set<string>>) {
  const queryClient = useQueryClient();
  const run = useResearchRun(id);
  const ongoing = id !== null && !(run.data && isRunDone(run.data.status)) && !isRefused(run.error);

  const done = run.data && isRunDone(run.data.status) ? run.data : null;
  const listed = done ? runs?.find((r) => r.id === done.id) : undefined;
  const stale = done !== null && listed?.status !== done.status;
  useEffect(() => {
    if (!done || !stale) return;
    const key = `${done.id}:${done.status}`;
    if (refreshed.current.has(key)) return;
    refreshed.current.add(key);
    void queryClient.invalidateQueries({ queryKey: researchRunsQueryKey });
  }, [done, stale, queryClient, refreshed]);

  return { run: run.data, ongoing };
}

/** What the live line next to Run now says. */
/** Why Download latest is off when runs have finished: none of their zips is kept. */
export const NO_ZIP_KEPT = 'No finished run has its zip any more (removed, or no longer kept): Run now makes a new one.';

function progressText(starting: boolean, run: ResearchRun | undefined, ongoing: boolean): string {
  if (starting) return 'Starting a research run...';
  if (!run) return ongoing ? 'A research run is on its way...' : '';
  switch (run.status) {
    case 'queued':
      return 'A research run is queued...';
    case 'running':
      return 'A research run is running...';
    case 'finished':
      return 'The research run finished.';
    case 'failed':
      return `The research run failed${run.failure ? `: ${run.failure}` : '.'}`;
  }
}

function AdminResearch({ timeZone }: { timeZone: string | undefined }) {
  const runs = useResearchRuns();
  const schedule = useResearchSchedule();
  const loggedOut = useLoggedOutRedirect();

  // The run the line next to Run now follows until it ends, and then says how it ended: the
  // one she started here, else one the list shows on its way (the nightly one, another
  // admin's, hers from before a reload, or the one that was already on its way when her Run
  // now was refused).
  const [followedId, setFollowedId] = useState<string | null>(null);
  const refreshed = useRef(new Set<string>());
  const followed = useFollowedRun(followedId, runs.data, refreshed);
  const listedId = runs.data?.find((run) => !isRunDone(run.status))?.id ?? null;
  if (listedId !== null && listedId !== followedId && !followed.ongoing) setFollowedId(listedId);

  const start = useStartResearchRun({
    onSuccess: ({ id }) => setFollowedId(id),
    onError: (error) => {
      if (isApiRequestError(error) && error.status === 401) return loggedOut();
      if (isApiRequestError(error) && error.status === 409) {
        toast({
          title: 'A run is already on its way',
          description: serverMessage(error) ?? 'A research run is already queued or running.',
        });
        return;
      }
      toast({
        title: 'Run Failed to Start',
        description:
          isApiRequestError(error) && error.status === 403
            ? NO_ACCESS_TEXT
            : failureMessage(error, 'Failed to start a research run. Please try again.'),
        variant: 'destructive',
      });
    },
  });

  const inProgress = start.isPending || followed.ongoing;
  const progress = progressText(start.isPending, followed.run, followed.ongoing);
  const refused = isApiRequestError(runs.error) && runs.error.status === 403;

  const actions = (
    <div className="grid justify-items-start gap-2 sm:justify-items-end">
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => start.mutate()} pending={inProgress} disabled={refused}>
          {inProgress ? null : <Play aria-hidden="true" className="size-5" />}
          Run now
        </Button>
        <DownloadButton
          variant="outline"
          download={{ path: LATEST_RESEARCH_EXPORT_PATH }}
          disabled={!runs.data?.some((run) => run.downloadable)}
        >
          Download latest
        </DownloadButton>
      </div>
      <p role="status" className="min-h-6 text-base text-night-700">
        {progress || (runs.data?.some((run) => run.status === 'finished') && !runs.data.some((run) => run.downloadable) ? NO_ZIP_KEPT : '')}
      </p>
    </div>
  );

  let content: ReactNode;
  if (runs.isPending) {
    content = <LoadingState text="Loading research runs..." />;
  } else if (runs.data === undefined) {
    // A failed background reload keeps the list it has: the error is for a list never loaded.
    content = refused ? (
      <NoAccess />
    ) : (
      <ErrorState
        title="Failed to load research runs"
        text={CHECK_CONNECTION}
        error={runs.error}
        onRetry={() => void runs.refetch()}
        retrying={runs.isFetching}
      />
    );
  } else if (runs.data.length === 0) {
    content = <EmptyState icon={FlaskConical} title="No Research Runs Yet" text={noRunsText(schedule.data)} />;
  } else {
    const latest = runs.data.find((run) => run.status === 'finished' && run.summary !== null);
    content = (
      <>
        {latest?.summary ? <LatestResults run={latest} summary={latest.summary} timeZone={timeZone} /> : null}
        <section aria-labelledby="research-runs" className="grid grid-cols-1 gap-4">
          <h2 id="research-runs" className="text-2xl font-semibold text-night-950">
            Runs
          </h2>
          <RunsTable runs={runs.data} timeZone={timeZone} />
          <LoadMore
            hasMore={runs.hasNextPage}
            pending={runs.isFetchingNextPage}
            failed={runs.isFetchNextPageError}
            onLoad={() => void runs.fetchNextPage()}
            label="Load older runs"
            pendingLabel="Loading older runs..."
            errorText="Older runs could not be loaded. Please try again."
          />
        </section>
      </>
    );
  }

  return (
    <Page lead={scheduleText(schedule.data)} actions={refused ? undefined : actions}>
      {content}
    </Page>
  );
}

/**
 * /admin/research: the research runs (docs/architecture.md, research-export), for admins
 * only. The server refuses everyone else; this screen says so instead of asking.
 */
export function ResearchScreen() {
  const user = useUser({ fresh: true });
  if (user.isPending) {
    return (
      <Page>
        <LoadingState text="Loading research runs..." />
      </Page>
    );
  }
  if (user.data?.role !== 'admin') {
    return (
      <Page>
        <NoAccess />
      </Page>
    );
  }
  return <AdminResearch timeZone={user.data.timezone} />;
}
