// @vitest-environment happy-dom
import { cleanup, render, waitFor } from '@testing-library/react';
import { Line, LineChart, YAxis } from 'recharts';
import { afterEach, describe, expect, it } from 'vitest';
import { METRICS, valueAxis, type ChartPoint } from './metrics';

afterEach(cleanup);

const points = (...values: (number | null)[]): ChartPoint[] =>
  values.map((value, i) => ({ date: `2026-11-0${i + 1}`, label: '', title: '', value, phase: null, beforeStudy: false, toCome: false }));

/** The value axis's tick labels as recharts draws them with these props (as metric-chart.tsx passes them; the chart has no other axis). */
async function drawnTicks(values: (number | null)[], max: number | null): Promise<number[]> {
  const data = points(...values);
  const { container, unmount } = render(
    <LineChart width={400} height={220} data={data}>
      <YAxis {...valueAxis(data, max)} allowDecimals={false} />
      <Line dataKey="value" isAnimationActive={false} />
    </LineChart>,
  );
  const labels = () => Array.from(container.querySelectorAll('.recharts-cartesian-axis-tick-value'));
  await waitFor(() => expect(labels().length).toBeGreaterThan(0));
  const ticks = labels().map((tick) => Number(tick.textContent));
  unmount();
  return ticks;
}

describe('the value axis of a chart', () => {
  it('never goes past a score of 100, wherever the scores lie (recharts rounded it to 102, 104, 105)', async () => {
    for (const scores of [[78, 85, 95], [72, 80, 91], [45, 70, 89], [99, 100], [100], [0, 3], [61, null, 64], [12, 98]]) {
      const ticks = await drawnTicks(scores, METRICS.sleepScore.max);
      expect(ticks.length, String(scores)).toBeGreaterThanOrEqual(2);
      expect(Math.max(...ticks), String(scores)).toBeLessThanOrEqual(100);
      // and it holds every score
      const known = scores.filter((v): v is number => v !== null);
      expect(Math.min(...ticks), String(scores)).toBeLessThanOrEqual(Math.min(...known));
      expect(Math.max(...ticks), String(scores)).toBeGreaterThanOrEqual(Math.max(...known));
    }
  });

  it('counts in round steps', () => {
    expect(valueAxis(points(72, 80, 91), 100)).toEqual({ domain: [70, 95], ticks: [70, 75, 80, 85, 90, 95] });
    expect(valueAxis(points(45, 70, 89), 100)).toEqual({ domain: [40, 90], ticks: [40, 50, 60, 70, 80, 90] });
    expect(valueAxis(points(100), 100)).toEqual({ domain: [99, 100], ticks: [99, 100] });
    // one score, or all the same: in the middle of the axis, not on its line
    expect(valueAxis(points(77), 100)).toEqual({ domain: [76, 78], ticks: [76, 77, 78] });
    expect(valueAxis(points(80, null, 80), 100)).toEqual({ domain: [79, 81], ticks: [79, 80, 81] });
    expect(valueAxis(points(0), 100)).toEqual({ domain: [0, 1], ticks: [0, 1] });
  });

  it('leaves an open-ended metric, and a chart of no values, to recharts', () => {
    expect(valueAxis(points(140, 190), METRICS.remMinutes.max)).toEqual({ domain: ['auto', 'auto'] });
    expect(valueAxis(points(null), METRICS.sleepScore.max)).toEqual({ domain: ['auto', 'auto'] });
  });
});
