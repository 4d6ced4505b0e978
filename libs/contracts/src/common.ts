import { z } from 'zod';

/** Every error the API returns: `{ error, message }` (error is a short machine word). */
export const ApiError = z.object({
  error: z.string(),
  message: z.string(),
});
export type ApiError = z.infer<typeof ApiError>;

/** A calendar date `YYYY-MM-DD` that exists (2025-02-30 is refused). */
export const CalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the format YYYY-MM-DD')
  .refine((value) => {
    const [y, m, d] = value.split('-').map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }, 'Not a real calendar date');

/**
 * A UUID, in lower case whatever case it came in: PostgreSQL compares `uuid` columns in any
 * case, but stream ids are text (`user:<id>`), and an id sent in upper case addressed
 * another, empty stream (a second membership of a thread she was in; a deletion that left
 * her streams).
 */
export const Uuid = z.uuid().toLowerCase();

/**
 * The error of a text field's type: `missing` when it was left out (or null), "<label> must
 * be one value, not a list" for a list (a query string that names it twice: `?q=a&q=b`),
 * else "<label> must be text" (a number or a list sent for it was told it was missing).
 */
export const textError =
  (missing: string, label: string) =>
  (issue: { input?: unknown }): string =>
    issue.input == null ? missing : Array.isArray(issue.input) ? `${label} must be one value, not a list` : `${label} must be text`;

/**
 * What a value of the wrong type is told where its schema says nothing of its own (zod's
 * default read "Invalid input: expected string, received number"); the answer names the
 * field before it ("currentPassword: Must be text").
 */
function typeError(issue: { code?: string; expected?: string; input?: unknown }): string | undefined {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.input === undefined || issue.input === null) return 'Required';
  if (Array.isArray(issue.input) && issue.expected !== 'array') return 'Must be one value, not a list';
  switch (issue.expected) {
    case 'string':
      return 'Must be text';
    case 'number':
    case 'int':
      return 'Must be a number';
    case 'boolean':
      return 'Must be true or false';
    case 'object':
      return 'Must be an object';
    case 'array':
      return 'Must be a list';
    default:
      return undefined;
  }
}
z.config({ customError: typeError });

export const Role = z.enum(['participant', 'admin']);
export type Role = z.infer<typeof Role>;

export { NOT_CONFIRMED_MESSAGE, SIGNED_IN_AS_SOMEONE_ELSE, SIGNED_IN_USER_HEADER, TEMPORARILY_UNAVAILABLE_MESSAGE } from './messages.ts';

/**
 * Text every field accepts: no NUL character (PostgreSQL cannot store one) and no lone
 * UTF-16 surrogate (it is no character at all). Checked for every string of every
 * request, whatever the field (libs/service-kit http.ts).
 */
export function isSafeText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const UNSAFE_TEXT_MESSAGE = 'Text must not contain NUL characters or broken Unicode';

/**
 * A whole number with its thousands grouped by commas, as `toLocaleString('en-US')` writes
 * it (4,000), without Intl: the schemas' messages are made when a process loads them, and
 * Intl's first use maps about 6 MB of ICU's data into the process (docs/performance.md).
 */
export function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/**
 * `value` rounded to `digits` decimals, halves away from zero, as the decimals she typed
 * read: the float noise of a sum or a mean goes first (the mean of her 14 HRVs, 43.95, is
 * 43.949999999999996 in floating point, and toFixed(1) printed 43.9). Values here are typed
 * with a decimal or two, so twelve significant digits hold all there is of them.
 */
export function roundDecimal(value: number, digits = 0): number {
  if (!Number.isFinite(value)) return value;
  const clean = Number(value.toPrecision(12));
  const magnitude = Math.abs(clean);
  // written with an exponent: below 1e-6 (rounds to 0 at any digits asked for here) or 1e21 and more (no decimals)
  if (String(magnitude).includes('e')) return magnitude < 1 ? 0 : clean;
  // decimal shifts in the exponent (not × 10^digits, which brings its own error back)
  const shifted = Math.round(Number(`${magnitude}e${digits}`));
  const rounded = Number(`${shifted}e-${digits}`);
  return clean < 0 ? -rounded : rounded;
}

/**
 * How many characters a text's limit counts in it, as the schemas count them: code points of
 * the trimmed text (zod's max counts code points), so an emoji is one, as she sees it, not two.
 */
export function characterCount(text: string): number {
  return Array.from(text.trim()).length;
}

/** How deeply a JSON body may nest: no form of ours comes near; beyond it, 400. */
export const MAX_JSON_DEPTH = 32;

/**
 * Something to see: a character that is neither a space nor invisible (format characters
 * such as U+200B, marks with no letter to go on such as U+034F or U+FE0F, the Hangul
 * fillers, the blank braille pattern). A text of none of them shows as nothing.
 */
const VISIBLE = /[^\s\p{Cf}\p{Mn}\u115F\u1160\u2800\u3164\uFFA0]/u;

/** Whether `text` shows anything (the screens' "empty", as the schemas judge it: a name, a thread's name, a message). */
export const hasSomethingToSee = (text: string): boolean => VISIBLE.test(text);

/** The most marks (accents, vowel signs) a character carries in any language's writing: Vietnamese two, Tibetan stacks four or five. */
export const MAX_MARKS_ON_A_CHARACTER = 8;
const STACKED_MARKS = new RegExp(`\\p{M}{${MAX_MARKS_ON_A_CHARACTER + 1},}`, 'u');

/**
 * Whether `text` stacks more marks on one character than any writing does: a letter with 90
 * accents drew a column over the text above and below it on the others' screens (a thread's
 * name over the community page's heading).
 */
export const hasStackedMarks = (text: string): boolean => STACKED_MARKS.test(text);
/** Said when a text has stacked marks ({@link hasStackedMarks}). */
export const stackedMarksMessage = (label: string) =>
  `${label} has a character with more than ${MAX_MARKS_ON_A_CHARACTER} accents or marks on it`;
