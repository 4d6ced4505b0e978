import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signUp } from './support/app.ts';
import { waitForResetLink } from './support/mail';

/** The toast list (radix also repeats each toast in a screen-reader announcer). */
const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });

/** Registers through the API; with `page.request` she is then signed in in that browser. */
async function registerVia(request: APIRequestContext) {
  const email = `e2e-${randomUUID()}@example.com`;
  const password = 'gentle-nights-42';
  const response = await request.post('/api/register', {
    data: {
      email,
      password,
      confirmPassword: password,
      firstName: 'Helena',
      lastName: 'Strand',
      dateOfBirth: '1969-11-02',
      timezone: 'Europe/London',
      hormonalStage: 'Perimenopause',
    },
  });
  expect(response.status()).toBe(201);
  return { email, password };
}

async function signIn(page: Page, email: string, password: string) {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

test('forgot password: the link from the e-mail sets a new password, once', async ({ page, request, baseURL }) => {
  const { email } = await registerVia(request);

  await page.goto('/auth');
  await page.getByRole('form', { name: 'Sign in' }).getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset Password' });
  await expect(dialog.getByLabel('Email')).toHaveValue(email);
  await dialog.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(dialog.getByText("If an account exists for that email, we've sent a link")).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();

  const link = await waitForResetLink(email);
  expect(link.startsWith(`${baseURL}/reset-password?token=`)).toBe(true);

  await page.goto(link);
  await page.getByLabel('New Password', { exact: true }).fill('a-new-calm-password');
  await page.getByLabel('Confirm New Password').fill('a-new-calm-password');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('heading', { name: 'Password reset successfully!' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);

  await signIn(page, email, 'a-new-calm-password');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: /Helena/ })).toBeVisible();

  // The link works once.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Reset Link Invalid' })).toBeVisible();
  await expect(page.getByText('Invalid or expired reset token')).toBeVisible();
  await page.getByRole('link', { name: 'Back to Login' }).click();
  await expect(page).not.toHaveURL(/reset-password/);
});

test('settings: a new hormonal stage is saved and still there after a reload', async ({ page }) => {
  await registerVia(page.request);
  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

  const profile = page.getByRole('form', { name: 'Profile' });
  await expect(profile.getByLabel('Hormonal stage')).toHaveText('Perimenopause');
  await profile.getByLabel('Hormonal stage').click();
  await page.getByRole('option', { name: 'Post menopause', exact: true }).click();
  await profile.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toasts(page).getByText('Settings saved')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('form', { name: 'Profile' }).getByLabel('Hormonal stage')).toHaveText('Post menopause');
});

test('delete account: she is signed out, in her other tabs too (their drafts dropped), and cannot sign in again', async ({ page }) => {
  const { email, password } = await registerVia(page.request);
  // another tab of hers, on her journal with an entry half written
  const other = await page.context().newPage();
  await other.goto('/journal');
  await other.getByLabel("Today's Affirmation").fill('unsaved, and hers');
  await other.evaluate(() => sessionStorage.setItem('sleepweave:draft:probe', 'kept'));
  await page.goto('/settings');
  await expect(page.getByText('Deleting your account is permanent and cannot be undone.')).toBeVisible();
  await page.getByRole('button', { name: 'Delete Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'Delete My Account' }).click();

  await expect(page).toHaveURL(/\/auth$/);
  await expect(toasts(page).getByText('Account deleted')).toBeVisible();
  await expect(other).toHaveURL(/\/auth$/);
  await expect(toasts(other).getByText('Your account was deleted in another tab.')).toBeVisible();
  expect(await other.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('sleepweave:draft:')))).toEqual([]);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);

  await signIn(page, email, password);
  await expect(toasts(page).getByText('Invalid email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

test('offline, a screen not opened yet says so under the nav bar, and opens by itself once she is back online', async ({
  page,
  context,
}) => {
  await signUp(page, { firstName: 'Ida', lastName: 'Berg', dateOfBirth: '1970-05-14' });
  await page.goto('/journal');
  await expect(page.getByRole('heading', { level: 1, name: 'Daily Journal' })).toBeVisible();
  await context.setOffline(true);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).first().click();
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  await expect(
    page.getByText('You seem to be offline, so this page could not be loaded. It opens by itself once you are back online.'),
  ).toBeVisible();
  // the nav bar is still there: a screen already loaded opens
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByRole('heading', { level: 1, name: 'Knowledge Library' })).toBeVisible();

  // a save made offline is said to wait, and goes once she is back online
  await page.goto('/journal');
  await context.setOffline(true);
  await page.getByLabel("Today's Affirmation").fill('Written on the train');
  await page.getByRole('button', { name: 'Save Entry' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'You are offline.' })).toContainText('1 save is waiting to be sent.');
  await context.setOffline(false);
  await expect(page.getByRole('article').filter({ hasText: 'Written on the train' })).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: 'You are offline.' })).toHaveCount(0);
});
