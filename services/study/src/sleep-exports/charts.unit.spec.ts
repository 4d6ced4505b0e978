import { createCanvas, loadImage } from '@napi-rs/canvas';
import { PHASE_COLOURS, SLEEP_CHART_METRICS } from '@sleepweave/contracts';
import { describe, expect, it } from 'vitest';
import { datesBetween, phaseBands } from './business-logic.ts';
import { CHART_SIZE, renderChart } from './charts.ts';

async function pixels(png: Buffer) {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return {
    width: image.width,
    height: image.height,
    at: (x: number, y: number) => Array.from(ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data),
  };
}

describe('renderChart', () => {
  // Two days before her study, then ten polyester nights; values only on two of them.
  const dates = datesBetween('2025-02-27', '2025-03-10');
  const values = dates.map((_, i) => (i === 5 ? 90 : i === 6 ? 89 : null));
  const input = { metric: SLEEP_CHART_METRICS[0]!, dates, values, bands: phaseBands('2025-03-01', dates) };

  it('draws a PNG of the chart size on white, with the polyester dates shaded and the days before her study not', async () => {
    const png = renderChart(input);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const image = await pixels(png);
    expect([image.width, image.height]).toEqual([CHART_SIZE.width, CHART_SIZE.height]);
    expect(image.at(2, 2)).toEqual([255, 255, 255, 255]);
    // Low in the plot, away from the line: a date of her study in polyester's shade, the
    // screens' (PHASE_COLOURS), a date before it white
    const y = CHART_SIZE.height * 0.8;
    const hex = (rgb: number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
    expect(hex(image.at(CHART_SIZE.width * 0.9, y).slice(0, 3))).toBe(PHASE_COLOURS.polyester.shade);
    expect(hex(image.at(CHART_SIZE.width * 0.1, y).slice(0, 3))).toBe('#ffffff');
  });

  it('says so when no night of the range has a value', async () => {
    const png = renderChart({ ...input, values: dates.map(() => null) });
    const image = await pixels(png);
    // the sentence, dark grey, across the middle of the plot
    const darkest = (y: number) => Math.min(...Array.from({ length: 200 }, (_, i) => image.at(CHART_SIZE.width * 0.4 + i, y)[0]!));
    expect(Math.min(...[-10, -8, -6, -4].map((dy) => darkest(CHART_SIZE.height / 2 + dy)))).toBeLessThan(150);
  });
});
