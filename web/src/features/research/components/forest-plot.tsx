import { CartesianGrid, ErrorBar, ReferenceLine, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { TooltipContentProps } from 'recharts';
import { Fragment, useLayoutEffect, useRef, useState } from 'react';
import { type ComputableEffect, formatEffect, formatInterval, formatP } from './research-display';

export interface ForestPlotProps {
  /** The metrics with a d_z, one row each, top to bottom. */
  effects: ComputableEffect[];
  /** What the plot shows; also the caption of its table. */
  caption: string;
}

interface Row {
  metric: string;
  dz: number;
  /** How far the 95% CI reaches below and above dz (ErrorBar's asymmetric form). */
  ci: [number, number];
  effect: ComputableEffect;
}

/**
 * Narrower than this (px; a phone), the plot fits its width instead of scrolling sideways:
 * shorter labels, fewer ticks, and the numbers in a list under it instead of a column.
 */
export const COMPACT_BELOW = 576;

/**
 * The axis's title under it, with the z of d_z set low as the heading above the plot sets it
 * (a label's text could only say "d_z"). Recharts hands it the axis's box.
 */
function AxisTitle({ viewBox }: { viewBox?: { x: number; y: number; width: number; height: number } }) {
  if (!viewBox) return null;
  return (
    <text x={viewBox.x + viewBox.width / 2} y={viewBox.y + viewBox.height + 4} dy="0.9em" textAnchor="middle" fill="#3b336c" fontSize={13}>
      Cohen&apos;s d
      <tspan baselineShift="sub" fontSize={10}>
        z
      </tspan>
      <tspan> (95% CI)</tspan>
    </text>
  );
}

const ROW_HEIGHT = 44;
const AXES_HEIGHT = 64;
const COLOR = '#4a3e8a';

/**
 * The step between the axis's ticks: 0.5 up to 2; beyond, 1, 2, 5, 10, 20 ... whichever first
 * gives at most five a side (a d_z of 40 must not draw eighty ticks).
 */
export function axisStep(reach: number): number {
  if (reach <= 2) return 0.5;
  const magnitude = Math.max(1, 10 ** Math.floor(Math.log10(reach / 5)));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((step) => reach / step <= 5) ?? 10 * magnitude;
}

/** The x axis runs symmetric around 0, to the next tick (a half up to 2) beyond every interval. */
export function axisBound(effects: ComputableEffect[]): number {
  const reach = Math.max(0.5, ...effects.flatMap((e) => [e.dz, e.dzLow ?? e.dz, e.dzHigh ?? e.dz].map(Math.abs)));
  const step = axisStep(reach);
  return Math.ceil(reach / step) * step;
}

/** The x axis's ticks; when compact, no more than five (every other one, 0 kept). */
export function axisTicks(bound: number, compact = false): number[] {
  const step = axisStep(bound);
  const perSide = Math.round(bound / step);
  const ticks = Array.from({ length: 2 * perSide + 1 }, (_, i) => Math.round((i - perSide) * step * 10) / 10);
  if (!compact || ticks.length <= 5) return ticks;
  return ticks.filter((tick) => Math.round(tick / step) % 2 === 0);
}

/** The element's width once laid out, and as it changes (null where it cannot be measured). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    // read before the first paint, so that a phone never shows the wide layout for a frame
    const laidOut = element.getBoundingClientRect().width;
    if (laidOut > 0) setWidth(laidOut);
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) setWidth(entry.contentRect.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

function EffectTooltip({ active, payload }: TooltipContentProps) {
  const row = payload?.[0]?.payload as Row | undefined;
  if (!active || !row) return null;
  const { effect } = row;
  return (
    <div className="grid gap-0.5 rounded-xl border border-night-200 bg-white px-3 py-2 text-sm text-night-900 shadow-md">
      <p className="font-semibold">{effect.label}</p>
      <p>
        d<sub>z</sub> {formatEffect(effect.dz)}, 95% CI {formatInterval(effect)}
      </p>
      <p>
        {effect.nPairs} pairs · p (Holm) {formatP(effect.pHolm)}
      </p>
    </div>
  );
}

/**
 * A forest plot (recharts; loaded on its own, see latest-results.tsx): per metric, Cohen's
 * d_z as a point with its 95% CI as a horizontal bar, a dashed line at 0, and the numbers
 * on the right, or under the plot on a phone (the tooltip adds the pairs and p). Screen
 * readers skip the drawing and read the same numbers from a table.
 */
export default function ForestPlot({ effects, caption }: ForestPlotProps) {
  const rows: Row[] = effects.map((effect) => ({
    metric: effect.metric,
    dz: effect.dz,
    ci: [effect.dz - (effect.dzLow ?? effect.dz), (effect.dzHigh ?? effect.dz) - effect.dz],
    effect,
  }));
  const labels = new Map(effects.map((effect) => [effect.metric, effect.label]));
  const numbers = new Map(effects.map((effect) => [effect.metric, `${formatEffect(effect.dz)} ${formatInterval(effect)}`]));
  const bound = axisBound(effects);
  const height = rows.length * ROW_HEIGHT + AXES_HEIGHT;
  const [measured, width] = useWidth();
  const compact = width !== null && width < COMPACT_BELOW;
  const tick = { fill: '#3b336c', fontSize: compact ? 12 : 13 };

  return (
    <figure aria-label={caption} className="grid gap-2">
      <div ref={measured} aria-hidden="true" className="w-full" style={{ height }}>
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 640, height }}>
          <ScatterChart data={rows} accessibilityLayer={false} margin={{ top: 8, right: compact ? 14 : 8, bottom: 24, left: 8 }}>
            <CartesianGrid stroke="#e8e6f6" horizontal={false} />
            <XAxis
              type="number"
              dataKey="dz"
              domain={[-bound, bound]}
              ticks={axisTicks(bound, compact)}
              interval={0}
              tick={tick}
              tickLine={false}
              axisLine={{ stroke: '#d2cdee' }}
              label={<AxisTitle />}
            />
            <YAxis
              type="category"
              dataKey="metric"
              width={compact ? 112 : 180}
              interval={0}
              reversed
              tickFormatter={(metric: string) => labels.get(metric) ?? metric}
              tick={tick}
              tickLine={false}
              axisLine={false}
            />
            {compact ? null : (
              <YAxis
                yAxisId="numbers"
                orientation="right"
                type="category"
                dataKey="metric"
                width={170}
                interval={0}
                reversed
                tickFormatter={(metric: string) => numbers.get(metric) ?? ''}
                tick={tick}
                tickLine={false}
                axisLine={false}
              />
            )}
            <ReferenceLine x={0} stroke="#6e6a86" strokeDasharray="4 4" />
            <Tooltip content={EffectTooltip} cursor={false} />
            <Scatter name="Cohen's d_z" data={rows} dataKey="dz" fill={COLOR} isAnimationActive={false}>
              <ErrorBar dataKey="ci" direction="x" width={8} strokeWidth={2} stroke={COLOR} isAnimationActive={false} />
            </Scatter>
          </ScatterChart>
        </ResponsiveContainer>
      </div>
      {compact ? (
        // the numbers beside each row on a wide screen; screen readers have the table below
        <dl aria-hidden="true" className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm text-night-800">
          {effects.map((effect) => (
            <Fragment key={effect.metric}>
              <dt>{effect.label}</dt>
              <dd className="text-right tabular-nums">{numbers.get(effect.metric)}</dd>
            </Fragment>
          ))}
        </dl>
      ) : null}
      <div className="sr-only">
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">Cohen&apos;s d_z</th>
              <th scope="col">95% CI</th>
              <th scope="col">Pairs</th>
              <th scope="col">p (Holm)</th>
            </tr>
          </thead>
          <tbody>
            {effects.map((effect) => (
              <tr key={effect.metric}>
                <th scope="row">{effect.label}</th>
                <td>{formatEffect(effect.dz)}</td>
                <td>{formatInterval(effect)}</td>
                <td>{effect.nPairs}</td>
                <td>{formatP(effect.pHolm)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
