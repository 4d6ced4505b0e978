import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChartPoint } from './metrics';

export interface MetricChartProps {
  name: string;
  color: string;
  unit: string;
  points: ChartPoint[];
}

/**
 * One metric as a line (recharts; loaded on its own, see lazy-metric-chart.tsx). A day
 * without a value is a gap in the line. The numbers are also in a table for screen readers.
 */
export default function MetricChart({ name, color, unit, points }: MetricChartProps) {
  const withUnit = (value: number) => (unit ? `${value} ${unit}` : String(value));
  return (
    <figure className="grid gap-2">
      <div aria-hidden="true" className="h-56 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: -12 }}>
            <CartesianGrid stroke="#e8e6f6" vertical={false} />
            <XAxis
              dataKey="label"
              padding={{ left: 14, right: 14 }}
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
              domain={['auto', 'auto']}
            />
            <Tooltip
              labelFormatter={(_label, payload) => (payload?.[0]?.payload as ChartPoint | undefined)?.title ?? String(_label)}
              formatter={(value) => [withUnit(Number(value)), name]}
              contentStyle={{ borderRadius: 12, borderColor: '#d2cdee' }}
            />
            <Line
              type="monotone"
              dataKey="value"
              name={name}
              stroke={color}
              strokeWidth={2.5}
              dot={{ r: 4, fill: color }}
              connectNulls={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <table className="sr-only">
        <caption>{name}</caption>
        <tbody>
          {points.map((point) => (
            <tr key={point.title}>
              <th scope="row">{point.title}</th>
              <td>{point.value === null ? 'no entry' : withUnit(point.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
