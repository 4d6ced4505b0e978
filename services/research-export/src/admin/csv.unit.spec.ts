import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvStringifier } from './csv.ts';

async function write(rows: Record<string, unknown>[]): Promise<Buffer> {
  const stringifier = csvStringifier([
    { key: 'name', header: 'name' },
    { key: 'value', header: 'value' },
  ]);
  const chunks: Buffer[] = [];
  stringifier.on('data', (chunk: Buffer | string) => chunks.push(Buffer.from(chunk)));
  const done = new Promise((resolve, reject) => stringifier.on('end', resolve).on('error', reject));
  for (const row of rows) stringifier.write(row);
  stringifier.end();
  await done;
  return Buffer.concat(chunks);
}

describe('the admin CSV', () => {
  it('starts with a UTF-8 byte order mark and ends records with CRLF', async () => {
    const bytes = await write([{ name: 'Zoë Ångström', value: 1 }]);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe('name,value\r\nZoë Ångström,1\r\n');
  });

  it('quotes commas, quotes and line breaks as RFC 4180 says (a lone LF or CR too)', async () => {
    const text = (
      await write([
        { name: 'Okafor, Ines', value: 'she said "hi"\nthen left' },
        { name: 'cr\ronly', value: null },
      ])
    )
      .subarray(3)
      .toString('utf8');
    expect(text).toBe('name,value\r\n"Okafor, Ines","she said ""hi""\nthen left"\r\n"cr\ronly",\r\n');
    expect(parse(text, { columns: true })).toEqual([
      { name: 'Okafor, Ines', value: 'she said "hi"\nthen left' },
      { name: 'cr\ronly', value: '' },
    ]);
  });

  it.each([
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['+1+2', "'+1+2"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
    ['＝1+1', "'＝1+1"], // the full-width equals sign some spreadsheets normalise
    ['Anna-Lena', 'Anna-Lena'], // only the first character counts
    // and the first after a semicolon, where a spreadsheet splitting on semicolons starts a cell
    ['x;=2*3;@SUM(4+5)', "x;'=2*3;'@SUM(4+5)"],
    ['a; +1', "a; '+1"],
    ['Lee; Anna', 'Lee; Anna'],
  ])('neutralises a text cell starting with a formula character: %j', async (value, cell) => {
    const text = (await write([{ name: value, value: -5 }])).subarray(3).toString('utf8');
    expect(text).toBe(`name,value\r\n${cell},-5\r\n`); // a negative number stays a number
  });

  it('writes yes/no, ISO times and empty cells', async () => {
    const stringifier = csvStringifier([
      { key: 'a', header: 'a' },
      { key: 'b', header: 'b' },
      { key: 'c', header: 'c' },
    ]);
    const chunks: string[] = [];
    stringifier.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
    const done = new Promise((resolve) => stringifier.on('end', resolve));
    stringifier.end({ a: true, b: new Date('2026-10-01T07:00:00.000Z'), c: undefined });
    await done;
    expect(chunks.join('').slice(1)).toBe('a,b,c\r\nyes,2026-10-01T07:00:00.000Z,\r\n');
  });
});
