import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type Browser, type Download, type Page } from '@playwright/test';
import { csvRows, readZip } from '../../services/research-export/src/test/zip.ts';
import { grantAdmin } from './support/admin';
import { toasts } from './support/app';

const PASSWORD = 'gentle-nights-42';

/** A browser of her own, signed in by registering in it through the gateway. */
async function newUser(browser: Browser, firstName: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  const email = `${firstName.toLowerCase()}.${randomUUID().slice(0, 8)}@example.com`;
  const registered = await page.request.post('/api/register', {
    data: {
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      firstName,
      lastName: 'Research',
      dateOfBirth: '1971-06-09',
      timezone: 'Europe/London',
      hormonalStage: 'Menopause',
    },
  });
  expect(registered.status()).toBe(201);
  return { email, page };
}

async function downloadZip(page: Page, click: () => Promise<void>) {
  const [file] = (await Promise.all([page.waitForEvent('download'), click()])) as [Download, void];
  return { fileName: file.suggestedFilename(), files: await readZip(await readFile((await file.path())!)) };
}

test('research export: her own zip from the dashboard, and an admin runs the research export now and downloads it', async ({ browser }) => {
  // A participant who consented and logged last night
  const rosa = await newUser(browser, 'Rosa');
  await expect
    .poll(async () => (await rosa.page.request.post('/api/sleep/consent', { data: {} })).status(), { timeout: 10_000 })
    .toBeLessThan(300);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  const logged = await rosa.page.request.post('/api/sleep/log', {
    data: { date: today, sleepwearMaterial: '100% Polyester', sleepQuality110: 7, fabricComfort: 'Comfortable', sleepScore: 78 },
  });
  expect(logged.status()).toBe(201);
  // the research service learns of her night from the study service's events
  await expect.poll(async () => (await rosa.page.request.get('/api/research/export')).status(), { timeout: 20_000 }).toBe(200);

  // Her own export, from the sleep dashboard's Research Export card
  await rosa.page.goto('/sleep/dashboard');
  const own = await downloadZip(rosa.page, () => rosa.page.getByRole('button', { name: 'Download Research Export' }).click());
  await expect(toasts(rosa.page).getByText('Export Complete')).toBeVisible();
  expect(own.fileName).toMatch(/\.zip$/);
  const [her] = csvRows(own.files.get('participants.csv'));
  expect(her!.research_id).toMatch(/^SW-/);
  const nights = csvRows(own.files.get('nights.csv'));
  expect(nights).toHaveLength(1);
  expect(nights[0]).toMatchObject({ research_id: her!.research_id, date: today, sleep_score: '78', phase: 'polyester' });
  expect([...own.files.keys()]).toEqual(expect.arrayContaining(['my_comparison.csv', 'phase_summary.csv', 'codebook.csv', 'README.md']));
  const everything = [...own.files.values()].map((file) => file.toString('latin1')).join('\n');
  expect(everything).not.toContain(rosa.email);
  expect(everything).not.toContain('1971-06-09');

  // A participant is refused the admin screen
  await rosa.page.goto('/admin/research');
  await expect(rosa.page.getByRole('button', { name: 'Run now' })).toHaveCount(0);

  // An admin starts a run and follows it to the end
  const ada = await newUser(browser, 'Ada');
  grantAdmin(ada.email);
  const admin = ada.page;
  await admin.goto('/admin/research');
  await admin.getByRole('button', { name: 'Run now' }).click();
  await expect(admin.getByRole('status').filter({ hasText: 'The research run finished.' })).toBeVisible({ timeout: 60_000 });
  await expect(admin.getByRole('heading', { name: 'Latest results' })).toBeVisible();
  await expect(admin.getByRole('heading', { name: 'Quality checks' })).toBeVisible();

  // The zip of the latest run: every file, and Rosa in it under her research id only
  const latest = await downloadZip(admin, () => admin.getByRole('button', { name: 'Download latest' }).click());
  expect(latest.fileName).toMatch(/^sleepweave-research-\d{4}-\d{2}-\d{2}-\d{6}\.zip$/);
  expect([...latest.files.keys()].sort()).toEqual(
    [
      'README.md',
      'analysis.R',
      'codebook.csv',
      'comparisons.csv',
      'nights.csv',
      'participants.csv',
      'phase_summary.csv',
      'qa_report.csv',
      'qa_report.md',
      'report.pdf',
    ].sort(),
  );
  expect(csvRows(latest.files.get('participants.csv')).map((row) => row.research_id)).toContain(her!.research_id);
  expect(latest.files.get('report.pdf')!.subarray(0, 5).toString()).toBe('%PDF-');
  expect([...latest.files.values()].map((file) => file.toString('latin1')).join('\n')).not.toContain(rosa.email);

  // On a phone the runs are cards: each run's status and download in view, nothing sideways
  await admin.setViewportSize({ width: 390, height: 844 });
  const runs = admin.getByRole('list', { name: 'Research runs, newest first' });
  const first = runs.getByRole('listitem').first();
  await first.scrollIntoViewIfNeeded();
  await expect(first.getByText('Finished')).toBeInViewport();
  await expect(first.getByRole('button', { name: /^Download / })).toBeInViewport();
  expect(await admin.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
});
