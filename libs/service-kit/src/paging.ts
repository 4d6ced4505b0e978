import { CalendarDate, isSafeText } from '@sleepweave/contracts';
import { z } from 'zod';
import { badRequest } from './errors.ts';

/**
 * Keyset paging (docs/architecture.md, "Paging"): a page is `limit` rows after a cursor,
 * never an offset, so page 100 costs what page 1 does. The cursor is opaque to clients:
 * the sort key of the last row given, as base64url JSON; a cursor this server did not give
 * is a 400 with a clear message. Lists answered as a JSON array (the spec's shape) carry
 * the next page's cursor in the `X-Next-Cursor` header (absent on the last page).
 */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

export const INVALID_CURSOR_MESSAGE = 'cursor is not one this server gave: start again without it';

/**
 * The `limit` query parameter: optional (`fallback`), an integer of at least 1; above
 * `max` it is clamped to `max` (a client asking for more gets the most we give).
 */
export const limitParam = (fallback: number, max: number) =>
  z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .default(fallback)
    .transform((n) => Math.min(n, max));

/**
 * An optional cursor parameter (what `encodeCursor` made; checked by `decodeCursor`); `max`
 * characters at most (a sort key of names needs more than the default).
 */
export const cursorParam = (max = 500) => z.string().max(max, INVALID_CURSOR_MESSAGE).optional();

/**
 * The parts of a sort key, each as PostgreSQL reads it back: a forged part it cannot read
 * (the year 0, a rank beyond float4's range) is a 400 like any cursor this server did not
 * give, never a 500. (Every text part is checked for NUL and broken Unicode by decodeCursor.)
 */
export const cursorPart = {
  /** A calendar date, `YYYY-MM-DD`. */
  date: CalendarDate,
  /**
   * An instant as `toISOString` writes it (or with an offset); not in the year 0, and with
   * an offset PostgreSQL takes (up to ±15:59; zod's goes to ±23:59).
   */
  instant: z.iso
    .datetime({ offset: true })
    .refine((value) => !value.startsWith('0000') && Math.abs(Number(/([+-]\d{2}):?\d{2}$/.exec(value)?.[1] ?? 0)) <= 15),
  /**
   * A float4 as PostgreSQL prints it (a search rank), finite and within its range: not
   * beyond its largest, and not so small that it would read as 0 (PostgreSQL refuses that as
   * out of range too; a rank is never below float4's smallest normal number).
   */
  real: z
    .string()
    .regex(/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i)
    .refine((value) => {
      const size = Math.abs(Number(value));
      return size <= 3.4028234663852886e38 && (size === 0 || size >= 1.1754943508222875e-38);
    }),
};

/** Whether every string in a decoded cursor is text PostgreSQL can take (no NUL, no lone surrogate). */
function safeStrings(value: unknown): boolean {
  if (typeof value === 'string') return isSafeText(value);
  if (Array.isArray(value)) return value.every(safeStrings);
  return true;
}

export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The sort key of a cursor, checked against `schema`; 400 for anything else. */
export function decodeCursor<T>(cursor: string, schema: z.ZodType<T>, name = 'cursor'): T {
  const message = name === 'cursor' ? INVALID_CURSOR_MESSAGE : INVALID_CURSOR_MESSAGE.replace('cursor', name);
  let raw: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(message);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success || !safeStrings(parsed.data)) throw badRequest(message);
  return parsed.data;
}

/**
 * Of `limit + 1` rows read, the page (`limit` rows) and the cursor of its last row when
 * more follow (null on the last page).
 */
export function toPage<R>(rows: R[], limit: number, keyOf: (row: R) => readonly (string | number)[]): { items: R[]; next: string | null } {
  if (rows.length <= limit) return { items: rows, next: null };
  const items = rows.slice(0, limit);
  return { items, next: encodeCursor(keyOf(items[items.length - 1] as R)) };
}
