import { expect, test } from '@playwright/test';
import { choose, hueOf, isGreen, isRed, signUp, toasts } from './support/app.ts';

test('write a journal entry and see it listed as Complete', async ({ page }) => {
  await signUp(page, { firstName: 'Noor', lastName: 'Haddad', dateOfBirth: '1969-08-02' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Daily Journal' }).first().click();
  await expect(page).toHaveURL(/\/journal$/);
  // The page change is announced: the tab is named and focus moves to the page's heading.
  await expect(page).toHaveTitle('Daily Journal · Sleepweave');
  await expect(page.getByRole('heading', { level: 1, name: 'Daily Journal' })).toBeFocused();
  await expect(page.getByText('No journal entries yet. Start your first entry above!')).toBeVisible();
  const streak = page.getByRole('status', { name: 'Current streak' });
  await expect(streak).toHaveText(/^Current streak 0 days Write today/);

  await page.getByLabel("Today's Affirmation").fill('My body knows how to rest.');
  await page.getByLabel('Gratitude').fill('The cool breeze through the linen curtains.');
  await page.getByLabel('Forgiveness').fill('I forgive myself for the nights I could not sleep.');
  await page.getByRole('button', { name: 'Save Entry' }).click();

  await expect(toasts(page).getByText('Journal Entry Saved')).toBeVisible();
  await expect(toasts(page).getByText('Your daily reflections have been recorded.')).toBeVisible();
  await expect(page.getByLabel("Today's Affirmation")).toHaveValue('');

  const entry = page.getByRole('region', { name: 'Recent Entries' }).getByRole('article');
  await expect(entry).toHaveCount(1);
  // Long-form date, e.g. "Saturday, November 21, 2026".
  await expect(entry.getByRole('heading')).toHaveText(/^[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}$/);
  await expect(entry.getByText('Complete', { exact: true })).toBeVisible();
  await expect(entry).toContainText('My body knows how to rest.');
  await expect(entry).toContainText('The cool breeze through the linen curtains.');
  await expect(entry).toContainText('I forgive myself for the nights I could not sleep.');
  await expect(streak).toHaveText(/^Current streak 1 day You have written today/);

  // It is hers: it is still there after a reload.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Recent Entries' }).getByRole('article')).toHaveCount(1);
});

test('compute a single fabric and a 60/40 blend', async ({ page }) => {
  await signUp(page, { firstName: 'Noor', lastName: 'Haddad', dateOfBirth: '1969-08-02' });
  await page.goto('/calculator');
  await expect(page.getByRole('heading', { level: 1, name: 'Clothes Frequency Calculator' })).toBeVisible();
  await expect(page).toHaveTitle('Clothes Frequency Calculator · Sleepweave');
  await expect(page.getByRole('heading', { name: 'About these numbers' })).toBeVisible();

  // Single fabric.
  const calculate = page.getByRole('button', { name: 'Calculate Energy Impact' });
  await expect(calculate).toBeDisabled();
  await choose(page, 'Fabric', 'Organic Cotton (100 Hz)');
  await calculate.click();
  const single = page.getByRole('region', { name: 'Organic Cotton' });
  await expect(single.getByText('100 Hz', { exact: true })).toBeVisible();
  await expect(single.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '80');
  await expect(single).toContainText('80/100');
  await expect(single.getByText('Balanced Energy')).toBeVisible();
  await expect(single.getByRole('heading', { name: 'Benefits' })).toBeVisible();
  await expect(single.getByRole('heading', { name: 'Considerations' })).toBeVisible();
  const learnMore = single.getByRole('link', { name: /Learn More About Fabrics/ });
  await expect(learnMore).toHaveAttribute('href', '/library');
  await expect(learnMore).toHaveAttribute('target', '_blank');
  await single.getByRole('button', { name: 'Try Another' }).click();
  // Focus waits on her choice, not on <body>.
  await expect(page.getByLabel('Fabric', { exact: true })).toBeFocused();

  // A 60/40 blend of linen and polyester.
  await page.getByRole('tab', { name: 'Fabric Blend' }).click();
  await choose(page, 'Fabric 1', 'Linen (5,000 Hz)');
  await choose(page, 'Fabric 2', 'Polyester (0 Hz)');
  await page.getByLabel('Fabric 1 Percent').fill('60');
  await page.getByLabel('Fabric 2 Percent').fill('30');
  // The running Total: red until it is exactly 100, then green.
  const total = page.getByText(/^\d+%$/);
  await expect(page.getByText('Total: 90%')).toBeVisible();
  await expect(total).toHaveText('90%');
  expect(isRed(await hueOf(total, 'color'))).toBe(true);
  await expect(calculate).toBeDisabled();
  await page.getByLabel('Fabric 2 Percent').fill('40');
  await expect(page.getByText('Total: 100%')).toBeVisible();
  await expect(total).toHaveText('100%');
  expect(isGreen(await hueOf(total, 'color'))).toBe(true);
  await calculate.click();

  const blend = page.getByRole('region', { name: 'Fabric Blend Analysis' });
  await expect(blend.getByText('3,000 Hz', { exact: true })).toBeVisible();
  await expect(blend.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '95');
  await expect(blend.getByText('High Energy')).toBeVisible();
  const composition = blend.getByRole('region', { name: 'Blend Composition' });
  await expect(composition.getByRole('listitem')).toHaveText([/Linen.*60%/, /Polyester.*40%/]);
});
