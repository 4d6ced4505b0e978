import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError } from './errors.ts';
import { cursorPart, decodeCursor, encodeCursor, INVALID_CURSOR_MESSAGE, limitParam, toPage } from './paging.ts';

const Key = z.tuple([z.iso.date(), z.uuid()]);

describe('keyset paging', () => {
  it('a cursor round-trips its sort key', () => {
    const key = ['2026-01-02', 'c0ffee00-5eed-4a11-9e1c-000000000001'] as const;
    expect(decodeCursor(encodeCursor(key), Key)).toEqual(key);
  });

  it.each([
    ['not base64url', 'a b'],
    ['not JSON', Buffer.from('{nope').toString('base64url')],
    ['another shape', encodeCursor(['2026-01-02'])],
    ['a bad value', encodeCursor(['yesterday', 'c0ffee00-5eed-4a11-9e1c-000000000001'])],
  ])('refuses %s with a 400 that says what to do', (_what, cursor) => {
    const err = (() => {
      try {
        decodeCursor(cursor, Key);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ statusCode: 400, message: INVALID_CURSOR_MESSAGE });
  });

  it('refuses a forged part PostgreSQL could not read (it would be a 500), and takes what the server gives', () => {
    const Parts = z.tuple([cursorPart.date, cursorPart.instant, cursorPart.real, z.string()]);
    const given = ['2026-01-02', new Date('2026-01-02T03:04:05.678Z').toISOString(), '0.0607927', 'Linen, and sleep'];
    expect(decodeCursor(encodeCursor(given), Parts)).toEqual(given);
    expect(decodeCursor(encodeCursor(['1999-12-31', '0001-01-01T00:00:00Z', '6.07927e-05', '']), Parts)).toBeTruthy();
    expect(decodeCursor(encodeCursor(['1999-12-31', '2026-01-02T03:04:05+15:59', '0', '']), Parts)).toBeTruthy();
    expect(decodeCursor(encodeCursor(['1999-12-31', '2026-01-02T03:04:05-15:00', '-0.5', '']), Parts)).toBeTruthy();
    for (const forged of [
      ['0000-01-01', given[1], given[2], given[3]],
      [given[0], '0000-01-01T00:00:00Z', given[2], given[3]],
      [given[0], given[1], 'e', given[3]],
      [given[0], given[1], '--', given[3]],
      [given[0], given[1], '1e999', given[3]],
      [given[0], given[1], '-4e38', given[3]],
      [given[0], given[1], '1e-50', given[3]],
      [given[0], '2026-01-02T03:04:05+16:00', given[2], given[3]],
      [given[0], '2026-01-02T03:04:05-23:59', given[2], given[3]],
      [given[0], given[1], given[2], 'a\u0000b'],
      [given[0], given[1], given[2], 'a\ud800b'],
    ]) {
      expect(() => decodeCursor(encodeCursor(forged as string[]), Parts), JSON.stringify(forged)).toThrow(INVALID_CURSOR_MESSAGE);
    }
  });

  it('limit: a default, clamped to the maximum, refused below 1 or when not a whole number', () => {
    const limit = limitParam(50, 200);
    expect(limit.parse(undefined)).toBe(50);
    expect(limit.parse('10')).toBe(10);
    expect(limit.parse('100000')).toBe(200);
    expect(limit.safeParse('0').success).toBe(false);
    expect(limit.safeParse('2.5').success).toBe(false);
    expect(limit.safeParse('ten').success).toBe(false);
  });

  it('a page of limit rows has a next cursor only when more rows were read', () => {
    const rows = [1, 2, 3].map((n) => ({ n }));
    expect(toPage(rows, 3, (r) => [r.n])).toEqual({ items: rows, next: null });
    const page = toPage(rows, 2, (r) => [r.n]);
    expect(page.items).toEqual(rows.slice(0, 2));
    expect(decodeCursor(page.next!, z.tuple([z.number()]))).toEqual([2]);
  });
});
