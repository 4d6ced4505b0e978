import { lazy, Suspense, useEffect } from 'react';
import { Card } from '../../../components/ui/card';
import { LoadErrorBoundary } from '../../../components/ui/load-error-boundary';
import { EmptyState, LoadingState } from '../../../components/ui/states';
import type { MetricChartProps } from './metric-chart';

const loadMetricChart = () => import('./metric-chart');

/** recharts is large: it loads with the screens that draw charts, not with the app. */
const MetricChart = lazy(loadMetricChart);

/**
 * Starts loading the charts' code as a chart screen opens, beside its nights: loaded with
 * the first chart, it waited for them (on a slow phone, 5.6 s after them). A failure here is
 * the chart's to show, when it asks again.
 */
export function usePreloadedCharts(): void {
  useEffect(() => {
    loadMetricChart().catch(() => undefined);
  }, []);
}

/** A titled card with one line chart. */
export function ChartCard({ title, ...chart }: MetricChartProps & { title: string }) {
  return (
    <Card className="grid gap-3 p-5">
      <h2 className="text-lg font-semibold text-night-950">{title}</h2>
      {chart.points.every((point) => point.value === null) ? (
        <EmptyState text={`No ${title} recorded for these nights yet.`} className="h-56 content-center" />
      ) : (
        <LoadErrorBoundary what="chart" className="h-56 justify-center py-0">
          <Suspense fallback={<LoadingState inline takesFocus={false} text="Loading chart..." className="h-56 justify-center py-0" />}>
            <MetricChart {...chart} />
          </Suspense>
        </LoadErrorBoundary>
      )}
    </Card>
  );
}
