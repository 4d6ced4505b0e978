import type { ResearchRun, ResearchRunSummary } from '@sleepweave/contracts';
import { ClipboardCheck } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Card } from '../../../components/ui/card';
import { LoadErrorBoundary } from '../../../components/ui/load-error-boundary';
import { LoadingState } from '../../../components/ui/states';
import { formatInstant } from '../../../lib/date-format';
import { isComputable, TRIGGER_LABELS } from './research-display';

/** recharts is large: it loads with the plot, not with the app. */
const ForestPlot = lazy(() => import('./forest-plot'));

const PLOT_CAPTION = "Polyester vs linen: Cohen's d_z (linen minus polyester) with its 95% confidence interval, by metric";

/**
 * The metrics that could not be computed, one line per reason (with no data at all, that
 * is every metric for the same reason: one line, not thirty).
 */
function byReason(effects: ResearchRunSummary['primary']): { reason: string; labels: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const effect of effects) {
    // the note is a sentence ("No complete pairs."): its count goes before its full stop
    const sentence = (effect.note ?? 'Not enough paired nights.').replace(/\.$/, '');
    const reason = `${sentence} (${effect.nPairs} ${effect.nPairs === 1 ? 'pair' : 'pairs'}):`;
    groups.set(reason, [...(groups.get(reason) ?? []), effect.label]);
  }
  return [...groups].map(([reason, labels]) => ({ reason, labels }));
}

/** The metrics named under their reason, a line each. */
function ByReason({ label, effects }: { label: string; effects: ResearchRunSummary['primary'] }) {
  return (
    <ul aria-label={label} className="grid gap-1.5 text-base text-night-800">
      {byReason(effects).map(({ reason, labels }) => (
        <li key={reason}>
          <span className="font-medium">{reason}</span> {labels.join(', ')}.
        </li>
      ))}
    </ul>
  );
}

/**
 * The latest finished run in brief: the QA headline and the study's question (polyester
 * vs linen) as a forest plot, with the metrics it could not compute listed below it.
 */
export function LatestResults({ run, summary, timeZone }: { run: ResearchRun; summary: ResearchRunSummary; timeZone?: string }) {
  const computable = summary.primary.filter(isComputable);
  const notComputable = summary.primary.filter((effect) => !isComputable(effect));
  // computed, but its interval not (a very large effect): the note says why
  const withoutInterval = computable.filter((effect) => effect.note !== null);

  return (
    <section aria-labelledby="latest-results" className="grid grid-cols-1 gap-4">
      <div className="grid gap-1">
        <h2 id="latest-results" className="text-2xl font-semibold text-night-950">
          Latest results
        </h2>
        <p className="max-w-prose text-base text-night-700">
          Finished {formatInstant(run.finishedAt ?? run.requestedAt, timeZone)} ({TRIGGER_LABELS[run.trigger]}):{' '}
          {summary.nights.toLocaleString('en-US')} nights, {summary.participantsIncluded} participants included
          {/* an interim run compares some still in their linen phase: a completers-only analysis is the researcher's to add */}
          {summary.participantsIncludedInStudy ? ` (${summary.participantsIncludedInStudy} of them still in their study)` : ''},{' '}
          {/* not "excluded": most of them are only still in the study (the quality line says why each is out) */}
          {summary.participantsExcluded} not included.
        </p>
      </div>

      <Card className="flex items-start gap-4 p-5">
        <span className="grid size-11 shrink-0 place-items-center rounded-2xl bg-night-100 text-night-700">
          <ClipboardCheck aria-hidden="true" className="size-6" />
        </span>
        <div className="grid gap-1">
          <h3 className="text-lg font-semibold text-night-950">Quality checks</h3>
          <p className="max-w-prose text-base text-night-800">{summary.qaHeadline}</p>
        </div>
      </Card>

      <Card className="grid grid-cols-1 gap-4 p-5">
        <div className="grid gap-1">
          <h3 className="text-lg font-semibold text-night-950">Polyester vs linen</h3>
          <p className="max-w-prose text-base text-night-700">
            Cohen&apos;s d<sub>z</sub> of each metric with its 95% confidence interval (linen minus polyester: above 0, the metric was
            higher on linen nights); 0 is no difference between the phases.
          </p>
        </div>
        {computable.length > 0 ? (
          <LoadErrorBoundary what="chart" className="h-56 justify-center py-0">
            <Suspense fallback={<LoadingState inline text="Loading chart..." className="h-56 justify-center py-0" />}>
              <ForestPlot effects={computable} caption={PLOT_CAPTION} />
            </Suspense>
          </LoadErrorBoundary>
        ) : (
          <p className="text-base text-night-700">No metric could be computed for this run.</p>
        )}
        {withoutInterval.length > 0 ? <ByReason label="Intervals not computable" effects={withoutInterval} /> : null}
        {notComputable.length > 0 ? (
          <div className="grid gap-2 border-t border-night-100 pt-4">
            <h4 className="text-base font-semibold text-night-950">Not computable</h4>
            <ByReason label="Metrics not computable" effects={notComputable} />
          </div>
        ) : null}
      </Card>
    </section>
  );
}
