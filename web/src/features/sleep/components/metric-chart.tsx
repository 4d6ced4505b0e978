import { CartesianGrid, Line, LineChart, ReferenceArea, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { PHASE_COLOURS } from '@sleepweave/contracts';
import { valueAxis, type ChartPoint } from './metrics';
import { PHASE_NAMES } from './sleep-log-groups';
import { chartSummary, metricText, phaseBands, tickIndices } from './sleep-charts';

export interface MetricChartProps {
  name: string;
  color: string;
  unit: string;
  /** The metric's own maximum (the axis ends there at most); null when open-ended. */
  max: number | null;
  /** Decimals its values are said with (Metric). */
  decimals: 0 | 1;
  points: ChartPoint[];
}

/**
 * One metric as a line (recharts; loaded on its own, see lazy-metric-chart.tsx), one
 * point per night on a date axis: a night without a value is a gap in the line, and the
 * phases are shaded behind it.
 *
 * The drawing is for the eye only (aria-hidden, and recharts' keyboard layer is off, so
 * nothing in it takes focus); what it shows is said in words (the summary under it) and
 * in a table for screen readers.
 */
export default function MetricChart({ name, color, unit, max, decimals, points }: MetricChartProps) {
  const withUnit = (value: number) => metricText(value, unit, decimals);
  const data = points.map((point, index) => ({ ...point, index }));
  const ticks = tickIndices(points.length);
  return (
    <figure className="grid gap-2">
      <div aria-hidden="true" className="h-56 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 12, bottom: 0, left: -12 }}>
            {phaseBands(points).map((band) => (
              <ReferenceArea
                key={`${band.phase}-${band.from}`}
                x1={band.from - 0.5}
                x2={band.to + 0.5}
                fill={PHASE_COLOURS[band.phase].shade}
                fillOpacity={1}
                stroke="none"
                ifOverflow="hidden"
              />
            ))}
            <CartesianGrid stroke="#e8e6f6" vertical={false} />
            <XAxis
              type="number"
              dataKey="index"
              domain={[-0.5, points.length - 0.5]}
              ticks={ticks}
              tickFormatter={(index: number) => points[index]?.label ?? ''}
              allowDataOverflow
              tick={{ fill: '#3b336c', fontSize: 13 }}
              tickLine={false}
              axisLine={{ stroke: '#d2cdee' }}
            />
            <YAxis
              tick={{ fill: '#3b336c', fontSize: 13 }}
              tickLine={false}
              axisLine={false}
              width={52}
              allowDecimals={false}
              {...valueAxis(points, max)}
            />
            <Tooltip
              labelFormatter={(_label, payload) => (payload?.[0]?.payload as ChartPoint | undefined)?.title ?? ''}
              formatter={(value) => [withUnit(Number(value)), name]}
              contentStyle={{ borderRadius: 12, borderColor: '#d2cdee' }}
            />
            <Line
              type="monotone"
              dataKey="value"
              name={name}
              stroke={color}
              strokeWidth={2.5}
              dot={{ r: points.length > 14 ? 3 : 4, fill: color }}
              connectNulls={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-sm text-night-700">{chartSummary(points, unit, decimals)}</figcaption>
      <div className="sr-only">
        <table>
          <caption>{name}</caption>
          <thead>
            <tr>
              <th scope="col">Night</th>
              <th scope="col">Phase</th>
              <th scope="col">{name}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.date}>
                <th scope="row">{point.title}</th>
                <td>{point.beforeStudy ? 'before your study' : point.phase ? PHASE_NAMES[point.phase] : ''}</td>
                <td>
                  {point.beforeStudy ? '' : point.toCome ? 'still to come' : point.value === null ? 'not recorded' : withUnit(point.value)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
