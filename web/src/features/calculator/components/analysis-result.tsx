import { ExternalLink, RotateCcw } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { cn } from '../../../lib/utils';
import type { Analysis } from '../analysis';
import { CATEGORY_LABELS, formatHz, type FabricCategory } from '../scoring';

const barColour: Record<FabricCategory, string> = {
  high: 'bg-emerald-600',
  balanced: 'bg-night-600',
  low: 'bg-sand-500',
  synthetic: 'bg-rose-600',
};

const badgeColour: Record<FabricCategory, string> = {
  high: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  balanced: 'bg-night-50 text-night-800 ring-night-200',
  low: 'bg-sand-100 text-sand-700 ring-sand-300',
  synthetic: 'bg-rose-50 text-rose-800 ring-rose-200',
};

/** The result of Calculate Energy Impact, for one fabric or a blend. */
export function AnalysisResult({ result, onTryAnother }: { result: Analysis; onTryAnother: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  return (
    <Card className="grid gap-6 p-6 sm:p-8" aria-labelledby="analysis-title" role="region">
      <header className="grid gap-2">
        <p className="text-sm font-semibold tracking-wide text-sand-700 uppercase">Your result</p>
        <h2 id="analysis-title" ref={headingRef} tabIndex={-1} className="text-3xl font-semibold text-night-950 outline-none">
          {result.title}
        </h2>
        <p className="flex flex-wrap items-center gap-3">
          <span className="text-2xl font-semibold text-night-800">{formatHz(result.frequency)}</span>
          <span className={cn('rounded-full px-3 py-1 text-sm font-medium ring-1', badgeColour[result.category])}>
            {CATEGORY_LABELS[result.category]}
          </span>
        </p>
      </header>

      <section aria-labelledby="energy-score" className="grid gap-3 rounded-2xl bg-night-50 p-5">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id="energy-score" className="text-lg font-semibold text-night-950">
            Energy Impact Score
          </h3>
          <p className="text-2xl font-semibold text-night-950">
            {result.score}
            <span className="text-base font-medium text-night-600">/100</span>
          </p>
        </div>
        <div
          role="progressbar"
          aria-labelledby="energy-score"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={result.score}
          aria-valuetext={`${result.score} out of 100, ${result.label}`}
          className="h-3 overflow-hidden rounded-full bg-white ring-1 ring-night-100"
        >
          <div className={cn('h-full rounded-full', barColour[result.category])} style={{ width: `${result.score}%` }} />
        </div>
        <p className="text-base font-semibold text-night-800">{result.label}</p>
      </section>

      {result.kind === 'single' ? (
        <div className="grid gap-5 sm:grid-cols-2">
          <TextList title="Benefits" items={result.benefits} />
          <TextList title="Considerations" items={result.considerations} />
        </div>
      ) : (
        <section aria-labelledby="blend-composition" className="grid gap-3">
          <h3 id="blend-composition" className="text-lg font-semibold text-night-950">
            Blend Composition
          </h3>
          <ul className="grid gap-2">
            {result.composition.map(({ fabric, percentage, contributionHz }) => (
              <li
                key={fabric.id}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 rounded-xl border border-night-100 px-4 py-3"
              >
                <span className="font-medium text-night-950">
                  {fabric.name} <span className="text-night-600">({formatHz(fabric.frequency)})</span>
                </span>
                <span className="text-night-800">
                  <span className="font-semibold">{percentage}%</span> → {formatHz(contributionHz)}
                </span>
              </li>
            ))}
          </ul>
          <p className="text-sm text-night-600">
            Each fabric adds its frequency times its percentage; the sum is the blend&apos;s weighted average.
          </p>
        </section>
      )}

      <section aria-labelledby="recommendation" className="grid gap-2 rounded-2xl border border-sand-200 bg-sand-50 p-5">
        <h3 id="recommendation" className="text-lg font-semibold text-night-950">
          Recommendation
        </h3>
        <p className="text-base text-night-800">{result.recommendation}</p>
      </section>

      <div className="flex flex-col gap-3 sm:flex-row">
        <Button onClick={onTryAnother}>
          <RotateCcw aria-hidden="true" className="size-5" />
          Try Another
        </Button>
        <Button asChild variant="outline">
          <a href={paths.library.root} target="_blank" rel="noopener">
            Learn More About Fabrics
            <ExternalLink aria-hidden="true" className="size-4" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </Button>
      </div>
    </Card>
  );
}

function TextList({ title, items }: { title: string; items: string[] }) {
  return (
    <section className="grid content-start gap-2">
      <h3 className="text-lg font-semibold text-night-950">{title}</h3>
      <ul className="grid list-disc gap-1.5 pl-5 text-base text-night-800 marker:text-sand-500">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </section>
  );
}
