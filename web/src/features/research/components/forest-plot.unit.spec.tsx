// @vitest-environment happy-dom
import { cleanup, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ForestPlot, { axisTicks, COMPACT_BELOW } from './forest-plot';
import type { ComputableEffect } from './research-display';

const effect = (metric: string, label: string, dz: number, dzLow: number, dzHigh: number): ComputableEffect => ({
  metric,
  label,
  dz,
  dzLow,
  dzHigh,
  nPairs: 40,
  pHolm: 0.01,
  note: null,
});
const effects = [
  effect('sleepScore', 'Sleep score', 0.88, 0.56, 1.19),
  effect('restingHr', 'Resting heart rate', -1.05, -1.38, -0.72),
  effect('totalSleep', 'Total sleep', -0.08, -0.34, 0.18),
];
const CAPTION = "Polyester vs linen: Cohen's d_z with its 95% confidence interval, by metric";

/** The plot laid out `width` px wide, as a browser's ResizeObserver reports it (to recharts' container too). */
function renderAt(width: number) {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private readonly report: ResizeObserverCallback) {}
      observe() {
        this.report([{ contentRect: { width, height: 200 } } as ResizeObserverEntry], this as unknown as ResizeObserver);
      }
      disconnect() {}
    },
  );
  const { getByRole } = render(<ForestPlot effects={effects} caption={CAPTION} />);
  return getByRole('figure', { name: CAPTION });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the forest plot', () => {
  it('on a phone fits its width: the numbers in a list under it, not in a column beside it', async () => {
    const plot = renderAt(COMPACT_BELOW - 240);
    await waitFor(() => expect(plot.querySelectorAll('.recharts-scatter-symbol')).toHaveLength(3));
    expect(plot.querySelectorAll('.recharts-yAxis')).toHaveLength(1);
    const list = plot.querySelector('dl')!;
    expect(Array.from(list.querySelectorAll('dt, dd'), (item) => item.textContent)).toEqual([
      'Sleep score',
      '0.88 [0.56, 1.19]',
      'Resting heart rate',
      '-1.05 [-1.38, -0.72]',
      'Total sleep',
      '-0.08 [-0.34, 0.18]',
    ]);
    // screen readers read the table in both layouts, and not the list as well
    expect(list.getAttribute('aria-hidden')).toBe('true');
    expect(within(plot).getByRole('table', { name: CAPTION })).toBeTruthy();
  });

  it('on a wide screen has the numbers in a column on the right', async () => {
    const plot = renderAt(COMPACT_BELOW + 200);
    await waitFor(() => expect(plot.querySelectorAll('.recharts-scatter-symbol')).toHaveLength(3));
    expect(plot.querySelectorAll('.recharts-yAxis')).toHaveLength(2);
    expect(plot.querySelector('dl')).toBeNull();
    // the axis's title with the z of d_z set low, as the heading has it
    const title = Array.from(plot.querySelectorAll('.recharts-xAxis text')).find((text) => text.textContent?.includes('95% CI'))!;
    expect(title.textContent).toBe("Cohen's dz (95% CI)");
    expect(title.querySelector('tspan')!.getAttribute('baseline-shift')).toBe('sub');
  });

  it('keeps at most five ticks when compact, 0 among them', () => {
    expect(axisTicks(1.5)).toEqual([-1.5, -1, -0.5, 0, 0.5, 1, 1.5]);
    expect(axisTicks(1.5, true)).toEqual([-1, 0, 1]);
    expect(axisTicks(1, true)).toEqual([-1, -0.5, 0, 0.5, 1]);
    expect(axisTicks(2, true)).toEqual([-2, -1, 0, 1, 2]);
    expect(axisTicks(3, true)).toEqual([-2, 0, 2]);
    // far out, the step grows: never more than five ticks a side
    expect(axisTicks(10)).toEqual([-10, -8, -6, -4, -2, 0, 2, 4, 6, 8, 10]);
    expect(axisTicks(40)).toEqual([-40, -30, -20, -10, 0, 10, 20, 30, 40]);
    expect(axisTicks(4e13)).toHaveLength(9);
  });
});
