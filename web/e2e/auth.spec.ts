import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';

/** The toast list (radix also repeats each toast in a screen-reader announcer). */
const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });

const tiles = [
  ['Sleep Study', '/sleep/consent'],
  ['Daily Journal', '/journal'],
  ['Library', '/library'],
  ['Community', '/community'],
] as const;

test('sign up, see home, log out, sign in, guard and 404', async ({ page }) => {
  const email = `e2e-${randomUUID()}@example.com`;
  const password = 'gentle-nights-42';

  // Sign up.
  await page.goto('/auth');
  await expect(page.getByText('Your journey toward better sleep starts tonight.')).toBeVisible();
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  const signUp = page.getByRole('form', { name: 'Sign up' });
  await signUp.getByLabel('First name').fill('Elena');
  await signUp.getByLabel('Last name').fill('Moreau');
  await signUp.getByLabel('Email').fill(email);
  await signUp.getByLabel('Password', { exact: true }).fill(password);
  await signUp.getByLabel('Confirm password').fill(password);
  await signUp.getByLabel('Date of birth').fill('1971-03-09');
  await signUp.getByLabel('Hormonal stage').click();
  await page.getByRole('option', { name: 'Menopause', exact: true }).click();
  await expect(signUp.getByLabel('Hormonal stage')).toHaveText('Menopause');
  await signUp.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Account created successfully! Redirecting...')).toBeVisible();

  // Home with the four tiles.
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: /Elena/ })).toBeVisible();
  const main = page.getByRole('main');
  for (const [name, href] of tiles) {
    await expect(main.getByRole('link', { name: new RegExp(name) })).toHaveAttribute('href', href);
  }

  // Log out.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(toasts(page).getByText('Logged out.')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);

  // Sign in.
  const signIn = page.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByLabel('Password').fill(password);
  await signIn.getByRole('button', { name: 'Sign In' }).click();
  await expect(toasts(page).getByText('Welcome back!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: /Elena/ })).toBeVisible();
  // A reload keeps her signed in (the session lives in cookies).
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /Elena/ })).toBeVisible();

  // Signed out, a guarded URL lands on /auth.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();

  // An unknown path.
  await page.goto(`/no-such-page-${randomUUID()}`);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
});

test('a wrong password says Login failed with the server message', async ({ page }) => {
  await page.goto('/auth');
  const signIn = page.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('Email').fill(`nobody-${randomUUID()}@example.com`);
  await signIn.getByLabel('Password').fill('not-the-password');
  await signIn.getByRole('button', { name: 'Sign In' }).click();
  await expect(toasts(page).getByText('Login failed', { exact: true })).toBeVisible();
  await expect(toasts(page).getByText('Invalid email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

test('on a phone (375×667) she can sign in without scrolling: the fields and Sign In are on the first screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 667 });
  await page.goto('/auth');
  const signIn = page.getByRole('form', { name: 'Sign in' });
  for (const control of [signIn.getByLabel('Email'), signIn.getByLabel('Password'), signIn.getByRole('button', { name: 'Sign In' })]) {
    await expect(control).toBeInViewport({ ratio: 1 });
  }
  expect(await page.evaluate(() => scrollY)).toBe(0);
});

test('on a shared browser, someone else signing in where a session ended starts from Home, not from her page', async ({
  page,
  request,
}) => {
  const password = 'gentle-nights-42';
  const register = async (api: typeof request, firstName: string) => {
    const email = `e2e-${randomUUID()}@example.com`;
    const answer = await api.post('/api/register', {
      data: {
        email,
        password,
        confirmPassword: password,
        firstName,
        lastName: 'Shared',
        dateOfBirth: '1968-04-02',
        timezone: 'Europe/London',
        hormonalStage: 'Menopause',
      },
    });
    expect(answer.status()).toBe(201);
    return email;
  };
  await register(page.request, 'Ana'); // signed in in this browser
  const bea = await register(request, 'Bea'); // elsewhere
  await page.goto('/journal');
  await expect(page.getByRole('heading', { name: 'Daily Journal' })).toBeVisible();
  // Ana's session ends (it expired, or she was signed out elsewhere) and the tab notices
  await page.context().clearCookies();
  await page.reload();
  await expect(page).toHaveURL(/\/auth$/);

  const signIn = page.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('Email').fill(bea);
  await signIn.getByLabel('Password').fill(password);
  await signIn.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: /Bea/ })).toBeVisible();
});
