import { describe, expect, it } from 'vitest';
import { csvRows, readZip } from '../test/zip.ts';
import type { FileSpec } from './columns.ts';
import { ZipWriter } from './zip.ts';

const spec = (file: string): FileSpec => ({
  file,
  description: 'test',
  columns: ['id', 'score', 'note', 'ok'].map((name) => ({ name, label: name, type: 'text', unit: null, allowed: null, notes: null })),
});

describe('CsvFile', () => {
  it('writes rows given as cells in column order as it writes them given by column name', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      id: `SW-${i}`,
      score: i % 7 === 0 ? null : i / 3,
      note: i % 5 === 0 ? 'a "quoted", \nline' : 'plain',
      ok: i % 2 === 0,
    }));
    const zip = new ZipWriter(new Date('2026-11-22T02:00:00Z'));
    const byName = zip.csv(spec('by-name.csv'));
    await byName.writeAll(rows);
    await byName.end();
    const byCells = zip.csv(spec('by-cells.csv'));
    await byCells.writeCells(rows.map((row) => [row.id, row.score, row.note, row.ok]));
    await byCells.end();
    const files = await readZip(await zip.finish());
    expect(files.get('by-cells.csv')!.toString()).toBe(files.get('by-name.csv')!.toString());
    const parsed = csvRows(files.get('by-cells.csv'));
    expect(parsed).toHaveLength(2500);
    expect(parsed[0]).toEqual({ id: 'SW-0', score: '', note: 'a "quoted", \nline', ok: 'yes' });
    expect(parsed[1]).toEqual({ id: 'SW-1', score: String(1 / 3), note: 'plain', ok: 'no' });
  });

  it('refuses a row with more or fewer cells than the file has columns', async () => {
    const zip = new ZipWriter(new Date('2026-11-22T02:00:00Z'));
    const csv = zip.csv(spec('short.csv'));
    await expect(csv.writeCells([['SW-1', 1, 'x']])).rejects.toThrow('a row of 3 cells for 4 columns');
    await expect(csv.writeCells([['SW-1', 1, 'x', true, 'extra']])).rejects.toThrow('a row of 5 cells for 4 columns');
  });
});
