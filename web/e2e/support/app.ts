import { randomUUID } from 'node:crypto';
import { expect, type Locator, type Page } from '@playwright/test';
import { TIMEZONE_OPTIONS, type Timezone } from '@sleepweave/contracts';

/** The toast list (radix also repeats each toast in a screen-reader announcer). */
export const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });

/** A calendar date (YYYY-MM-DD) in `timeZone` at `instant`, computed here without the app's code. */
export const dateIn = (timeZone: string, instant = new Date()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);

/**
 * Of sign-up's time zones, one where it is now between 06:00 and 22:00. A night logged on
 * the day she joins (tonight) counts among "the last 7 days" of her charts and weekly
 * report once the night before it has ended (at 04:00): joined between midnight and 04:00,
 * she has no such night yet, whatever she logs. A test that joins and logs at once takes
 * her to a zone where it is day (the six zones span 9 hours, so one always is).
 */
export function daytimeZone(now = new Date()): Timezone {
  const hourIn = (timeZone: string) =>
    Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(now));
  const zone = TIMEZONE_OPTIONS.find(({ value }) => hourIn(value) >= 6 && hourIn(value) < 22);
  if (!zone) throw new Error('no sign-up time zone is in daytime now');
  return zone.value;
}

/**
 * Signs up a new participant through /auth (unique e-mail) and waits for the home screen;
 * her e-mail and password, to sign in again. `timezone`: one of sign-up's (the form's
 * default, America/New_York, if none).
 */
export async function signUp(
  page: Page,
  profile: { firstName: string; lastName: string; dateOfBirth: string; timezone?: Timezone },
): Promise<{ email: string; password: string }> {
  const email = `e2e-${randomUUID()}@example.com`;
  const password = 'gentle-nights-42';
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  const form = page.getByRole('form', { name: 'Sign up' });
  await form.getByLabel('First name').fill(profile.firstName);
  await form.getByLabel('Last name').fill(profile.lastName);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByLabel('Confirm password').fill(password);
  await form.getByLabel('Date of birth').fill(profile.dateOfBirth);
  if (profile.timezone) {
    const { label } = TIMEZONE_OPTIONS.find(({ value }) => value === profile.timezone)!;
    await form.getByLabel('Timezone', { exact: true }).click();
    await page.getByRole('option', { name: label, exact: true }).click();
  }
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return { email, password };
}

/** Picks an option of a radix Select by its label. */
export async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * The hue (0-360, on the colour wheel) of a colour the element shows, whatever CSS syntax
 * produced it: for checks like "the Total is green", without knowing the stylesheet.
 */
export function hueOf(element: Locator, property: 'color' | 'border-top-color'): Promise<number> {
  return element.evaluate((node, name) => {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    context.fillStyle = getComputedStyle(node).getPropertyValue(name);
    context.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0] = Array.from(context.getImageData(0, 0, 1, 1).data, (channel) => channel / 255);
    const max = Math.max(r, g, b);
    const range = max - Math.min(r, g, b);
    if (range === 0) return 0;
    const sector = max === r ? ((g - b) / range) % 6 : max === g ? (b - r) / range + 2 : (r - g) / range + 4;
    return (sector * 60 + 360) % 360;
  }, property);
}

/** Red (rose) and green (emerald) as the eye names them. */
export const isRed = (hue: number) => hue < 30 || hue > 330;
export const isGreen = (hue: number) => hue > 90 && hue < 180;
