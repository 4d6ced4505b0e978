import { expect, test } from '@playwright/test';
import { choose, dateIn, daytimeZone, hueOf, isRed, signUp, toasts } from './support/app.ts';

test('join the study, log a night with typed durations, edit it, see it on the dashboard, charts and weekly report', async ({ page }) => {
  // where it is day: her first night is then among the weekly report's (daytimeZone says why)
  const timezone = daytimeZone();
  await signUp(page, { firstName: 'Ingrid', lastName: 'Solberg', dateOfBirth: '1970-02-11', timezone });
  const today = dateIn(timezone);

  // Consent.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sleep Study' }).first().click();
  await expect(page).toHaveURL(/\/sleep\/consent$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sleep Study Consent' })).toBeVisible();
  await expect(page.getByText('Go to bed at 10:00 PM.')).toBeVisible();
  await expect(page.getByText('Keep your bedroom at 21-23°C.')).toBeVisible();
  const accept = page.getByRole('button', { name: 'Accept & Continue to Sleep Study' });
  await expect(accept).toBeDisabled();
  await accept.click({ force: true });
  await expect(toasts(page).getByText('Agreement Required')).toBeVisible();

  await page.getByRole('button', { name: 'Learn More' }).click();
  const details = page.getByRole('dialog', { name: 'About the sleep study' });
  await expect(details.getByText('How the 42 days run')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();

  await page.getByRole('checkbox').check();
  await expect(accept).toBeEnabled();
  await accept.click();
  await expect(toasts(page).getByText('Consent Recorded')).toBeVisible();
  await expect(toasts(page).getByText('Thank you for joining our sleep study!')).toBeVisible();
  await expect(page).toHaveURL(/\/sleep\/log$/);

  // Identity learns her start date from the study's event.
  await expect.poll(async () => (await (await page.request.get('/api/auth/user')).json()).studyStartDate, { timeout: 10_000 }).toBe(today);

  // The log form on day 1.
  await expect(page.getByText('Polyester - Day 1 of 14')).toBeVisible();
  await expect(page.getByText('Phase: Polyester (Day 1 of 14) — Tonight, please wear your polyester pyjamas.')).toBeVisible();
  await expect(page.getByLabel('Date')).toHaveValue(today);
  await expect(page.getByLabel('Sleepwear material', { exact: true })).toHaveText('100% Polyester');

  // A mismatching material warns (without blocking) and marks the field with a red border.
  const material = page.getByLabel('Sleepwear material', { exact: true });
  const mismatch = "This doesn't match your current phase. Tonight should be 100% Polyester. Please update to stay aligned.";
  expect(isRed(await hueOf(material, 'border-top-color'))).toBe(false);
  await choose(page, 'Sleepwear material', '100% Linen');
  const warning = page.getByText(mismatch);
  await expect(warning).toBeVisible();
  await expect(material).toHaveAccessibleDescription(mismatch);
  await expect(material).not.toHaveAttribute('aria-invalid');
  expect(isRed(await hueOf(material, 'border-top-color'))).toBe(true);
  await choose(page, 'Sleepwear material', '100% Polyester');
  await expect(warning).toBeHidden();
  await expect(material).toHaveAccessibleDescription('');
  expect(isRed(await hueOf(material, 'border-top-color'))).toBe(false);

  // Durations typed as text; a bad one is named, not dropped.
  await page.getByLabel('Total sleep').fill('seven and a half');
  await page.getByRole('button', { name: 'Save Sleep Log' }).click();
  await expect(page.getByText('Use hours and minutes, like 7h32m, 15m or 1h25m')).toBeVisible();
  await expect(page.getByLabel('Total sleep')).toBeFocused();
  await page.getByLabel('Total sleep').fill('7h32m');
  await page.getByLabel('REM sleep').fill('1h25m');
  await page.getByLabel('Deep sleep').fill('1h5m');
  await page.getByLabel('Time to fall asleep').fill('15m');
  await page.getByLabel('Sleep score').fill('82');
  await page.getByLabel('Resting heart rate (bpm)').fill('56');
  await page.getByLabel('Average HRV (ms)').fill('41.5');
  await choose(page, 'Morning mood', 'Refreshed');
  await choose(page, 'Fabric comfort', 'Comfortable');
  await page.getByLabel('Sleep quality').fill('9');
  await expect(page.getByText('9/10 · Excellent')).toBeVisible();
  await page.getByLabel('Comments').fill('Warm around 3am, settled quickly.');
  await page.getByRole('button', { name: 'Save Sleep Log' }).click();
  await expect(toasts(page).getByText('Sleep Log Saved')).toBeVisible();
  await expect(toasts(page).getByText('Your sleep data has been recorded successfully.')).toBeVisible();
  // The saved night stays in the form, in edit mode (sleep-log.spec.ts follows this further).
  await expect(page.getByRole('button', { name: 'Update Sleep Log' })).toBeVisible();
  await expect(page.getByLabel('Date')).toHaveValue(today);
  await expect(page.getByLabel('Sleep score')).toHaveValue('82');

  // Dashboard.
  await page.getByRole('link', { name: 'View Dashboard' }).click();
  await expect(page).toHaveURL(/\/sleep\/dashboard$/);
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary).toContainText('Total Entries1');
  await expect(summary).toContainText('Avg Sleep Score82');
  const card = page.getByRole('listitem').filter({ hasText: 'Sleep score 82' });
  await expect(card).toContainText('7h 32m');
  await expect(card).toContainText('56 bpm');
  await expect(card).toContainText('41.5 ms');
  await expect(card).toContainText('Refreshed');
  await expect(card).toContainText('Warm around 3am, settled quickly.');

  // Edit it.
  await card.getByRole('link', { name: /Edit/ }).click();
  await expect(page).toHaveURL(/\/sleep\/log\?edit=[0-9a-f-]+&date=\d{4}-\d{2}-\d{2}$/);
  await expect(page.getByRole('button', { name: 'Update Sleep Log' })).toBeVisible();
  await expect(page.getByLabel('Total sleep')).toHaveValue('7h32m');
  await page.getByLabel('Total sleep').fill('8h');
  await page.getByLabel('Sleep score').fill('88');
  await page.getByRole('button', { name: 'Update Sleep Log' }).click();
  await expect(toasts(page).getByText('Sleep Log Updated')).toBeVisible();
  await expect(toasts(page).getByText('Your sleep data has been updated successfully.')).toBeVisible();

  await page.goto('/sleep');
  await expect(page.getByRole('listitem').filter({ hasText: 'Sleep score 88' })).toContainText('8h');
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText('Total Entries1');

  // Charts: five charts of her entries.
  await page.getByRole('link', { name: 'Charts' }).click();
  await expect(page).toHaveURL(/\/sleep\/charts$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sleep Analytics' })).toBeVisible();
  for (const title of ['Sleep Score', 'Deep Sleep (minutes)', 'REM Sleep (minutes)', 'Resting Heart Rate', 'Average HRV']) {
    await expect(page.getByRole('heading', { name: title, exact: true })).toBeVisible();
  }
  await expect(page.locator('.recharts-line')).toHaveCount(5);
  await expect(page.getByRole('table', { name: 'Sleep Score' })).toContainText('88');
  await expect(page.getByRole('table', { name: 'REM Sleep (minutes)' })).toContainText('85 min');

  // Weekly report.
  await page.goto('/sleep/weekly-report');
  await expect(page.getByRole('heading', { level: 1, name: 'Weekly Sleep Report' })).toBeVisible();
  await expect(page.getByText('Your sleep patterns over the last 7 days')).toBeVisible();
  await expect(page.locator('.recharts-line')).toHaveCount(5);
  const weekly = page.getByRole('heading', { name: 'Weekly Summary' }).locator('..');
  await expect(weekly).toContainText('Days logged1');
  await expect(weekly).toContainText('Avg sleep score88');
  await expect(weekly).toContainText('Avg REM sleep1h 25m');
  await expect(weekly).toContainText('Avg deep sleep1h 5m');
  await expect(weekly).toContainText('Avg resting HR56 bpm');
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/sleep\/dashboard$/);

  // Consent is given: Sleep Study now leads straight to the log.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sleep Study' }).first().click();
  await expect(page).toHaveURL(/\/sleep\/log$/);
});

test('a new participant sees the empty states before her first night', async ({ page }) => {
  await signUp(page, { firstName: 'Ingrid', lastName: 'Solberg', dateOfBirth: '1970-02-11' });
  await page.goto('/sleep/dashboard');
  await expect(page.getByRole('heading', { name: 'No Sleep Data Yet' })).toBeVisible();
  await page.goto('/sleep/weekly-report');
  await expect(page.getByRole('heading', { name: 'No Sleep Data Available' })).toBeVisible();
  await expect(page.getByText('Start logging your sleep data to see your weekly trends and patterns.')).toBeVisible();
  await page.getByRole('link', { name: 'Log Your First Sleep' }).click();
  // Not yet in the study: the log sends her to the consent page first.
  await expect(page).toHaveURL(/\/sleep\/consent$/);
});
