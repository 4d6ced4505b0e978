import { expect, test } from '@playwright/test';
import { choose, signUp } from './support/app';

// This browser is in Paris; sign-up's time zone starts on New York (docs/product.md §9).
test.use({ timezoneId: 'Europe/Paris' });

test('home asks whether her time zone is right when this device is on another clock; Settings puts it right', async ({ page }) => {
  await signUp(page, { firstName: 'Odile', lastName: 'Marchand', dateOfBirth: '1968-04-09' });
  const notice = page.getByRole('region', { name: 'Is your time zone right?' });
  await expect(notice).toContainText(
    'Your profile is set to Eastern Time (America/New_York), but this device is on another clock (Europe/Paris).',
  );
  await notice.getByRole('link', { name: 'Change it in Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await choose(page, 'Timezone', 'Central European (Europe/Paris)');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Odile');
  await expect(notice).toHaveCount(0);
});

test('once she keeps her zone, home does not ask again on this device', async ({ page }) => {
  await signUp(page, { firstName: 'Ines', lastName: 'Duval', dateOfBirth: '1970-01-21', timezone: 'Europe/London' });
  const notice = page.getByRole('region', { name: 'Is your time zone right?' });
  await notice.getByRole('button', { name: 'Keep GMT (Europe/London)' }).click();
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Ines');
  await expect(notice).toHaveCount(0);
});
