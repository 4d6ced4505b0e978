import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  addDays,
  calendarDateIn,
  formatDuration,
  noNightsInRangeMessage,
  SLEEP_LOG_FIELD_LIST,
  type SleepLogFieldsInput,
} from '@sleepweave/contracts';
import { pdfFonts, pdfInfo, pdfPagesToPng, pdfText } from '@sleepweave/documents/testing';
import { createLogger, findDirectoryUser } from '@sleepweave/service-kit';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register } from '../../../identity/src/test/helpers.ts';
import { giveConsentAt, startStudy, type Study } from '../test/helpers.ts';

/** Where the PDF's pages go as PNGs, to be looked at (test-results/ is not committed). */
const PAGES_DIR = join(import.meta.dirname, '../../../../test-results/sleep-export-pages');

let env: Study;
/** What the study logged at error level: a download that fails says what the service saw. */
const errorsLogged: string[] = [];
beforeAll(async () => {
  env = await startStudy({ logger: createLogger('study', 'error', 'json', { write: (line: string) => void errorsLogged.push(line) }) });
});
afterAll(async () => {
  await env?.cleanup();
});

type Headers = Record<string, string>;
async function get(url: string, headers: Headers) {
  try {
    return await env.study.app.inject({ method: 'GET', url, headers });
  } catch (err) {
    // (a CI run once saw 'response destroyed before completion' here, with no reason)
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`GET ${url} failed: ${reason}; the study logged: ${errorsLogged.join('') || 'no error'}`, { cause: err });
  }
}
const exportUrl = (query: Record<string, string>) => `/api/sleep/export?${new URLSearchParams(query)}`;

const FIRST_NAME = 'Zoë Ольга';
const LAST_NAME = 'Łukasiewicz-Σοφία';
const COMMENT = 'Hot flash at 3 am — woke twice; room 21–23 °C, ½ duvet ✓ “better” than last week';

/** Her night on study day `day`: values that differ by phase, so the summary has something to say. */
function nightOf(day: number): SleepLogFieldsInput {
  const phase = day <= 14 ? 0 : day <= 28 ? 1 : 2;
  return {
    sleepwearMaterial: (['100% Polyester', '100% Cotton', '100% Linen'] as const)[phase],
    sleepScore: 70 + phase * 5 + (day % 5),
    totalSleepMinutes: 400 + phase * 10 + (day % 7),
    sleepEfficiency: 85 + phase + (day % 3) / 2,
    timeInBedMinutes: 470 + (day % 4),
    restingHr: 60 - phase - (day % 3),
    restfulness: 70 + (day % 9),
    remMinutes: 90 + phase * 5 + (day % 4),
    deepMinutes: 60 + phase * 6 + (day % 5),
    latencyMinutes: 10 + (day % 6),
    timingScore: 80,
    avgSpo2: 96.5,
    breathingRegularity: 'Good',
    lowestHr: 50,
    // a night without the ring's HRV: a gap in that chart
    avgHrv: day === 20 ? null : 35 + phase * 4 + (day % 4) / 2,
    sleepQuality110: 6 + phase,
    restfulnessSelf: 6,
    morningMood: 'Refreshed',
    dreamRecall: day % 2 === 0,
    fabricComfort: phase === 2 ? 'Very Comfortable' : 'Comfortable',
    emotionalCalm: 7,
    heatWave: day % 4 === 0,
    heatWakeups: day % 4 === 0 ? 2 : 0,
    comments: day % 10 === 3 ? COMMENT : null,
  };
}

/** Nights she missed: gaps in the charts, rows absent from the table. */
const MISSED = new Set([5, 17, 33]);
const DAYS = 45;

/**
 * A participant with weeks of data: she consented DAYS - 1 days ago (in Europe/London) and
 * logged every night since but three, through the API as the app does.
 */
async function participantWithWeeks() {
  const { user, access } = await register(env.identity, { timezone: 'Europe/London', firstName: FIRST_NAME, lastName: LAST_NAME });
  const userId = user.id;
  // (in beforeAll, where expect.poll is not allowed) until the study knows her
  for (let waited = 0; !(await findDirectoryUser(env.study.deps.sql, userId)); waited += 50) {
    if (waited > 5_000) throw new Error('the study never learnt of her registration');
    await sleep(50);
  }
  const headers = { authorization: `Bearer ${access}` };
  const consentedAt = new Date(Date.now() - (DAYS - 1) * 86_400_000);
  await giveConsentAt(env, userId, 'Europe/London', consentedAt);
  const start = calendarDateIn('Europe/London', consentedAt);
  const dates: string[] = [];
  for (let day = 1; day <= DAYS; day++) {
    if (MISSED.has(day)) continue;
    const date = addDays(start, day - 1);
    const response = await env.study.app.inject({ method: 'POST', url: '/api/sleep/log', headers, payload: { date, ...nightOf(day) } });
    if (response.statusCode !== 201) throw new Error(`log failed: ${response.statusCode} ${response.body}`);
    dates.push(date);
  }
  return { userId, headers, start, dates, end: addDays(start, DAYS - 1) };
}
type WithWeeks = Awaited<ReturnType<typeof participantWithWeeks>>;

let her: WithWeeks;
beforeAll(async () => {
  her = await participantWithWeeks();
}, 60_000);

describe('GET /api/sleep/export: refusals', () => {
  it.each([
    [{ endDate: '2025-03-10', format: 'xlsx' }, 'Start Date is required.'],
    [{ startDate: '', endDate: '2025-03-10', format: 'xlsx' }, 'Start Date is required.'],
    [{ startDate: '2025-03-01', format: 'pdf' }, 'End Date is required.'],
    [{ startDate: '2025-02-30', endDate: '2025-03-10', format: 'xlsx' }, 'Start Date must be a real date, like 2025-03-01.'],
    [{ startDate: '2025-03-01', endDate: 'tomorrow', format: 'xlsx' }, 'End Date must be a real date, like 2025-03-31.'],
    [{ startDate: '2025-03-10', endDate: '2025-03-09', format: 'xlsx' }, 'End Date must be on or after Start Date.'],
    [
      { startDate: '2025-01-01', endDate: '2026-01-02', format: 'pdf' },
      'The range can be at most 366 days. Please choose a shorter range.',
    ],
    [{ startDate: '2025-03-01', endDate: '2025-03-10', format: 'csv' }, 'Format must be xlsx or pdf.'],
    [{ startDate: '2025-03-01', endDate: '2025-03-10' }, 'Format must be xlsx or pdf.'],
  ])('%j: 400 "%s"', async (query, message) => {
    const response = await get(exportUrl(query), her.headers);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation', message });
  });

  it('takes a range of exactly 366 days', async () => {
    const response = await get(exportUrl({ startDate: addDays(her.end, -365), endDate: her.end, format: 'xlsx' }), her.headers);
    expect(response.statusCode).toBe(200);
  });

  it('answers 404 with a sentence for a range without a night, never an empty file', async () => {
    const before = addDays(her.start, -20);
    const response = await get(exportUrl({ startDate: before, endDate: addDays(her.start, -1), format: 'pdf' }), her.headers);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: 'not_found',
      message: noNightsInRangeMessage(before, addDays(her.start, -1)),
    });
  });

  it('shows nobody else her nights: another participant gets 404 for the same range', async () => {
    const { access } = await register(env.identity, { timezone: 'Europe/London' });
    const response = await get(exportUrl({ startDate: her.start, endDate: her.end, format: 'xlsx' }), {
      authorization: `Bearer ${access}`,
    });
    expect(response.statusCode).toBe(404);
  });

  it('needs her to be signed in', async () => {
    const response = await get(exportUrl({ startDate: her.start, endDate: her.end, format: 'xlsx' }), {});
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/sleep/export?format=xlsx', () => {
  it('is a workbook of her nights, summary and charts, named with her dates', async () => {
    const response = await get(exportUrl({ startDate: her.start, endDate: her.end, format: 'xlsx' }), her.headers);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="sleepweave-sleep-${her.start}-to-${her.end}.xlsx"`);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Nights', 'Summary', 'Charts']);

    // Nights: a header and one row per night, typed.
    const nights = workbook.getWorksheet('Nights')!;
    expect(nights.rowCount).toBe(1 + her.dates.length);
    const header = (nights.getRow(1).values as unknown[]).slice(1);
    for (const spec of SLEEP_LOG_FIELD_LIST) expect(header.some((h) => String(h).startsWith(spec.label))).toBe(true);
    const column = (name: string) => header.indexOf(name) + 1;
    const first = nights.getRow(2);
    expect(first.getCell(column('Date')).value).toEqual(new Date(`${her.start}T00:00:00Z`));
    expect(first.getCell(column('Date')).numFmt).toBe('yyyy-mm-dd');
    expect(first.getCell(column('Study day')).value).toBe(1);
    expect(first.getCell(column('Phase')).value).toBe('Polyester');
    expect(first.getCell(column('Sleep score')).value).toBe(nightOf(1).sleepScore);
    expect(first.getCell(column('Total sleep (min)')).value).toBe(nightOf(1).totalSleepMinutes);
    // a duration: minutes / 1440 of a day, which exceljs reads back as a time of Excel's day 0
    const asTime = first.getCell(column('Total sleep (h:mm)')).value as Date;
    expect(asTime.getTime() - Date.UTC(1899, 11, 30)).toBe(nightOf(1).totalSleepMinutes! * 60_000);
    expect(first.getCell(column('Total sleep (h:mm)')).numFmt).toBe('[h]:mm');
    expect(first.getCell(column('Average HRV (ms)')).value).toBe(nightOf(1).avgHrv);
    expect(first.getCell(column('Dream recall')).value).toBe(false);
    expect(first.getCell(column('Sleepwear material')).value).toBe('100% Polyester');
    const commented = nights.getRow(her.dates.indexOf(addDays(her.start, 2)) + 2);
    expect(commented.getCell(column('Comments')).value).toBe(COMMENT);
    expect(nights.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(nights.autoFilter).toBeTruthy();
    expect(nights.getColumn(column('Comments')).width).toBe(60);

    // Summary: every metric for each phase and all nights.
    const summary = workbook.getWorksheet('Summary')!;
    const rows = summary.getSheetValues().slice(2) as unknown[][];
    const scoreOf = (phase: string) => rows.find((r) => r?.[1] === phase && r?.[5] === 'Sleep score');
    const polyesterDays = Array.from({ length: 14 }, (_, i) => i + 1).filter((d) => !MISSED.has(d));
    const scores = polyesterDays.map((d) => nightOf(d).sleepScore!);
    expect(scoreOf('Polyester')).toBeDefined();
    expect(scoreOf('Polyester')![4]).toBe(polyesterDays.length);
    expect(scoreOf('Polyester')![8]).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 10);
    expect(scoreOf('Polyester')![9]).toBe(Math.min(...scores));
    expect(scoreOf('Polyester')![10]).toBe(Math.max(...scores));
    expect(scoreOf('All nights')![4]).toBe(her.dates.length);
    for (const phase of ['Washout (cotton)', 'Linen', 'After the study']) expect(scoreOf(phase)).toBeDefined();
    expect(rows.some((r) => r?.[1] === 'Polyester vs linen, side by side')).toBe(true);
    // the side-by-side counts are numbers, shown as numbers (under the phase table's date columns they showed as dates)
    const sideBySide = summary
      .getSheetValues()
      .findIndex(
        (r) => (r as unknown[] | undefined)?.[1] === 'Polyester nights' || (r as unknown[] | undefined)?.[3] === 'Polyester nights',
      );
    const scoreRow = summary.getRow(sideBySide + 1);
    expect(scoreRow.getCell(1).value).toBe('Sleep score');
    expect(scoreRow.getCell(3).value).toBe(polyesterDays.length);
    expect(scoreRow.getCell(3).numFmt).toBe('0');
    expect(scoreRow.getCell(5).numFmt).toBe('0');

    // Charts: five PNG images and her study's phases.
    const charts = workbook.getWorksheet('Charts')!;
    const images = charts.getImages();
    expect(images).toHaveLength(5);
    for (const image of images) {
      const medium = workbook.getImage(Number(image.imageId));
      expect(medium.extension).toBe('png');
      expect(
        Buffer.from(medium.buffer as unknown as Uint8Array)
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    }
    const text = (charts.getSheetValues() as unknown[][]).flat().map(String).join(' | ');
    expect(text).toContain(`Sleep data of ${FIRST_NAME} ${LAST_NAME}`);
    expect(text).toContain('100% Polyester');
    expect(text).toContain('100% Linen');
  });

  it('holds exactly the nights of a short range (the charts page: her last 7 entries)', async () => {
    const last7 = her.dates.slice(-7);
    const response = await get(exportUrl({ startDate: last7[0]!, endDate: last7.at(-1)!, format: 'xlsx' }), her.headers);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ExcelJS.Buffer);
    const dates = workbook
      .getWorksheet('Nights')!
      .getColumn(1)
      .values.slice(2)
      .map((d) => (d as Date).toISOString().slice(0, 10));
    expect(dates).toEqual(last7);
  });
});

describe('GET /api/sleep/export?format=pdf', () => {
  it('is a report that names her, her phases, the numbers and every night, in an embedded font', async () => {
    const response = await get(exportUrl({ startDate: her.start, endDate: her.end, format: 'pdf' }), her.headers);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="sleepweave-sleep-${her.start}-to-${her.end}.pdf"`);
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    const info = await pdfInfo(pdf);
    expect(Number(info.Pages)).toBeGreaterThanOrEqual(4);
    expect(info.Title).toContain(`${FIRST_NAME} ${LAST_NAME}`);
    const fonts = await pdfFonts(pdf);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.every((f) => f.embedded && f.name.includes('DejaVuSans'))).toBe(true);

    const text = await pdfText(pdf);
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(`${FIRST_NAME} ${LAST_NAME}`);
    expect(flat).toContain('Sleep report');
    expect(flat).toContain('Her study');
    // each phase named, then its nights ("Washout (cotton) (nights 15-28)" ran two brackets together)
    for (const phase of ['Polyester, nights', 'Washout (cotton), nights', 'Linen, nights', 'After the study, from'])
      expect(flat).toContain(phase);
    expect(flat).not.toContain(') (nights');
    for (const heading of [
      'At a glance',
      'Her nights on charts',
      'Phase by phase',
      'Polyester and linen, side by side',
      'Night by night',
    ]) {
      expect(flat).toContain(heading);
    }
    // The headline mean sleep score over every night.
    const scores = her.dates.map((_, i) => i).map((i) => nightOf(dayOf(her.dates[i]!)).sleepScore!);
    const mean = (scores.reduce((a, b) => a + b, 0) / scores.length).toFixed(1);
    expect(flat).toMatch(new RegExp(`At a glance Sleep score \\(mean\\) .*? ${mean.replace('.', '\\.')} `));
    // Phase by phase: each range's ends whole (a duration broke inside, "6h" on one line, "46m" on the next)
    const phases = flat.slice(flat.indexOf('Phase by phase'), flat.indexOf('Polyester and linen, side by side'));
    const polyester = her.dates.map(dayOf).filter((day) => day <= 14);
    for (const key of ['totalSleepMinutes', 'remMinutes', 'deepMinutes'] as const) {
      const values = polyester.map((day) => nightOf(day)[key]!);
      for (const end of [Math.min(...values), Math.max(...values)]) expect(phases).toContain(formatDuration(end));
    }
    // Her comments, as she typed them, on every night that has them.
    const commentCount = her.dates.filter((d) => nightOf(dayOf(d)).comments).length;
    expect(flat.split(COMMENT).length - 1).toBe(commentCount);
    // Every night's row, and page numbers.
    for (const date of her.dates) expect(text).toContain(date.slice(0, 4));
    expect(text.match(/Page \d+/g)!.length).toBe(Number(info.Pages));
    expect(flat).toContain('Descriptive only');

    // The pages as pictures, to be looked at.
    const pages = await pdfPagesToPng(pdf, PAGES_DIR, 'weeks', 70);
    expect(pages).toHaveLength(Number(info.Pages));
  });

  it('is a short report for one night', async () => {
    const date = her.dates[3]!;
    const response = await get(exportUrl({ startDate: date, endDate: date, format: 'pdf' }), her.headers);
    expect(response.statusCode).toBe(200);
    const flat = (await pdfText(response.rawPayload)).replace(/\s+/g, ' ');
    expect(flat).toContain('1 night logged');
    expect(flat).toContain('This range has no polyester nights or no linen nights');
    await pdfPagesToPng(response.rawPayload, PAGES_DIR, 'one-night', 50);
  });
});

function dayOf(date: string): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${her.start}T00:00:00Z`)) / 86_400_000) + 1;
}
