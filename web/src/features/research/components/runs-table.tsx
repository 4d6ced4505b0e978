import type { ResearchRun, ResearchRunStatus } from '@sleepweave/contracts';
import { cn } from '../../../lib/utils';
import { researchRunDownloadPath } from '../api/download-research-export';
import { DownloadButton } from './download-button';
import { formatInstant } from '../../../lib/date-format';
import { formatBytes, formatDuration, STATUS_LABELS, TRIGGER_LABELS } from './research-display';

const STATUS_STYLES: Record<ResearchRunStatus, string> = {
  queued: 'bg-sand-100 text-night-900',
  running: 'bg-lavender-100 text-night-900',
  finished: 'bg-emerald-50 text-emerald-900',
  failed: 'bg-rose-50 text-rose-900',
};

function DownloadCell({ run }: { run: ResearchRun }) {
  if (run.downloadable) {
    return (
      <span className="flex flex-wrap items-baseline gap-x-2">
        <DownloadButton
          variant="link"
          download={{ path: researchRunDownloadPath(run.id), fileName: run.fileName }}
          aria-label={`Download ${run.fileName ?? 'this run'}`}
        >
          Download
        </DownloadButton>
        {run.sizeBytes !== null ? <span className="text-sm text-night-600">{formatBytes(run.sizeBytes)}</span> : null}
      </span>
    );
  }
  // A participant who may be in it (it started after ten minutes before her consent) deleted
  // her account: its zip went with her data (docs/data-protection.md). "In it" was said of
  // runs made before she joined.
  if (run.fileRemoved) return <span className="text-night-600">Removed: a participant who may be in it deleted her account</span>;
  // Finished runs older than the last RESEARCH_RUNS_KEPT (30 by default) are no longer kept.
  return <span className="text-night-600">{run.status === 'finished' ? 'Not kept' : '--'}</span>;
}

function StatusBadge({ status }: { status: ResearchRunStatus }) {
  return <span className={cn('rounded-full px-2.5 py-1 text-sm font-medium', STATUS_STYLES[status])}>{STATUS_LABELS[status]}</span>;
}

/**
 * Below 1280 px: one card per run (an eight-column table showed its first two columns, the
 * download off screen, on a phone; its seven columns need 1,006 px, and cut the file's off
 * on a tablet and a 1024 px laptop, with no sign the table scrolled).
 */
function RunCards({ runs, timeZone }: { runs: ResearchRun[]; timeZone?: string }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:hidden" aria-label="Research runs, newest first">
      {runs.map((run) => (
        <li key={run.id} className="grid gap-2 rounded-2xl border border-night-100 bg-white p-4 text-base shadow-sm shadow-night-900/5">
          <span className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-semibold text-night-950">{formatInstant(run.requestedAt, timeZone)}</span>
            <StatusBadge status={run.status} />
          </span>
          <span className="text-night-800">
            {TRIGGER_LABELS[run.trigger]} · {formatDuration(run.durationMs)}
          </span>
          {run.summary ? (
            <span className="text-night-800">
              Participants: {run.summary.participantsIncluded} included, {run.summary.participantsExcluded} not included
            </span>
          ) : null}
          {run.failure ? <span className="text-rose-900">{run.failure}</span> : null}
          <DownloadCell run={run} />
        </li>
      ))}
    </ul>
  );
}

/** Every run kept, newest first: a table, cards on a phone. */
export function RunsTable({ runs, timeZone }: { runs: ResearchRun[]; timeZone?: string }) {
  return (
    <>
      <RunCards runs={runs} timeZone={timeZone} />
      <RunTable runs={runs} timeZone={timeZone} />
    </>
  );
}

function RunTable({ runs, timeZone }: { runs: ResearchRun[]; timeZone?: string }) {
  return (
    <div className="hidden overflow-x-auto rounded-3xl border border-night-100 bg-white shadow-sm shadow-night-900/5 xl:block">
      <table className="w-full min-w-[48rem] border-collapse text-left text-base">
        <caption className="sr-only">Research runs, newest first</caption>
        <thead className="bg-night-50 text-sm text-night-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Requested
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Trigger
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Status
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Duration
            </th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">
              Participants included
            </th>
            <th scope="col" className="px-4 py-3 text-right font-semibold">
              Participants not included
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              File
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-night-100 text-night-900">
          {runs.map((run) => (
            <tr key={run.id}>
              <td className="px-4 py-3 whitespace-nowrap">{formatInstant(run.requestedAt, timeZone)}</td>
              <td className="px-4 py-3">{TRIGGER_LABELS[run.trigger]}</td>
              <td className="px-4 py-3">
                <StatusBadge status={run.status} />
              </td>
              <td className="px-4 py-3 whitespace-nowrap">{formatDuration(run.durationMs)}</td>
              <td className="px-4 py-3 text-right">{run.summary?.participantsIncluded ?? '--'}</td>
              <td className="px-4 py-3 text-right">{run.summary?.participantsExcluded ?? '--'}</td>
              {/* a failed run has no file: its failure is said there (a column of its own, empty
                  for nearly every run, cut the file's column off at 1024 px) */}
              <td className="min-w-52 px-4 py-3">
                {run.failure ? <span className="text-rose-900">{run.failure}</span> : <DownloadCell run={run} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
