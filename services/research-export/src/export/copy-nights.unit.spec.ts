import { parse } from 'csv-parse/sync';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { ByteChunks, CopyNights, NIGHT_COPY_COLUMNS, readNumber } from './copy-nights.ts';
import { csvCell } from './csv.ts';
import { NIGHT_FIELDS, nightValues, valuesByKey, type CheckedNight, type NightField, type NightRow, type NightValue } from './qa.ts';

type Fields = Partial<Record<NightField['key'], NightValue>>;

/** A value as COPY's text format sends it (`\N` for null; backslash, tab and line breaks escaped). */
function copyField(value: NightValue | number | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  return value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);
}

interface Row {
  researchId: string;
  date: string;
  studyDay: number;
  phase: NightRow['phase'];
  material: string;
  fields: Fields;
  revisions: number;
  recordedAt: Date;
  changedAt: Date;
  timezone: string | null;
  /** A number's text as PostgreSQL sent it, when it is not JavaScript's (e.g. 1e-05). */
  text?: Partial<Record<NightField['key'], string>>;
}

function copyLine(row: Row): string {
  const fields = NIGHT_FIELDS.map((field) => row.text?.[field.key] ?? copyField(row.fields[field.key]));
  return [
    copyField(row.researchId),
    row.date,
    String(row.studyDay),
    row.phase,
    copyField(row.material),
    ...fields,
    String(row.revisions),
    String(row.recordedAt.getTime()),
    String(row.changedAt.getTime()),
    copyField(row.timezone),
  ].join('\t');
}

const row = (over: Partial<Row> = {}): Row => ({
  researchId: 'SW-7K2M9QXD',
  date: '2026-10-02',
  studyDay: 2,
  phase: 'polyester',
  material: '100% Polyester',
  fields: { sleepwearMaterial: '100% Polyester', sleepScore: 80, totalSleepMinutes: 420, sleepEfficiency: 87.5, dreamRecall: true },
  revisions: 0,
  recordedAt: new Date('2026-10-03T07:00:00.123Z'),
  changedAt: new Date('2026-10-03T07:00:00.123Z'),
  timezone: 'Europe/London',
  ...over,
});

const CLEAN: Omit<CheckedNight, 'analysedValues'> = { flags: [], hits: [], analysed: true };

/** Reads COPY text given in chunks: the nights seen and nights.csv's bytes. */
function read(chunks: Buffer[], check: (night: NightRow) => Omit<CheckedNight, 'analysedValues'> = () => CLEAN) {
  const nights: NightRow[] = [];
  const out: Buffer[] = [];
  const lines = new ByteChunks((chunk) => out.push(Buffer.from(chunk)));
  const reader = new CopyNights(lines, (night) => {
    // the reader fills the same night anew for each row: keep a copy
    nights.push({ ...night, values: [...night.values], recordedAt: new Date(night.recordedAt), changedAt: new Date(night.changedAt) });
    return { ...check(night), analysedValues: night.values };
  });
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  lines.flush();
  return { nights, csv: Buffer.concat(out).toString('utf8') };
}

/** The line nights.csv holds for a row, cell by cell as csvCell writes every other file's. */
function expectedLine(r: Row, checked: Omit<CheckedNight, 'analysedValues'>): string {
  const values = nightValues(r.fields);
  const worn = r.fields.sleepwearMaterial;
  return [
    r.researchId,
    r.date,
    r.studyDay,
    r.phase,
    r.material,
    ...values,
    typeof worn === 'string' ? worn === r.material : null,
    r.revisions,
    r.recordedAt.toISOString(),
    checked.analysed,
    checked.flags.join(';'),
  ]
    .map(csvCell)
    .join(',');
}

describe("reading the nights from COPY's bytes", () => {
  it('reads every field of a night, and writes its line of nights.csv as csvCell writes cells', () => {
    const r = row({
      fields: {
        sleepwearMaterial: '100% Linen',
        sleepScore: 81,
        totalSleepMinutes: 431.5,
        timeInBedMinutes: null,
        avgSpo2: 97.25,
        restingHr: -0.5,
        dreamRecall: false,
        heatWave: true,
        morningMood: 'Rested',
      },
      revisions: 2,
      changedAt: new Date('2026-10-04T08:15:00.456Z'),
    });
    const { nights, csv } = read([Buffer.from(`${copyLine(r)}\n`)], () => ({ flags: ['revised'], hits: [], analysed: false }));
    expect(nights).toHaveLength(1);
    expect(nights[0]).toMatchObject({
      researchId: r.researchId,
      date: r.date,
      studyDay: 2,
      phase: 'polyester',
      recommendedMaterial: '100% Polyester',
      revisions: 2,
      timezone: 'Europe/London',
    });
    expect(nights[0]!.recordedAt.toISOString()).toBe('2026-10-03T07:00:00.123Z');
    expect(nights[0]!.changedAt.toISOString()).toBe('2026-10-04T08:15:00.456Z');
    expect(valuesByKey(nights[0]!.values)).toEqual(valuesByKey(nightValues(r.fields)));
    expect(csv).toBe(`${expectedLine(r, { flags: ['revised'], hits: [], analysed: false })}\n`);
  });

  it('reads the zone a night was logged in, and null for a night that has none', () => {
    const rows = [row({ timezone: 'America/Los_Angeles' }), row({ timezone: null }), row({ timezone: 'Europe/Paris' })];
    const { nights, csv } = read([Buffer.from(rows.map((r) => `${copyLine(r)}\n`).join(''))]);
    expect(nights.map((n) => n.timezone)).toEqual(['America/Los_Angeles', null, 'Europe/Paris']);
    // nights.csv is as before: the zone is for the rules, not a column
    expect(csv).toBe(rows.map((r) => `${expectedLine(r, CLEAN)}\n`).join(''));
  });

  it('gives the same nights and the same file however COPY splits its bytes, inside a row, a field or a character', () => {
    const rows = Array.from({ length: 40 }, (_, i) =>
      row({
        timezone: i % 4 === 0 ? null : 'Europe/London',
        researchId: `SW-${String(i % 7).padStart(8, '0')}`,
        date: `2026-10-${String((i % 28) + 1).padStart(2, '0')}`,
        studyDay: (i % 42) + 1,
        fields: {
          sleepScore: 60 + i,
          avgHrv: i % 3 === 0 ? null : 40.1 + i,
          morningMood: i % 5 === 0 ? 'Zoë – naïve, "très" bien' : 'Tired',
        },
      }),
    );
    const bytes = Buffer.from(rows.map((r) => `${copyLine(r)}\n`).join(''));
    const whole = read([bytes]);
    expect(whole.nights).toHaveLength(40);
    expect(whole.csv).toBe(rows.map((r) => `${expectedLine(r, CLEAN)}\n`).join(''));
    const rng = xoroshiro128plus(7);
    for (let trial = 0; trial < 50; trial++) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length;) {
        const size = uniformInt(rng, 1, 300);
        chunks.push(bytes.subarray(at, at + size));
        at += size;
      }
      const split = read(chunks);
      expect(split.csv).toBe(whole.csv);
      expect(split.nights.map((n) => valuesByKey(n.values))).toEqual(whole.nights.map((n) => valuesByKey(n.values)));
      expect(split.nights.map((n) => n.timezone)).toEqual(whole.nights.map((n) => n.timezone));
    }
  });

  it('carries escaped text, quotes, commas and line breaks into cells a CSV reader reads back as stored', () => {
    const odd = 'Tired,\t"very"\nback\\slash\r\nZoë – ünïcödé';
    const r = row({ researchId: 'SW-"X,Y"', material: '100% Cotton, "soft"', fields: { morningMood: odd, fabricComfort: odd } });
    const { nights, csv } = read([Buffer.from(`${copyLine(r)}\n`)]);
    expect(valuesByKey(nights[0]!.values)).toMatchObject({ morningMood: odd, fabricComfort: odd });
    expect(nights[0]!.recommendedMaterial).toBe('100% Cotton, "soft"');
    const [cells] = parse(csv, { relax_column_count: false }) as string[][];
    const column = (name: string) =>
      cells![['research_id', 'date', 'study_day', 'phase', 'recommended_material', ...NIGHT_FIELDS.map((f) => f.column)].indexOf(name)];
    expect(column('research_id')).toBe('SW-"X,Y"');
    expect(column('recommended_material')).toBe('100% Cotton, "soft"');
    expect(column('morning_mood')).toBe(odd);
    expect(column('fabric_comfort')).toBe(odd);
  });

  it('writes a number as PostgreSQL sent it, and a value that is not finite as an empty cell', () => {
    const r = row({
      fields: { sleepScore: 0.00001, avgHrv: Number.NaN, restingHr: Number.POSITIVE_INFINITY, timingScore: 1e21 },
      text: { sleepScore: '1e-05', avgHrv: 'NaN', restingHr: 'Infinity', timingScore: '1e+21' },
    });
    const { nights, csv } = read([Buffer.from(`${copyLine(r)}\n`)]);
    const values = valuesByKey(nights[0]!.values);
    expect(values.sleepScore).toBe(0.00001);
    expect(values.avgHrv).toBeNaN();
    expect(values.restingHr).toBe(Number.POSITIVE_INFINITY);
    expect(values.timingScore).toBe(1e21);
    const [cells] = parse(csv) as string[][];
    const cell = (key: NightField['key']) => cells![5 + NIGHT_FIELDS.findIndex((f) => f.key === key)];
    expect([cell('sleepScore'), cell('avgHrv'), cell('restingHr'), cell('timingScore')]).toEqual(['1e-05', '', '', '1e+21']);
    expect(Number(cell('sleepScore'))).toBe(values.sleepScore);
  });

  it('refuses a COPY that ends inside a row, or a row of another shape', () => {
    const line = copyLine(row());
    const truncated = new CopyNights(null, () => ({ ...CLEAN, analysedValues: [] }));
    truncated.push(Buffer.from(line.slice(0, 50)));
    expect(() => truncated.end()).toThrow(/ended inside a row/);
    const short = new CopyNights(null, () => ({ ...CLEAN, analysedValues: [] }));
    expect(() => short.push(Buffer.from('SW-1\t2026-10-01\n'))).toThrow(/a row of 2 columns, not/);
    expect(NIGHT_COPY_COLUMNS).toHaveLength(5 + NIGHT_FIELDS.length + 4);
  });
});

describe('readNumber', () => {
  const number = (text: string) => readNumber(Buffer.from(`x${text}y`), 1, 1 + Buffer.byteLength(text));

  it('reads what Number() reads, exactly, for the texts PostgreSQL sends', () => {
    for (const text of [
      '0',
      '-0',
      '42',
      '-17',
      '87.5',
      '0.1',
      '0.30000000000000004',
      '97.25',
      '1e-05',
      '1.5e+300',
      '123456789012345',
      '1234567890123456789',
      '9007199254740993',
      '0.000001',
      'NaN',
      'Infinity',
      '-Infinity',
      '4.35',
      '36.6',
    ]) {
      expect(Object.is(number(text), Number(text)), text).toBe(true);
    }
  });

  it('agrees with Number() bit for bit on a million random decimals of up to 17 digits', () => {
    const rng = xoroshiro128plus(2026);
    const draw = (min: number, max: number) => uniformInt(rng, min, max);
    for (let i = 0; i < 1_000_000; i++) {
      const digits = Array.from({ length: draw(1, 17) }, () => draw(0, 9)).join('');
      const point = draw(0, digits.length);
      const text = `${draw(0, 1) ? '-' : ''}${point === digits.length ? digits : `${digits.slice(0, point) || '0'}.${digits.slice(point)}`}`;
      const read = number(text);
      if (!Object.is(read, Number(text))) expect(read, text).toBe(Number(text));
    }
  });
});

describe('ByteChunks.isoTime', () => {
  const iso = (ms: number) => {
    const out: Buffer[] = [];
    const chunks = new ByteChunks((chunk) => out.push(Buffer.from(chunk)));
    chunks.reserve(64);
    chunks.isoTime(ms);
    chunks.flush();
    return Buffer.concat(out).toString('latin1');
  };

  it('writes what toISOString writes: edges of a day, leap days, before 1970, years past 9999', () => {
    for (const text of [
      '2026-10-03T00:00:00.000Z',
      '2026-10-03T23:59:59.999Z',
      '2024-02-29T12:34:56.789Z',
      '2000-01-01T00:00:00.001Z',
      '1969-12-31T23:59:59.999Z',
      '1900-03-01T05:06:07.080Z',
    ]) {
      expect(iso(Date.parse(text))).toBe(text);
    }
    expect(iso(Date.UTC(12000, 0, 1))).toBe(new Date(Date.UTC(12000, 0, 1)).toISOString());
  });

  it('agrees with toISOString on a hundred thousand random times from 1950 to 2150', () => {
    // one writer for them all, as a run has (a writer per time would allocate a megabyte chunk each)
    const rng = xoroshiro128plus(43);
    const from = Date.UTC(1950, 0, 1);
    const to = Date.UTC(2150, 0, 1);
    const out: Buffer[] = [];
    const chunks = new ByteChunks((chunk) => out.push(Buffer.from(chunk)));
    const times: number[] = [];
    for (let i = 0; i < 100_000; i++) {
      const ms = from + Math.floor(((to - from) * uniformInt(rng, 0, 2 ** 30)) / 2 ** 30) + uniformInt(rng, 0, 999);
      times.push(ms);
      chunks.reserve(64);
      chunks.isoTime(ms);
      chunks.byte(0x0a);
    }
    chunks.flush();
    const lines = Buffer.concat(out).toString('latin1').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(times.length);
    times.forEach((ms, i) => {
      const expected = new Date(ms).toISOString();
      if (lines[i] !== expected) expect(lines[i], `${ms}`).toBe(expected);
    });
  });
});
