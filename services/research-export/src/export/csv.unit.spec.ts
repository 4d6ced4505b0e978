import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv.ts';

describe('research CSV cells', () => {
  it('writes numbers as JavaScript prints them, booleans as yes/no, and nothing for null', () => {
    expect([0.1 + 0.2, -5, 1e21, 7].map(csvCell)).toEqual(['0.30000000000000004', '-5', '1e+21', '7']);
    expect([true, false, null, undefined, Number.NaN].map(csvCell)).toEqual(['yes', 'no', '', '', '']);
    expect(csvCell(new Date('2026-11-22T02:00:00.000Z'))).toBe('2026-11-22T02:00:00.000Z');
  });

  it('quotes text with a quote, a comma or a line break (RFC 4180), and only then', () => {
    expect(csvCell('100% Linen')).toBe('100% Linen');
    expect(csvCell('a "b"')).toBe('"a ""b"""');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('a\nb')).toBe('"a\nb"');
    expect(csvCell('a\rb')).toBe('"a\rb"');
  });

  it('reads back with csv-parse as it was written', () => {
    const rows = [
      ['id', 'text', 'number', 'flag'],
      ['SW-1', 'plain', 1.5, true],
      ['SW-2', 'comma, "quote"\nand a line\r\nbreak', -0.25, false],
      ['SW-3', 'Zoë – ünïcödé\ttab', 1e-7, null],
    ];
    const text = rows.map(csvLine).join('');
    expect(parse(text, { relax_column_count: false })).toEqual(
      rows.map((row) => row.map((cell) => (cell === null ? '' : typeof cell === 'boolean' ? (cell ? 'yes' : 'no') : String(cell)))),
    );
  });
});
