/**
 * The calculator's rules (spec sections 4, 5 and 9), pure and table-tested.
 *
 * The frequency figures are a popular claim, not established science: see the
 * "About these numbers" note on the screen and docs/decisions.md.
 */

/** docs/product.md §9: the body's baseline frequency. */
export const BODY_BASELINE_HZ = 100;

export type FabricCategory = 'high' | 'balanced' | 'low' | 'synthetic';

/** docs/product.md §4: 1000 or more high; 100 to under 1000 balanced; 10 to under 100 low; below 10 synthetic. */
export function categoryOf(frequency: number): FabricCategory {
  if (frequency >= 1000) return 'high';
  if (frequency >= 100) return 'balanced';
  if (frequency >= 10) return 'low';
  return 'synthetic';
}

export const CATEGORY_LABELS: Record<FabricCategory, string> = {
  high: 'High frequency',
  balanced: 'Balanced',
  low: 'Low frequency',
  synthetic: 'Synthetic range',
};

/** docs/product.md §9: 1000 or more gives 95; 100 or more 80; 50 or more 60; 10 or more 30; else 0. */
export function energyScore(frequency: number): number {
  if (frequency >= 1000) return 95;
  if (frequency >= 100) return 80;
  if (frequency >= 50) return 60;
  if (frequency >= 10) return 30;
  return 0;
}

/** The label under the score, and what we suggest, for each score step. */
export function scoreLabel(score: number): string {
  if (score >= 95) return 'High Energy';
  if (score >= 80) return 'Balanced Energy';
  if (score >= 60) return 'Moderate Energy';
  if (score >= 30) return 'Low Energy';
  return 'Minimal Energy';
}

export function recommendationFor(score: number, kind: 'single' | 'blend'): string {
  if (score >= 95) {
    return kind === 'blend'
      ? 'This blend sits at the top of the chart. How well it breathes depends on its natural share: the more linen, hemp or wool and the less synthetic, the better it lets heat and moisture escape on warm nights.'
      : 'A lovely choice for sleep. This breathable natural fibre sits at the top of the chart and lets heat and moisture escape, which helps if you run warm or wake with night sweats.';
  }
  if (score >= 80) {
    return "A good, balanced choice that sits at the body's 100 Hz baseline on the chart. Comfortable for everyday sleepwear; a linen layer is the next step up if you often feel hot at night.";
  }
  if (score >= 60) {
    return kind === 'blend'
      ? 'A reasonable blend. Raising the share of linen, hemp or wool would lift its score and usually its breathability too.'
      : 'A reasonable choice. Pyjamas in linen, hemp or wool would score higher and usually breathe better.';
  }
  if (score >= 30) {
    return kind === 'blend'
      ? 'Comfortable enough, but low on the chart. For sleep, try a blend with more linen or organic cotton next to your skin.'
      : 'Comfortable enough, but low on the chart. For sleep, consider linen or organic cotton next to your skin.';
  }
  // (it said synthetic and heavily processed fabrics hold moisture against the skin: of bamboo,
  // whose own benefits say it absorbs moisture well)
  return 'At the bottom of the chart. For sleepwear, consider linen, hemp or organic cotton: synthetic fabrics tend to hold heat against the skin, which can make hot flashes and night sweats feel worse.';
}

/**
 * docs/product.md §5: a percentage is an integer from 0 to 100; anything that is not a number
 * counts as 0. Decimals are cut to the integer, out-of-range values are clamped.
 */
export function parsePercentage(raw: string): number {
  const value = Number.parseInt(raw.trim(), 10);
  if (Number.isNaN(value)) return 0;
  return Math.min(100, Math.max(0, value));
}

/** The whole number she typed in a percentage box, as typed (150 is 150, -30 is -30); 0 when there is none. */
function typedPercentage(raw: string): number {
  const value = Number.parseInt(raw.trim(), 10);
  return Number.isNaN(value) ? 0 : value;
}

/**
 * What the percentage box keeps of what she types: a leading minus, digits, and one decimal
 * point or comma (at most six characters). Nothing she typed is changed behind her back:
 * "50.5" stays "50.5" (it once became 505, then 100, as she typed it), "150" stays "150" and
 * "-30" stays "-30" (it became 30, and a blend of 30 and 70 was calculated), and
 * `blendProblem` says what is wrong with it.
 */
export function sanitizePercentageInput(raw: string): string {
  const sign = raw.trimStart().startsWith('-') ? '-' : '';
  const [whole = '', ...rest] = raw.replace(/[^\d.,]/g, '').split(/([.,])/);
  return (sign + (rest.length > 0 ? `${whole}${rest[0]}${rest.slice(1).join('').replace(/[.,]/g, '')}` : whole)).slice(0, 6);
}

/** A percentage she typed that is not a whole number from 0 to 100, in her words; null when it is one (or empty). */
function percentageProblem(raw: string): string | null {
  if (raw.startsWith('-')) return 'A percentage cannot be negative.';
  if (/[.,]/.test(raw)) return 'Percentages are whole numbers: 50, not 50.5.';
  if (parsePercentage(raw) < Number.parseInt(raw, 10)) return 'A percentage is at most 100.';
  return null;
}

export interface BlendRow {
  /** '' until a fabric is chosen. */
  fabricId: string;
  /** What the percentage box holds. */
  percentage: string;
}

export const MIN_BLEND_ROWS = 2;

/**
 * The running Total of the blend form: the sum of what is in the boxes (whole numbers, as
 * typed). It added them capped at 0-100, so 101 and 0 showed a green "Total: 100%".
 */
export function blendTotal(rows: readonly BlendRow[]): number {
  return rows.reduce((sum, row) => sum + typedPercentage(row.percentage), 0);
}

/** Green at exactly 100, red otherwise. */
export const isCompleteTotal = (total: number) => total === 100;

/**
 * docs/product.md §5: at least two rows; each row has a fabric and a percentage above 0; the
 * percentages total exactly 100. What keeps the blend from being calculated, in her words
 * (shown beside the disabled button), or null when it is valid.
 */
export function blendProblem(rows: readonly BlendRow[]): string | null {
  if (rows.length < MIN_BLEND_ROWS) return 'A blend needs at least two fabrics.';
  if (rows.some((row) => row.fabricId === '')) {
    return canRemoveRow(rows) ? 'Choose a fabric for every row, or remove the empty one.' : 'Choose a fabric for every row.';
  }
  const typed = rows.map((row) => percentageProblem(row.percentage)).find((problem) => problem !== null);
  if (typed) return typed;
  if (rows.some((row) => parsePercentage(row.percentage) <= 0)) return 'Give every fabric a percentage above 0.';
  if (!isCompleteTotal(blendTotal(rows))) return 'The percentages must add up to exactly 100%.';
  return null;
}

export const isValidBlend = (rows: readonly BlendRow[]): boolean => blendProblem(rows) === null;

/** Removing a row is offered only above two rows. */
export const canRemoveRow = (rows: readonly unknown[]) => rows.length > MIN_BLEND_ROWS;

/**
 * docs/product.md §9: the percentage-weighted average of the components' frequencies; 0 unless
 * the percentages total exactly 100.
 */
export function blendFrequency(components: readonly { frequency: number; percentage: number }[]): number {
  const total = components.reduce((sum, c) => sum + c.percentage, 0);
  if (total !== 100) return 0;
  return components.reduce((sum, c) => sum + (c.frequency * c.percentage) / 100, 0);
}

/** "5,000 Hz", "12.5 Hz". */
export function formatHz(frequency: number): string {
  return `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(frequency)} Hz`;
}
