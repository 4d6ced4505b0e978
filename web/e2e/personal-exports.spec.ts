import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test, type Download, type Page } from '@playwright/test';
import { noNightsInRangeMessage } from '@sleepweave/contracts';
import ExcelJS from 'exceljs';
import { toasts } from './support/app';
import { consentedDaysAgo } from './support/study-history';

const run = promisify(execFile);
const name = process.env.E2E_NAME ?? 'e2e';
/** Screenshots and the PDFs' pages, to be looked at (test-results/ is not committed). */
const SHOTS = fileURLToPath(new URL(`../../test-results/${name}-personal-exports/`, import.meta.url));

const FIRST = 'Zoë';
const LAST = 'Łukasiewicz-Ольга';
const DAYS = 40;
const MISSED = new Set([6, 19, 31]);
const COMMENT = 'Warm at 3 am — woke twice, ½ duvet; “better” in linen ✓';

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const londonToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());

/** She joined DAYS - 1 days ago and logged every night since but three, through the API. */
async function participantWithWeeks(page: Page) {
  const email = `exports-${randomUUID()}@example.com`;
  const password = 'gentle-nights-42';
  const registered = await page.request.post('/api/register', {
    data: {
      email,
      password,
      confirmPassword: password,
      firstName: FIRST,
      lastName: LAST,
      dateOfBirth: '1968-05-04',
      timezone: 'Europe/London',
      hormonalStage: 'Menopause',
    },
  });
  expect(registered.status()).toBe(201);
  const { id: userId } = (await (await page.request.get('/api/user')).json()) as { id: string };
  await consentedDaysAgo(userId, DAYS - 1);
  const { studyStartDate: start } = (await (await page.request.get('/api/sleep/consent')).json()) as { studyStartDate: string };
  const dates: string[] = [];
  for (let day = 1; day <= DAYS; day++) {
    if (MISSED.has(day) || addDays(start, day - 1) > londonToday()) continue;
    const phase = day <= 14 ? 0 : day <= 28 ? 1 : 2;
    const date = addDays(start, day - 1);
    const log = () =>
      page.request.post('/api/sleep/log', {
        data: {
          date,
          sleepwearMaterial: ['100% Polyester', '100% Cotton', '100% Linen'][phase],
          sleepScore: 70 + phase * 5 + (day % 5),
          totalSleepMinutes: 400 + phase * 12 + (day % 7),
          deepMinutes: 60 + phase * 6 + (day % 4),
          remMinutes: 90 + phase * 5 + (day % 3),
          restingHr: 60 - phase - (day % 2),
          avgHrv: 35 + phase * 4 + (day % 3) / 2,
          sleepQuality110: 6 + phase,
          comments: day % 9 === 2 ? COMMENT : undefined,
        },
      });
    // (the first waits for her registration to reach the study: 503 until it has)
    const logged = async () => {
      const response = await log();
      return `${response.status()} ${response.status() === 201 ? '' : await response.text()}`.trim();
    };
    if (dates.length === 0) await expect.poll(logged, { timeout: 15_000 }).toBe('201');
    else expect(await logged(), `night ${day}`).toBe('201');
    dates.push(date);
  }
  return { start, dates };
}

async function saved(download: Download, file: string): Promise<Buffer> {
  await mkdir(SHOTS, { recursive: true });
  const path = join(SHOTS, file);
  await download.saveAs(path);
  return readFile(path);
}

async function workbook(bytes: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  return book;
}

async function pdfText(path: string): Promise<string> {
  const { stdout } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', path, '-']);
  return stdout.replace(/\s+/g, ' ');
}

test('her sleep as Excel and PDF from /sleep/export and from the charts page, her journal as PDF and Markdown', async ({ page }) => {
  test.setTimeout(180_000);
  const { start, dates } = await participantWithWeeks(page);
  const end = dates.at(-1)!;

  // From the dashboard to the export screen.
  await page.goto('/sleep/dashboard');
  await page.getByRole('region', { name: 'Export Sleep Data' }).getByRole('link', { name: 'Export Sleep Data' }).click();
  await expect(page).toHaveURL(/\/sleep\/export$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Export Sleep Data' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Export sleep data' });
  const exportButton = form.getByRole('button', { name: 'Export', exact: true });
  await expect(exportButton).toBeDisabled();
  await expect(form.getByRole('radio', { name: 'Excel (.xlsx) - Detailed data with charts' })).toBeChecked();
  await expect(page.getByRole('region', { name: 'Export Contents' })).toBeVisible();
  await mkdir(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: join(SHOTS, 'export-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(SHOTS, 'export-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // A range without a night: said in the screen, no file.
  await form.getByLabel('Start Date').fill(addDays(start, -30));
  await form.getByLabel('End Date').fill(addDays(start, -20));
  await exportButton.click();
  await expect(form.getByRole('alert')).toHaveText(noNightsInRangeMessage(addDays(start, -30), addDays(start, -20)));

  // Her whole study as a workbook.
  await form.getByRole('button', { name: 'Use all my nights' }).click();
  await expect(form.getByLabel('Start Date')).toHaveValue(start);
  let downloading = page.waitForEvent('download');
  await exportButton.click();
  let download = await downloading;
  expect(download.suggestedFilename()).toBe(`sleepweave-sleep-${start}-to-${end}.xlsx`);
  const book = await workbook(await saved(download, 'study.xlsx'));
  expect(book.worksheets.map((s) => s.name)).toEqual(['Nights', 'Summary', 'Charts']);
  expect(book.getWorksheet('Nights')!.rowCount).toBe(dates.length + 1);
  expect(book.getWorksheet('Nights')!.getCell('A2').value).toEqual(new Date(`${start}T00:00:00Z`));
  expect(book.getWorksheet('Charts')!.getImages()).toHaveLength(5);
  await expect(form.getByText(`Downloaded sleepweave-sleep-${start}-to-${end}.xlsx`)).toBeVisible();

  // ... and as a PDF report.
  await form.getByRole('radio', { name: 'PDF Report - Professional summary' }).check();
  downloading = page.waitForEvent('download');
  await exportButton.click();
  download = await downloading;
  expect(download.suggestedFilename()).toBe(`sleepweave-sleep-${start}-to-${end}.pdf`);
  await saved(download, 'study.pdf');
  const report = await pdfText(join(SHOTS, 'study.pdf'));
  expect(report).toContain(`${FIRST} ${LAST}`);
  expect(report).toContain(`${dates.length} nights logged`);
  expect(report).toContain(COMMENT);
  for (const heading of [
    'Her study',
    'At a glance',
    'Her nights on charts',
    'Phase by phase',
    'Polyester and linen, side by side',
    'Night by night',
  ]) {
    expect(report).toContain(heading);
  }
  await run('pdftoppm', ['-png', '-r', '60', join(SHOTS, 'study.pdf'), join(SHOTS, 'study-page')]);

  // The charts page: the same files for the dates its charts show (her last 7 entries).
  await page.goto('/sleep/charts');
  const charts = page.getByRole('region', { name: 'Take these charts with you' });
  await expect(charts).toBeVisible();
  const last7 = dates.slice(-7);
  downloading = page.waitForEvent('download');
  await charts.getByRole('button', { name: 'Export to Excel' }).click();
  download = await downloading;
  expect(download.suggestedFilename()).toBe(`sleepweave-sleep-${last7[0]}-to-${last7.at(-1)}.xlsx`);
  const recent = await workbook(await saved(download, 'charts.xlsx'));
  const nightDates = recent
    .getWorksheet('Nights')!
    .getColumn(1)
    .values.slice(2)
    .map((d) => (d as Date).toISOString().slice(0, 10));
  expect(nightDates).toEqual(last7);
  downloading = page.waitForEvent('download');
  await charts.getByRole('button', { name: 'Generate PDF Report' }).click();
  download = await downloading;
  expect(download.suggestedFilename()).toBe(`sleepweave-sleep-${last7[0]}-to-${last7.at(-1)}.pdf`);
  await saved(download, 'charts.pdf');
  expect(await pdfText(join(SHOTS, 'charts.pdf'))).toContain('7 nights logged');
  await page.screenshot({ path: join(SHOTS, 'charts-1280.png') });

  // Her journal, to take with her.
  await page.goto('/journal');
  await page.getByLabel("Today's Affirmation").fill('Ich darf ruhen — I am allowed to rest.');
  await page.getByLabel('Gratitude').fill('A *cool* night, at last 🌙✨');
  await page.getByLabel('Forgiveness').fill('眠れなかった夜の自分を許す。');
  await page.getByRole('button', { name: 'Save Entry' }).click();
  await expect(toasts(page).getByText('Journal Entry Saved')).toBeVisible();
  const journal = page.getByRole('region', { name: 'Take your journal with you' });
  downloading = page.waitForEvent('download');
  await journal.getByRole('button', { name: 'Export as Markdown' }).click();
  download = await downloading;
  expect(download.suggestedFilename()).toBe(`sleepweave-journal-${londonToday()}.md`);
  const markdown = (await saved(download, 'journal.md')).toString('utf8');
  expect(markdown).toContain(`# ${FIRST} ${LAST}: my Sleepweave journal`);
  expect(markdown).toContain('Ich darf ruhen — I am allowed to rest.');
  expect(markdown).toContain('A \\*cool\\* night, at last 🌙✨');
  expect(markdown).toContain('眠れなかった夜の自分を許す。');
  downloading = page.waitForEvent('download');
  await journal.getByRole('button', { name: 'Export as PDF' }).click();
  download = await downloading;
  expect(download.suggestedFilename()).toBe(`sleepweave-journal-${londonToday()}.pdf`);
  await saved(download, 'journal.pdf');
  // her emoji and her Japanese set in fonts that have them (an empty box would read as nothing)
  const journalText = await pdfText(join(SHOTS, 'journal.pdf'));
  expect(journalText).toContain('A *cool* night, at last 🌙✨');
  expect(journalText).toContain('眠れなかった夜の自分を許す。');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(SHOTS, 'journal-390.png') });
});
