import { lazy, Suspense } from 'react';
import { Card } from '../../../components/ui/card';
import type { MetricChartProps } from './metric-chart';

/** recharts is large: it loads with the first chart, not with the app. */
const MetricChart = lazy(() => import('./metric-chart'));

function ChartLoading() {
  return (
    <p role="status" className="grid h-56 place-items-center text-base text-night-600">
      Loading chart...
    </p>
  );
}

/** A titled card with one line chart. */
export function ChartCard({ title, ...chart }: MetricChartProps & { title: string }) {
  return (
    <Card className="grid gap-3 p-5">
      <h2 className="text-lg font-semibold text-night-950">{title}</h2>
      {chart.points.every((point) => point.value === null) ? (
        <p className="grid h-56 place-items-center rounded-2xl bg-night-50 px-4 text-center text-base text-night-700">
          No {title} recorded for these nights yet.
        </p>
      ) : (
        <Suspense fallback={<ChartLoading />}>
          <MetricChart {...chart} />
        </Suspense>
      )}
    </Card>
  );
}
