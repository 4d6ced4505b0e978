import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { grantAdmin } from './support/admin';
import { toasts } from './support/app';

const PASSWORD = 'gentle-nights-42';
/**
 * The admin list is research-export's projection of identity's and study's events: a user
 * registered a moment ago is there within a second, or, should NATS have dropped the
 * consumer's pull, once its missed heartbeats pull again (10-15 s; libs/bus).
 */
const PROJECTED = { timeout: 20_000 };
/** Names of this run only: the e2e database outlives a run. */
const tag = `E2e${randomUUID().slice(0, 8)}`;

async function register(request: APIRequestContext, firstName: string, lastName = tag) {
  const email = `${firstName.toLowerCase()}.${randomUUID().slice(0, 8)}@example.com`;
  const response = await request.post('/api/register', {
    data: {
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      firstName,
      lastName,
      dateOfBirth: '1969-11-02',
      timezone: 'Europe/London',
      hormonalStage: 'Perimenopause',
    },
  });
  expect(response.status()).toBe(201);
  return { email, fullName: `${firstName} ${lastName}` };
}

/** A browser of her own, signed in by registering in it. */
async function newUser(browser: Browser, firstName: string, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const user = await register(page.request, firstName);
  return { ...user, page, context };
}

/** Her study: consent, tonight's log, a journal entry (the real services, through the gateway). */
async function takePart(page: Page) {
  await expect
    .poll(async () => (await page.request.post('/api/sleep/consent', { data: {} })).status(), { timeout: 10_000 })
    .toBeLessThan(300);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  const logged = await page.request.post('/api/sleep/log', {
    data: { date: today, sleepwearMaterial: '100% Polyester', sleepQuality110: 8, fabricComfort: 'Comfortable', sleepScore: 81 },
  });
  expect(logged.status()).toBe(201);
  const wrote = await page.request.post('/api/journal/entry', {
    data: { affirmation: 'I rest.', gratitude: 'Linen.', forgiveness: 'Coffee.' },
  });
  expect(wrote.ok()).toBe(true);
}

async function download(page: Page, button: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  const bytes = await readFile((await file.path())!);
  return { fileName: file.suggestedFilename(), bytes, rows: parse(bytes, { bom: true, columns: true }) as Record<string, string>[] };
}

test('admin dashboard: tiles, search, detail, CSV exports, roles and the audit trail; a participant is refused and sees who read her data', async ({
  browser,
  playwright,
  baseURL,
}) => {
  const pia = await newUser(browser, 'Pia');
  await takePart(pia.page);
  const nora = await newUser(browser, 'Nora');
  const ada = await newUser(browser, 'Ada');
  grantAdmin(ada.email);
  const admin = ada.page;

  // The tiles, and the list searched on the server (her name is this run's own)
  await admin.goto('/admin');
  await expect(admin.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  const tiles = admin.getByRole('region', { name: 'Statistics' });
  for (const label of ['Total Users', 'Active Users', 'Sleep Logs', 'Journal Entries']) await expect(tiles.getByText(label)).toBeVisible();
  await expect(tiles.getByText('Logged a night or a journal entry in the last 7 days')).toBeVisible();
  await expect(admin.getByText('Select a user to view their details')).toBeVisible();
  await admin.getByLabel('Search by name or e-mail').fill(tag);
  const list = admin.getByRole('list', { name: 'Users' });
  await expect(list.getByRole('button')).toHaveCount(3, PROJECTED);
  const piaRow = list.getByRole('button').filter({ hasText: pia.fullName });
  await expect(piaRow).toContainText(pia.email);
  await expect(piaRow).toContainText('1 sleep log · 1 journal entry', PROJECTED);
  await expect(piaRow).toContainText('Polyester · day 1 of 14');
  await admin.getByLabel('Search by name or e-mail').fill(`nobody-${tag}`);
  await expect(admin.getByText('No users found')).toBeVisible();
  await admin.getByLabel('Search by name or e-mail').fill(pia.email);
  await expect(list.getByRole('button')).toHaveCount(1);

  // Her detail
  await list.getByRole('button').click();
  const panel = admin.getByRole('region', { name: 'User details' });
  await expect(panel.getByRole('heading', { name: pia.fullName })).toBeVisible();
  await expect(panel).toContainText('Profile Information');
  await expect(panel).toContainText('ConsentProvided');
  await expect(panel).toContainText('Hormonal StagePerimenopause');
  await expect(panel).toContainText('Sleep Logs1');
  await expect(panel).toContainText('Journal Entries1');
  await expect(panel).toContainText('100% Polyester · Quality 8/10 · Comfortable');

  // The exports: named by kind and date, UTF-8 with a BOM, parsed back
  const users = await download(admin, 'Export Users Data');
  expect(users.fileName).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
  expect([...users.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(users.rows.find((row) => row.email === pia.email)).toMatchObject({
    first_name: 'Pia',
    last_name: tag,
    consent: 'yes',
    sleep_logs: '1',
  });
  const sleep = await download(admin, 'Export Sleep Study Data');
  expect(sleep.fileName).toMatch(/^sleep-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(sleep.rows.length).toBeGreaterThan(0);
  expect(sleep.rows[0]!.research_id).toMatch(/^SW-/);
  expect(sleep.bytes.toString('utf8')).not.toContain(pia.email);

  // Roles: granted and revoked from the screen
  await admin.getByLabel('Search by name or e-mail').fill(nora.email);
  await list.getByRole('button').filter({ hasText: nora.fullName }).click();
  await panel.getByRole('button', { name: 'Grant admin role' }).click();
  const grant = admin.getByRole('dialog', { name: 'Grant admin role?' });
  await grant.getByRole('button', { name: 'Grant admin role' }).click();
  await expect(toasts(admin).getByText('The admin role has been granted.')).toBeVisible();
  await expect(list.getByRole('button').filter({ hasText: nora.fullName })).toContainText('Admin');
  // hers at once: the gateway renews her token with the new role (within a second of the change)
  await expect.poll(async () => (await nora.page.request.get('/api/admin/stats')).status(), { timeout: 5_000 }).toBe(200);
  await nora.page.goto('/admin');
  await expect(nora.page.getByRole('region', { name: 'Statistics' })).toBeVisible();
  await panel.getByRole('button', { name: 'Revoke admin role' }).click();
  await admin.getByRole('dialog', { name: 'Revoke admin role?' }).getByRole('button', { name: 'Revoke admin role' }).click();
  await expect(toasts(admin).getByText('The admin role has been revoked.')).toBeVisible();
  await expect.poll(async () => (await nora.page.request.get('/api/admin/stats')).status(), { timeout: 5_000 }).toBe(403);

  // An account she deletes (through the API: the dashboard has no button for it)
  const vera = await newUser(browser, 'Vera');
  const veraId = ((await (await vera.page.request.get('/api/auth/user')).json()) as { id: string }).id;
  expect((await admin.request.delete(`/api/admin/users/${veraId}`)).status()).toBe(200);
  await vera.context.close();

  // The audit trail, newest first
  await admin.getByRole('link', { name: 'Audit trail' }).click();
  await expect(admin).toHaveURL(/\/admin\/audit$/);
  const rows = admin.getByRole('table').getByRole('row');
  // the deletion, by her, of someone no longer named (a projection of identity's event: read again until there)
  const deletion = rows.filter({ hasText: 'Deleted the account' }).filter({ hasText: `Ada ${tag}` });
  await expect(async () => {
    await admin.reload();
    await expect(deletion).toHaveCount(1, { timeout: 1_000 });
  }).toPass(PROJECTED);
  await expect(deletion).toContainText('A deleted account');
  await expect(rows.nth(1)).toContainText('Deleted the account');
  await expect(rows.filter({ hasText: 'Revoked the admin role' }).filter({ hasText: nora.fullName }).first()).toBeVisible();
  await expect(rows.nth(2)).toContainText('Revoked the admin role');
  await expect(rows.filter({ hasText: 'Exported sleep study data' }).first()).toContainText(`Ada ${tag}`);
  await expect(rows.filter({ hasText: 'Viewed details' }).filter({ hasText: pia.email }).first()).toContainText(`Ada ${tag}`);
  await expect(rows.filter({ hasText: 'Command line (admin:grant)' }).filter({ hasText: ada.email })).toContainText(
    'Granted the admin role',
  );
  await expect(rows.filter({ hasText: 'Granted the admin role' }).filter({ hasText: nora.email }).first()).toContainText(`Ada ${tag}`);

  // A participant: every admin route refused, a clear screen instead of an empty page
  for (const path of ['/api/admin/stats', '/api/admin/users', '/api/admin/audit', '/api/admin/export/users']) {
    expect((await pia.page.request.get(path)).status(), path).toBe(403);
  }
  expect((await pia.page.request.put(`/api/admin/users/${randomUUID()}/role`, { data: { role: 'admin' } })).status()).toBe(403);
  const signedOut = await playwright.request.newContext({ baseURL });
  expect((await signedOut.get('/api/admin/stats')).status()).toBe(401);
  await signedOut.dispose();
  for (const path of ['/admin', '/admin/audit', '/admin/research']) {
    await pia.page.goto(path);
    await expect(pia.page.getByRole('heading', { name: 'No access' })).toBeVisible();
    await expect(pia.page.getByText('This page is for study administrators.')).toBeVisible();
  }

  // ...and sees in Settings who looked at her data, and when
  await pia.page.goto('/settings');
  const access = pia.page.getByRole('list', { name: 'Who looked at your data' });
  await expect(access.getByText(`Ada ${tag} viewed your profile and sleep logs`)).toBeVisible();
  await expect(access.getByText(`Ada ${tag} exported the users list, which includes your profile`)).toBeVisible();
  await expect(access.getByText(`Ada ${tag} exported the sleep study data`)).toBeVisible();

  for (const user of [pia, nora, ada]) await user.context.close();
});

test('admin dashboard on a phone: the detail opens below a list of many, in view, and Back to the list returns to her row', async ({
  browser,
}) => {
  const others = `Tall${randomUUID().slice(0, 6)}`;
  const ada = await newUser(browser, 'Ada', { width: 390, height: 844 });
  grantAdmin(ada.email);
  // (registering signs the registrant in: in a context of their own, not Ada's)
  const theirs = await browser.newContext();
  for (let i = 0; i < 10; i++) await register(theirs.request, `Mia${String.fromCharCode(97 + i)}`, others);
  await theirs.close();
  await ada.page.goto('/admin');
  await ada.page.getByLabel('Search by name or e-mail').fill(others);
  const rows = ada.page.getByRole('list', { name: 'Users' }).getByRole('button');
  await expect(rows).toHaveCount(10, PROJECTED);
  // the first: the panel is below all ten, some 2,000 px further down
  const row = rows.first();
  await row.click();
  const panel = ada.page.getByRole('region', { name: 'User details' });
  await expect(panel.getByRole('heading', { name: new RegExp(others) })).toBeInViewport();
  await panel.getByRole('button', { name: 'Back to the list' }).click();
  await expect(row).toBeFocused();
  await expect(row).toBeInViewport();
  await ada.context.close();
});

test('admin dashboard on a desktop: the detail of a user far down the list stays in view beside it', async ({ browser }) => {
  const others = `Far${randomUUID().slice(0, 6)}`;
  const ada = await newUser(browser, 'Ada');
  grantAdmin(ada.email);
  // (registering signs the registrant in: in a context of their own, not Ada's)
  const theirs = await browser.newContext();
  for (let i = 0; i < 10; i++) await register(theirs.request, `Mia${String.fromCharCode(97 + i)}`, others);
  await theirs.close();
  await ada.page.goto('/admin');
  await ada.page.getByLabel('Search by name or e-mail').fill(others);
  const rows = ada.page.getByRole('list', { name: 'Users' }).getByRole('button');
  await expect(rows).toHaveCount(10, PROJECTED);
  await rows.last().scrollIntoViewIfNeeded();
  await rows.last().click();
  const panel = ada.page.getByRole('region', { name: 'User details' });
  await expect(panel.getByRole('heading', { name: new RegExp(others) })).toBeInViewport();
  // its bottom reachable too: the panel scrolls within the window's height
  const box = (await panel.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(800);
  await ada.context.close();
});

test('admin dashboard: an admin deletes a participant who asked to leave; she cannot sign in, and the audit trail says so', async ({
  browser,
}) => {
  const ada = await newUser(browser, 'Ada');
  grantAdmin(ada.email);
  const leaving = await newUser(browser, `Leaving${randomUUID().slice(0, 6)}`);
  await takePart(leaving.page);
  await ada.page.goto('/admin');
  await ada.page.getByLabel('Search by name or e-mail').fill(leaving.email);
  const row = ada.page.getByRole('list', { name: 'Users' }).getByRole('button');
  await expect(row).toHaveCount(1, PROJECTED);
  await row.click();
  const panel = ada.page.getByRole('region', { name: 'User details' });
  await panel.getByRole('button', { name: 'Delete account' }).click();
  const dialog = ada.page.getByRole('dialog', { name: `Delete ${leaving.fullName}’s account?` });
  await dialog.getByLabel(`Type ${leaving.email} to confirm`).fill(leaving.email.toUpperCase());
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(toasts(ada.page).getByText('The user and all their data have been deleted.', { exact: true })).toBeVisible();
  await expect(panel.getByText('Select a user to view their details')).toBeVisible();
  await expect(ada.page.getByText('No users found')).toBeVisible(PROJECTED);

  // her session is gone, and her password opens nothing
  expect((await leaving.page.request.get('/api/auth/user')).status()).toBe(401);
  const signIn = await leaving.page.request.post('/api/login', { data: { email: leaving.email, password: PASSWORD } });
  expect(signIn.status()).toBe(401);

  await ada.page.goto('/admin/audit');
  await expect(ada.page.getByText('Deleted the account').first()).toBeVisible(PROJECTED);
  await leaving.context.close();
  await ada.context.close();
});

test('admin dashboard: a name too long for its row ends in an ellipsis inside the row, not over the next column', async ({ browser }) => {
  const ada = await newUser(browser, 'Ada');
  grantAdmin(ada.email);
  const theirs = await browser.newContext();
  // one word, as long as an e-mail's part before the @ may be (register makes one of it)
  const longName = `Maximiliana${'wolkenschlaf'.repeat(4)}`;
  await register(theirs.request, longName, tag);
  await theirs.close();
  await ada.page.goto('/admin');
  await ada.page.getByLabel('Search by name or e-mail').fill(tag);
  const row = ada.page.getByRole('list', { name: 'Users' }).getByRole('button').filter({ hasText: 'Maximiliana' });
  await expect(row).toHaveCount(1, PROJECTED);
  const fits = await row.evaluate((button) => {
    const edge = button.getBoundingClientRect().right;
    return [...button.querySelectorAll('span')].every((span) => span.getBoundingClientRect().right <= edge + 0.5);
  });
  expect(fits).toBe(true);
  await ada.context.close();
});

/** No serious or critical axe violation (the lesser ones are printed), as web/e2e/accessibility.spec.ts. */
async function expectAccessible(page: Page, label: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of violations.filter((x) => !serious.includes(x))) console.log(`${label}: ${v.impact} ${v.id} (${v.nodes.length})`);
  expect(
    serious.map((v) => ({ rule: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) })),
    `${label}: serious or critical axe violations`,
  ).toEqual([]);
}

test('the admin screens pass axe at desktop and phone widths', async ({ browser }) => {
  const pia = await newUser(browser, 'Pia');
  await takePart(pia.page);
  const ada = await newUser(browser, 'Ada');
  grantAdmin(ada.email);
  const page = ada.page;
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await page.goto('/admin');
    await page.getByLabel('Search by name or e-mail').fill(pia.email);
    await expect(page.getByRole('list', { name: 'Users' }).getByRole('button')).toHaveCount(1, PROJECTED);
    await page.getByRole('list', { name: 'Users' }).getByRole('button').click();
    await expect(page.getByRole('region', { name: 'User details' }).getByRole('heading', { name: pia.fullName })).toBeVisible();
    await expectAccessible(page, `/admin at ${size.width}`);
    await page.goto('/admin/audit');
    await expect(page.getByText('Viewed details').locator('visible=true').first()).toBeVisible();
    await expectAccessible(page, `/admin/audit at ${size.width}`);
    await pia.page.setViewportSize(size);
    await pia.page.goto('/admin');
    await expect(pia.page.getByRole('heading', { name: 'No access' })).toBeVisible();
    await expectAccessible(pia.page, `/admin for a participant at ${size.width}`);
  }
  for (const user of [pia, ada]) await user.context.close();
});
