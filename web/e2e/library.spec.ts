import { randomUUID } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signUp } from './support/app.ts';

/** True once the image has loaded from the app (a broken image has no natural width). */
const loaded = (image: Locator) => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

const cardTitles = (page: Page) =>
  page
    .getByRole('list')
    .filter({ has: page.locator('article') })
    .getByRole('heading', { level: 2 });

test('search the library as you type and open an article', async ({ page }) => {
  await signUp(page, { firstName: 'Ingrid', lastName: 'Solberg', dateOfBirth: '1970-06-14' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).first().click();
  await expect(page).toHaveURL(/\/library$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Knowledge Library' })).toBeVisible();

  // The seed articles (at least twelve), each with an image served by the app.
  await expect(cardTitles(page).first()).toBeVisible();
  const all = await cardTitles(page).count();
  expect(all).toBeGreaterThanOrEqual(12);
  const studyCard = page.locator('article').filter({ hasText: 'How the 42-Night Fabric Study Works' });
  await expect(studyCard.getByText('Research Studies')).toBeVisible();
  // The summary shows at most three lines.
  const summary = studyCard.getByRole('paragraph');
  await expect(summary).toHaveCSS('-webkit-line-clamp', '3');
  const lines = await summary.evaluate((p) => p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight));
  expect(lines).toBeLessThanOrEqual(3.05);
  await studyCard.locator('img').scrollIntoViewIfNeeded();
  await expect.poll(() => loaded(studyCard.locator('img'))).toBe(true);

  // Typing part of a word is enough; the results follow without pressing anything.
  const searchBox = page.getByRole('searchbox', { name: 'Search articles' });
  await searchBox.pressSequentially('flas', { delay: 40 });
  await expect(page).toHaveURL(/\/library\?search=flas$/);
  await expect(cardTitles(page).first()).toHaveText('Hot Flashes and Night Sweats: Getting Through the Night');
  await expect(page.getByText(/articles? for “flas”/)).toBeVisible();
  await expect(cardTitles(page).filter({ hasText: 'Cotton: The Familiar Baseline' })).toHaveCount(0);

  // A search that finds nothing.
  await searchBox.fill('zzzqqq');
  await expect(page.getByText('No articles found')).toBeVisible();
  await expect(page.getByText('Try adjusting your search terms')).toBeVisible();

  // The Search button searches at once.
  await searchBox.fill('linen');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(cardTitles(page).first()).toHaveText('Linen: Cool, Breathable and Built to Last');

  // Open the article.
  await page.getByRole('link', { name: 'Linen: Cool, Breathable and Built to Last' }).click();
  await expect(page).toHaveURL(/\/library\/article\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Linen: Cool, Breathable and Built to Last' })).toBeVisible();
  await expect(page.getByText('Fabric info')).toBeVisible();
  await expect(page.getByText('#flax')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Why linen feels cool' })).toBeVisible();
  await expect.poll(() => loaded(page.locator('article img').first())).toBe(true);

  // A link inside the body stays in the app.
  await page.getByRole('link', { name: 'Hot Flashes and Night Sweats' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hot Flashes and Night Sweats: Getting Through the Night' })).toBeVisible();

  // Back to the library, and Back in the browser returns to the search.
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(/\/library\?search=linen$/);
  await expect(searchBox).toHaveValue('linen');
  // Back to Library returns to the search she opened the article from; emptying the box, to all.
  await page.getByRole('link', { name: 'Linen: Cool, Breathable and Built to Last' }).click();
  await page.getByRole('link', { name: 'Back to Library' }).first().click();
  await expect(page).toHaveURL(/\/library\?search=linen$/);
  await expect(searchBox).toHaveValue('linen');
  await expect(cardTitles(page).first()).toHaveText('Linen: Cool, Breathable and Built to Last');
  await searchBox.fill('');
  await expect(page).toHaveURL(/\/library$/);
  await expect(cardTitles(page)).toHaveCount(all);

  // Back from an article far down the list returns to it, though the cards load again.
  const last = cardTitles(page).last();
  await last.scrollIntoViewIfNeeded();
  const where = await page.evaluate(() => window.scrollY);
  expect(where).toBeGreaterThan(500);
  await last.click();
  await expect(page).toHaveURL(/\/library\/article\//);
  await page.goBack();
  await expect(cardTitles(page)).toHaveCount(all);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(where - 2);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(where + 2);
  await expect(last).toBeInViewport();

  // An unknown article.
  await page.goto(`/library/article/${randomUUID()}`);
  await expect(page.getByRole('heading', { name: 'Article Not Found' })).toBeVisible();
  await expect(page.getByText("Sorry, we couldn't find the article you're looking for.")).toBeVisible();
  await page.getByRole('link', { name: 'Back to Library' }).click();
  await expect(page).toHaveURL(/\/library$/);
});
