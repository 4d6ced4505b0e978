import { expect, test, type Page } from '@playwright/test';
import { choose, dateIn, signUp, toasts } from './support/app.ts';

/** Calendar dates in New York (sign-up's default timezone). */
const dateInNewYork = (instant: Date) => dateIn('America/New_York', instant);
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Signs up, joins the study today (day 1); the study's first date, and how she signs in. */
async function joinStudyAs(page: Page): Promise<{ start: string; email: string; password: string }> {
  const credentials = await signUp(page, { firstName: 'Lena', lastName: 'Marsh', dateOfBirth: '1969-10-03' });
  await page.goto('/sleep/consent');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Accept & Continue to Sleep Study' }).click();
  await expect(page).toHaveURL(/\/sleep\/log$/);
  return { start: dateInNewYork(new Date()), ...credentials };
}

/** Signs up, joins the study today (day 1) and returns the study's first date. */
const joinStudy = async (page: Page): Promise<string> => (await joinStudyAs(page)).start;

test('a night being saved as her session ended is back in the form once she has signed in again', async ({ page }) => {
  const { start, email, password } = await joinStudyAs(page);
  await page.getByLabel('Sleep score').fill('81');
  await page.getByLabel('Comments').fill('Woke once, cool in linen');
  // her session ends while she fills the form in (it lasts 30 days; the study 42)
  await page.context().clearCookies();
  await page.getByRole('button', { name: 'Save Sleep Log' }).click();
  await expect(toasts(page).getByText('You are logged out. Logging in again...')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);

  const signIn = page.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByLabel('Password').fill(password);
  await signIn.getByRole('button', { name: 'Sign In' }).click();
  // back on the sleep log, where her night waits
  await expect(page).toHaveURL(/\/sleep\/log$/);
  await expect(page.getByLabel('Date')).toHaveValue(start);
  await expect(page.getByLabel('Sleep score')).toHaveValue('81');
  await expect(page.getByLabel('Comments')).toHaveValue('Woke once, cool in linen');
  await page.getByRole('button', { name: 'Save Sleep Log' }).click();
  await expect(toasts(page).getByText('Sleep Log Saved')).toBeVisible();
  const logs = (await (await page.request.get('/api/sleep/logs')).json()) as { date: string; sleepScore: number; comments: string }[];
  expect(logs).toEqual([expect.objectContaining({ date: start, sleepScore: 81, comments: 'Woke once, cool in linen' })]);

  // taken once: nothing of it is left in the tab
  expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('sleepweave:draft:')))).toEqual([]);
});

test('after Sleep Log Saved the night stays in the form in edit mode: pressing again updates it', async ({ page }) => {
  const start = await joinStudy(page);
  // The day she joined, no night of hers has ended: the form opens on her first night, tonight.
  await expect(page.getByLabel('Date')).toHaveValue(start);
  await expect(page.getByRole('heading', { level: 2, name: /^Night of / })).toBeVisible();

  await page.getByLabel('Sleep score').fill('77');
  await page.getByLabel('Total sleep').fill('7h10m');
  await page.getByRole('button', { name: 'Save Sleep Log' }).click();
  await expect(toasts(page).getByText('Sleep Log Saved')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Update Sleep Log' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Sleep Log' })).toHaveCount(0);
  await expect(page.getByLabel('Date')).toHaveValue(start);
  await expect(page.getByLabel('Sleep score')).toHaveValue('77');
  await expect(page.getByLabel('Total sleep')).toHaveValue('7h10m');

  await page.getByLabel('Sleep score').fill('79');
  await page.getByRole('button', { name: 'Update Sleep Log' }).click();
  await expect(toasts(page).getByText('Sleep Log Updated')).toBeVisible();
  await expect(toasts(page).getByText('Entry already exists')).toHaveCount(0);
  const logs = (await (await page.request.get('/api/sleep/logs')).json()) as { date: string; sleepScore: number }[];
  expect(logs).toEqual([expect.objectContaining({ date: start, sleepScore: 79 })]);
});

test("the material is the chosen night's recommended one until she picks another", async ({ page }) => {
  const start = await joinStudy(page);
  // Three weeks on, in her browser: 08:00-09:00 in New York on day 21 (the server still says day 1,
  // which only matters for saving; here she only looks nights up).
  await page.clock.setFixedTime(new Date(`${addDays(start, 20)}T13:00:00Z`));
  await page.goto('/sleep/log');
  // By default the night that just ended: night 20, yesterday evening to this morning.
  await expect(page.getByLabel('Date')).toHaveValue(addDays(start, 19));
  await expect(page.getByText('Last night', { exact: true })).toBeVisible();
  await expect(page.getByText('Washout - Day 6 of 14')).toBeVisible();

  const material = page.getByLabel('Sleepwear material', { exact: true });
  const mismatch = page.getByText(/This doesn't match the phase of this night/);
  await page.getByLabel('Date').fill(addDays(start, 1)); // night 2: polyester
  await expect(page.getByText('Polyester - Day 2 of 14')).toBeVisible();
  await expect(material).toHaveText('100% Polyester');
  await page.getByLabel('Date').fill(addDays(start, 15)); // night 16: washout, not logged either
  await expect(page.getByText('Washout - Day 2 of 14')).toBeVisible();
  await expect(material).toHaveText('100% Cotton');
  await expect(mismatch).toHaveCount(0);

  // Her own choice stays when she changes the night, and is checked against it.
  await choose(page, 'Sleepwear material', '100% Linen');
  await page.getByLabel('Date').fill(addDays(start, 1));
  await expect(page.getByText('Polyester - Day 2 of 14')).toBeVisible();
  await expect(material).toHaveText('100% Linen');
  // a night gone by: she is asked to check what she wore, not told what to wear tonight
  await expect(mismatch).toHaveText(
    "This doesn't match the phase of this night, which was for 100% Polyester. Please check that this is what you wore.",
  );
});

test('her comment on the dashboard keeps its lines, and a long link in it does not widen the page on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const start = await joinStudy(page);
  const comment = `Hot flash 2am\nWoke at 4\nhttps://example.com/${'averylongaddresswithnoplacetobreakitat'.repeat(3)}`;
  expect((await page.request.post('/api/sleep/log', { data: { date: start, sleepScore: 70, comments: comment } })).status()).toBe(201);
  await page.goto('/sleep/dashboard');
  const shown = page.getByText('Hot flash 2am');
  await expect(shown).toBeVisible();
  // as she typed it: the browser's own rendering of her lines
  expect(await shown.innerText()).toBe(comment);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test('two tabs on one night: the later save is told the night changed, and saves her change over the other without undoing it', async ({
  page,
}) => {
  const start = await joinStudy(page);
  await page.getByLabel('Sleep score').fill('60');
  await page.getByRole('button', { name: 'Save Sleep Log' }).click();
  await expect(toasts(page).getByText('Sleep Log Saved')).toBeVisible();

  // a second tab of the same browser opens the same night
  const other = await page.context().newPage();
  await other.goto(`/sleep/log?date=${start}`);
  await expect(other.getByRole('button', { name: 'Update Sleep Log' })).toBeVisible();
  await expect(other.getByLabel('Sleep score')).toHaveValue('60');

  // the first tab saves a new score; the second, still showing 60, then saves a comment
  await page.getByLabel('Sleep score').fill('91');
  await page.getByRole('button', { name: 'Update Sleep Log' }).click();
  await expect(toasts(page).getByText('Sleep Log Updated')).toBeVisible();
  await other.getByLabel('Comments').fill('Woke at 4, too warm');
  await other.getByRole('button', { name: 'Update Sleep Log' }).click();
  await expect(toasts(other).getByText('This night was changed elsewhere')).toBeVisible();
  // nothing was written; the form shows the other save with her comment on top
  await expect(other.getByLabel('Sleep score')).toHaveValue('91');
  await expect(other.getByLabel('Comments')).toHaveValue('Woke at 4, too warm');
  const before = (await (await page.request.get(`/api/sleep/log/${start}`)).json()) as { sleepScore: number; comments: string | null };
  expect(before).toMatchObject({ sleepScore: 91, comments: null });

  await other.getByRole('button', { name: 'Update Sleep Log' }).click();
  await expect(toasts(other).getByText('Sleep Log Updated')).toBeVisible();
  const after = (await (await page.request.get(`/api/sleep/log/${start}`)).json()) as { sleepScore: number; comments: string | null };
  expect(after).toMatchObject({ sleepScore: 91, comments: 'Woke at 4, too warm' });
  await other.close();
});
