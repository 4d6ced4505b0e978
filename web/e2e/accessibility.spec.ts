import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { daytimeZone, signUp } from './support/app.ts';

/**
 * axe on every screen a participant sees, at a desktop and a phone width, before and
 * after she joins the study: no serious or critical violation (every rule axe runs, not
 * only WCAG's; the lesser impacts are printed, not failed).
 */
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
] as const;

interface Screen {
  path: string;
  /** What shows once the screen has loaded. */
  ready: (page: Page) => Promise<void>;
}

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
};

/** Settled: no 'Loading...' left, and the charts drawn when there are any. */
async function settled(page: Page, screen: Screen) {
  await screen.ready(page);
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
}

async function expectNoSeriousViolations(page: Page, label: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of violations.filter((x) => !serious.includes(x))) {
    console.log(`${label}: ${v.impact} ${v.id} (${v.nodes.length})`);
  }
  expect(
    serious.map((v) => ({ rule: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })),
    `${label}: serious or critical axe violations`,
  ).toEqual([]);
}

async function scan(page: Page, screens: Screen[]) {
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const screen of screens) {
      await page.goto(screen.path);
      await settled(page, screen);
      await expectNoSeriousViolations(page, `${screen.path} at ${size.name}`);
    }
  }
}

test('every participant screen passes axe at desktop and phone widths, before and after joining the study', async ({ page }) => {
  test.setTimeout(240_000);
  // where it is day: her first night is then among her charts' last 7 days (daytimeZone says why)
  await signUp(page, { firstName: 'Astrid', lastName: 'Lind', dateOfBirth: '1968-07-21', timezone: daytimeZone() });

  // Before she joins: the empty states.
  await scan(page, [
    { path: '/dashboard', ready: heading(/^Good (morning|afternoon|evening)/) },
    { path: '/sleep/consent', ready: heading('Sleep Study Consent') },
    { path: '/sleep/dashboard', ready: async (p) => expect(p.getByRole('heading', { name: 'No Sleep Data Yet' })).toBeVisible() },
    {
      path: '/sleep/weekly-report',
      ready: async (p) => expect(p.getByRole('heading', { name: 'No Sleep Data Available' })).toBeVisible(),
    },
    { path: '/journal', ready: async (p) => expect(p.getByText('No journal entries yet. Start your first entry above!')).toBeVisible() },
  ]);

  // She joins and logs her first night; writes in her journal.
  await page.goto('/sleep/consent');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Accept & Continue to Sleep Study' }).click();
  await expect(page).toHaveURL(/\/sleep\/log$/);
  await page.getByLabel('Sleep score').fill('81');
  await page.getByLabel('Deep sleep').fill('1h5m');
  await page.getByLabel('REM sleep').fill('1h30m');
  await page.getByLabel('Resting heart rate (bpm)').fill('55');
  await page.getByLabel('Average HRV (ms)').fill('42');
  await page.getByRole('button', { name: 'Save Sleep Log' }).click();
  await expect(page.getByRole('button', { name: 'Update Sleep Log' })).toBeVisible();
  await page.goto('/journal');
  await page.getByLabel("Today's Affirmation").fill('I am allowed to rest.');
  await page.getByRole('button', { name: 'Save Entry' }).click();
  await expect(page.getByRole('article')).toHaveCount(1);

  await page.goto('/library');
  await page.locator('article a').first().click();
  await expect(page).toHaveURL(/\/library\/article\//);
  const article = new URL(page.url()).pathname;

  const charts = (p: Page) => expect(p.locator('.recharts-line')).toHaveCount(5);
  await scan(page, [
    { path: '/dashboard', ready: async (p) => expect(p.getByRole('heading', { name: 'Your sleep study' })).toBeVisible() },
    { path: '/sleep/log', ready: async (p) => expect(p.getByRole('button', { name: 'Update Sleep Log' })).toBeVisible() },
    { path: '/sleep/dashboard', ready: async (p) => expect(p.getByRole('heading', { name: 'Recent Sleep Logs' })).toBeVisible() },
    { path: '/sleep/charts', ready: charts },
    { path: '/sleep/charts?view=study', ready: charts },
    { path: '/sleep/weekly-report', ready: charts },
    { path: '/sleep/export', ready: heading(/Export/) },
    { path: '/journal', ready: async (p) => expect(p.getByRole('article')).toHaveCount(1) },
    { path: '/community', ready: async (p) => expect(p.getByRole('link', { name: /Welcome to the Sleepweave Community/ })).toBeVisible() },
    {
      path: '/community/thread/c0ffee00-5eed-4a11-9e1c-000000000001',
      ready: async (p) => expect(p.getByText('Sleepweave study team').first()).toBeVisible(),
    },
    { path: '/library', ready: heading('Knowledge Library') },
    { path: article, ready: async (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() },
    { path: '/calculator', ready: async (p) => expect(p.getByText('Choose a fabric').first()).toBeVisible() },
    { path: '/settings', ready: heading('Settings') },
  ]);
});

test('fits a 320 px screen without sideways scrolling, and keeps a field she tabs to clear of the sticky nav bar', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signUp(page, { firstName: 'Nora', lastName: 'Quist', dateOfBirth: '1969-02-11', timezone: daytimeZone() });
  await page.goto('/sleep/consent');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Accept & Continue to Sleep Study' }).click();
  await expect(page).toHaveURL(/\/sleep\/log$/);
  await page.getByLabel('Sleep score').fill('77');
  await page.getByRole('button', { name: 'Save Sleep Log' }).click();
  await expect(page.getByRole('button', { name: 'Update Sleep Log' })).toBeVisible();

  // WCAG 1.4.10: the nav bar (brand and Menu) and the sleep dashboard's links wrap
  await page.setViewportSize({ width: 320, height: 640 });
  for (const [path, ready] of [
    ['/dashboard', async (p: Page) => expect(p.getByRole('heading', { name: 'Your sleep study' })).toBeVisible()],
    ['/sleep/dashboard', async (p: Page) => expect(p.getByRole('heading', { name: 'Recent Sleep Logs' })).toBeVisible()],
    ['/sleep/log', async (p: Page) => expect(p.getByRole('button', { name: 'Update Sleep Log' })).toBeVisible()],
    ['/journal', heading('Daily Journal')],
  ] as const) {
    await page.goto(path);
    await ready(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(320);
  }

  // WCAG 2.4.3: a dialog's buttons, stacked on a phone, are tabbed through from the top down
  // (stacked in reverse, Tab went down to Cancel and back up to the main action)
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Delete Account' }).click();
  await page.getByRole('dialog').getByLabel('Password').focus();
  const tops: number[] = [];
  for (const name of ['Cancel', 'Delete My Account']) {
    await page.keyboard.press('Tab');
    await expect(page.getByRole('dialog').getByRole('button', { name })).toBeFocused();
    tops.push(await page.evaluate(() => document.activeElement!.getBoundingClientRect().top));
  }
  expect(tops[1]).toBeGreaterThan(tops[0]!);
  await page.keyboard.press('Escape');

  // WCAG 1.4.4: her text at 200% on a 390 px phone (nine screens scrolled sideways, by up to
  // 204 px: a grid item as wide as its longest word, a zone's name in a button, the brand)
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, ready] of [
    ['/dashboard', async (p: Page) => expect(p.getByRole('heading', { name: 'Your sleep study' })).toBeVisible()],
    ['/sleep/dashboard', async (p: Page) => expect(p.getByRole('heading', { name: 'Recent Sleep Logs' })).toBeVisible()],
    ['/sleep/log', async (p: Page) => expect(p.getByRole('button', { name: 'Update Sleep Log' })).toBeVisible()],
    ['/sleep/export', heading(/Export/)],
    ['/journal', heading('Daily Journal')],
    ['/library', async (p: Page) => expect(p.getByRole('article').first()).toBeVisible()],
    ['/calculator', async (p: Page) => expect(p.getByText('Choose a fabric').first()).toBeVisible()],
    ['/settings', async (p: Page) => expect(p.getByLabel('Timezone')).toBeVisible()],
  ] as const) {
    await page.goto(path);
    await ready(page);
    await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} at 200%`).toBeLessThanOrEqual(390);
  }

  // WCAG 2.4.11: Shift+Tab up the sleep log, each field in view below what sticks at the top
  // (the nav bar; offline, the notice under it too)
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/sleep/log');
  for (const offline of [false, true]) {
    await context.setOffline(offline);
    if (offline) await expect(page.getByRole('status').filter({ hasText: 'You are offline.' })).toBeVisible();
    await page.getByRole('button', { name: 'Update Sleep Log' }).focus();
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Shift+Tab');
      const { top, stickyBottom } = await page.evaluate(() => ({
        top: document.activeElement!.getBoundingClientRect().top,
        stickyBottom: document.querySelector('header')!.parentElement!.getBoundingClientRect().bottom,
      }));
      expect(top, offline ? 'offline' : 'online').toBeGreaterThanOrEqual(stickyBottom);
    }
  }
  await context.setOffline(false);

  // a date field's calendar button (its own tab stop in Chromium) shows the app's ring on the field
  await page.goto('/sleep/export');
  await page.getByLabel('Start Date').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('Tab'); // month, day, year, then the button
  const ring = await page.evaluate(() => {
    const field = document.activeElement!;
    return { id: field.id, focusVisible: field.matches(':focus-visible'), outline: getComputedStyle(field).outlineStyle };
  });
  expect(ring).toEqual({ id: 'export-start', focusVisible: false, outline: 'solid' });
});
