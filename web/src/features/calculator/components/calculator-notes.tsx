import { Info } from 'lucide-react';
import { Card } from '../../../components/ui/card';
import { BODY_BASELINE_HZ } from '../scoring';

/** docs/product.md §2: the legend under the calculator. */
export function CalculatorLegend() {
  const rows = [
    ['Body baseline', `${BODY_BASELINE_HZ} Hz`],
    ['1000+ Hz', 'High (linen, wool, hemp)'],
    ['100 Hz', 'Balanced (organic cotton)'],
    ['10–50 Hz', 'Low (silk, rayon, regular cotton)'],
    ['0 Hz', 'Synthetic'],
  ] as const;
  return (
    <Card className="p-6">
      <h2 className="text-xl font-semibold text-night-950">Legend</h2>
      <dl className="mt-4 grid gap-2 text-base">
        {rows.map(([term, meaning]) => (
          <div key={term} className="flex flex-wrap justify-between gap-x-4 border-b border-night-50 pb-2 last:border-0">
            <dt className="font-medium whitespace-nowrap text-night-900">{term}</dt>
            <dd className="text-right text-night-700">{meaning}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-base text-night-700">Blends use a weighted average of their fabrics&apos; frequencies.</p>
    </Card>
  );
}

/** An honest word on where the figures come from. */
export function AboutTheseNumbers() {
  return (
    <Card className="border-sand-200 bg-sand-50/80 p-6 shadow-none">
      <h2 className="flex items-center gap-2 text-xl font-semibold text-night-950">
        <Info aria-hidden="true" className="size-5 text-sand-600" />
        About these numbers
      </h2>
      <p className="mt-3 text-base text-night-800">
        The fabric &ldquo;frequencies&rdquo; here come from a popular claim that is widely shared online. It is not established science: no
        study with published methods and data has measured them, and there is no accepted way to measure a fabric&apos;s or a body&apos;s
        &ldquo;frequency&rdquo; like this.
      </p>
      <p className="mt-2 text-base text-night-800">
        Please read the scores as a playful guide, not as health advice. What is well known is simpler: breathable natural fibres such as
        linen and cotton let heat and moisture escape, which many women find helps on nights with hot flashes. Our sleep study is there to
        find out what works for you.
      </p>
    </Card>
  );
}
