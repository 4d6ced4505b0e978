import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';

/** The toast list (radix also repeats each toast in a screen-reader announcer). */
export const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });

/** Signs up a new participant through /auth (unique e-mail) and waits for the home screen. */
export async function signUp(page: Page, profile: { firstName: string; lastName: string; dateOfBirth: string }) {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  const form = page.getByRole('form', { name: 'Sign up' });
  await form.getByLabel('First name').fill(profile.firstName);
  await form.getByLabel('Last name').fill(profile.lastName);
  await form.getByLabel('Email').fill(`e2e-${randomUUID()}@example.com`);
  await form.getByLabel('Password', { exact: true }).fill('gentle-nights-42');
  await form.getByLabel('Confirm password').fill('gentle-nights-42');
  await form.getByLabel('Date of birth').fill(profile.dateOfBirth);
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Picks an option of a radix Select by its label. */
export async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
