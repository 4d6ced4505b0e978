import { CartesianGrid, ErrorBar, ReferenceLine, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { TooltipContentProps } from 'recharts';
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

const ROW_HEIGHT = 44;
const AXES_HEIGHT = 64;
const COLOR = '#4a3e8a';

/** The x axis runs symmetric around 0, to the next half (a whole past 2) beyond every interval. */
export function axisBound(effects: ComputableEffect[]): number {
  const reach = Math.max(0.5, ...effects.flatMap((e) => [e.dz, e.dzLow ?? e.dz, e.dzHigh ?? e.dz].map(Math.abs)));
  return reach <= 2 ? Math.ceil(reach * 2) / 2 : Math.ceil(reach);
}

function axisTicks(bound: number): number[] {
  const step = bound <= 2 ? 0.5 : 1;
  const ticks: number[] = [];
  for (let tick = -bound; tick <= bound + 1e-9; tick += step) ticks.push(Math.round(tick * 10) / 10);
  return ticks;
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
 * on the right (the tooltip adds the pairs and p). Screen readers skip the drawing and read
 * the same numbers from a table.
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

  return (
    <figure aria-label={caption} className="grid gap-2 overflow-x-auto">
      <div aria-hidden="true" className="w-full min-w-[36rem]" style={{ height }}>
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 640, height }}>
          <ScatterChart data={rows} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 24, left: 8 }}>
            <CartesianGrid stroke="#e8e6f6" horizontal={false} />
            <XAxis
              type="number"
              dataKey="dz"
              domain={[-bound, bound]}
              ticks={axisTicks(bound)}
              interval={0}
              tick={{ fill: '#3b336c', fontSize: 13 }}
              tickLine={false}
              axisLine={{ stroke: '#d2cdee' }}
              label={{ value: "Cohen's d_z (95% CI)", position: 'bottom', offset: 4, fill: '#3b336c', fontSize: 13 }}
            />
            <YAxis
              type="category"
              dataKey="metric"
              width={180}
              interval={0}
              reversed
              tickFormatter={(metric: string) => labels.get(metric) ?? metric}
              tick={{ fill: '#3b336c', fontSize: 13 }}
              tickLine={false}
              axisLine={false}
            />
            <YAxis
              yAxisId="numbers"
              orientation="right"
              type="category"
              dataKey="metric"
              width={170}
              interval={0}
              reversed
              tickFormatter={(metric: string) => numbers.get(metric) ?? ''}
              tick={{ fill: '#3b336c', fontSize: 13 }}
              tickLine={false}
              axisLine={false}
            />
            <ReferenceLine x={0} stroke="#6e6a86" strokeDasharray="4 4" />
            <Tooltip content={EffectTooltip} cursor={false} />
            <Scatter name="Cohen's d_z" data={rows} dataKey="dz" fill={COLOR} isAnimationActive={false}>
              <ErrorBar dataKey="ci" direction="x" width={8} strokeWidth={2} stroke={COLOR} isAnimationActive={false} />
            </Scatter>
          </ScatterChart>
        </ResponsiveContainer>
      </div>
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
