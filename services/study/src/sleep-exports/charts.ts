import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { PHASE_COLOURS, SLEEP_CHART_METRICS, type SleepChartMetric } from '@sleepweave/contracts';
import { FONT_FAMILY, FONT_FILES } from '@sleepweave/documents';
import { CategoryScale, Chart, LinearScale, LineController, LineElement, PointElement, Title, type Plugin } from 'chart.js';
import { datesBetween, phaseBands, shortDate, type NightsDigest, type PhaseBand } from './business-logic.ts';
import type { ExportSubject } from './queries.ts';

/**
 * The five charts of her export, drawn on the server: Chart.js 4 (the charting library
 * the web's recharts resembles most, well kept, pure JavaScript) on @napi-rs/canvas (Skia,
 * its binary shipped as an npm package for each platform, so nothing is downloaded from
 * elsewhere at install). One PNG per metric, used as is by the workbook and the PDF.
 * docs/personal-exports.md has the choice and its measured cost.
 */

Chart.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Title);
GlobalFonts.registerFromPath(FONT_FILES.regular, FONT_FAMILY);
GlobalFonts.registerFromPath(FONT_FILES.bold, FONT_FAMILY);
Chart.defaults.font.family = FONT_FAMILY;
Chart.defaults.color = '#3b336c';

/** Pixels of a chart image: drawn at twice the size they are shown in the PDF (about 170 dpi on A4). */
export const CHART_SIZE = { width: 1200, height: 420 } as const;

export interface ChartInput {
  metric: SleepChartMetric;
  /** Every date of the range: a date without a value is a gap in the line. */
  dates: readonly string[];
  values: readonly (number | null)[];
  bands: readonly PhaseBand[];
}

/**
 * White behind everything (a PNG is transparent otherwise), and the phases shaded behind the
 * grid and the line, in the screens' colours (PHASE_COLOURS), each named on its shade.
 */
function phasesPlugin(bands: readonly PhaseBand[]): Plugin<'line'> {
  return {
    id: 'sleepweavePhases',
    beforeDraw(chart) {
      const { ctx, width, height, chartArea, scales } = chart;
      ctx.save();
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, width, height);
      const x = scales.x!;
      // The x scale is offset: each date has a slot of the same width, its point in the middle.
      const step = (chartArea.right - chartArea.left) / Math.max(1, chart.data.labels!.length);
      ctx.beginPath();
      ctx.rect(chartArea.left, chartArea.top, chartArea.right - chartArea.left, chartArea.bottom - chartArea.top);
      ctx.clip();
      for (const band of bands) {
        const left = Math.max(chartArea.left, x.getPixelForValue(band.from) - step / 2);
        const right = Math.min(chartArea.right, x.getPixelForValue(band.to) + step / 2);
        const colours = PHASE_COLOURS[band.phase];
        ctx.fillStyle = colours.shade;
        ctx.fillRect(left, chartArea.top, right - left, chartArea.bottom - chartArea.top);
        ctx.font = `bold 17px "${FONT_FAMILY}"`;
        const label = band.label;
        if (ctx.measureText(label).width + 12 <= right - left) {
          ctx.fillStyle = colours.ink;
          ctx.textAlign = 'left';
          ctx.textBaseline = 'top';
          ctx.fillText(label, left + 6, chartArea.top + 6);
        }
      }
      ctx.restore();
    },
  };
}

/** One metric over the range as a PNG: dates on the x axis, phases shaded, gaps for missed nights. */
export function renderChart(input: ChartInput): Buffer {
  const canvas = createCanvas(CHART_SIZE.width, CHART_SIZE.height);
  const { metric } = input;
  const dense = input.dates.length > 62;
  const hasValues = input.values.some((v) => v !== null);
  const chart = new Chart(canvas as unknown as ConstructorParameters<typeof Chart>[0], {
    type: 'line',
    data: {
      labels: input.dates.map(shortDate),
      datasets: [
        {
          label: metric.title,
          data: [...input.values],
          borderColor: metric.color,
          backgroundColor: metric.color,
          borderWidth: dense ? 2 : 3,
          pointRadius: dense ? 2 : 4.5,
          spanGaps: false,
          tension: 0,
        },
      ],
    },
    options: {
      responsive: false,
      animation: false,
      devicePixelRatio: 1,
      layout: { padding: { top: 4, right: 18, bottom: 4, left: 6 } },
      plugins: {
        title: {
          display: true,
          // 'Deep Sleep (minutes)' says its unit already; 'Resting Heart Rate · bpm'
          text: metric.unit && metric.unit !== 'min' ? `${metric.title} · ${metric.unit}` : metric.title,
          align: 'start',
          font: { size: 24, weight: 'bold' },
          color: '#1f2937',
          padding: { top: 6, bottom: 14 },
        },
      },
      scales: {
        x: {
          offset: true,
          grid: { display: false },
          border: { color: '#d2cdee' },
          ticks: { font: { size: 16 }, maxRotation: 0, autoSkip: true, autoSkipPadding: 24 },
        },
        y: {
          grid: { color: '#ebe8f7' },
          border: { display: false },
          ticks: { font: { size: 16 }, maxTicksLimit: 7 },
          ...(hasValues ? { grace: '15%' } : { min: 0, max: 1, ticks: { display: false } }),
          title: { display: metric.unit !== '', text: metric.unit, font: { size: 16 } },
        },
      },
    },
    plugins: [phasesPlugin(input.bands)],
  });
  try {
    if (!hasValues) {
      const ctx = canvas.getContext('2d');
      ctx.font = `20px "${FONT_FAMILY}"`;
      ctx.fillStyle = '#5b6472';
      ctx.textAlign = 'center';
      ctx.fillText('Not recorded on any night of this range', CHART_SIZE.width / 2, CHART_SIZE.height / 2);
    }
    return canvas.toBuffer('image/png');
  } finally {
    chart.destroy();
  }
}

/** The five chart images of an export, by metric. */
export type ExportCharts = Record<SleepChartMetric['key'], Buffer>;

/** Every chart of the range: each date on the axis, her phases shaded, her values (gaps where none). */
export function drawCharts(
  subject: Pick<ExportSubject, 'studyStartDate'>,
  startDate: string,
  endDate: string,
  digest: NightsDigest,
): ExportCharts {
  const dates = datesBetween(startDate, endDate);
  const bands = phaseBands(subject.studyStartDate, dates);
  return Object.fromEntries(
    SLEEP_CHART_METRICS.map((metric) => [metric.key, renderChart({ metric, dates, values: digest.series(metric.key, dates), bands })]),
  ) as ExportCharts;
}
