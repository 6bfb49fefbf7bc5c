import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';

/**
 * The partner directory on its own: the footer's link, a search for an unknown place and for a place
 * without partners, both themes, phone and desktop, and an unknown company's 404. A company found by place
 * is part of partner-journey.spec.ts.
 */
async function expectNoSeriousViolations(page: Page, what: string) {
  const result = await axeResults(page);
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect.soft(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

async function checkBothThemes(page: Page, what: string, ready: () => Promise<void>) {
  for (const theme of ['light', 'dark'] as const) {
    await page
      .context()
      .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
    await page.reload();
    await ready();
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b).*$/);
    await expectNoSeriousViolations(page, `${what} (${theme})`);
  }
}

test('the directory: search, empty state and accessibility in both themes @layout', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Uitvaart ondernemingen' }).click();
  await expect(page).toHaveURL('/uitvaartondernemers');
  await expect(page.getByRole('heading', { level: 1, name: 'Vind een uitvaartondernemer' })).toBeVisible();
  await page.getByLabel('Plaats of postcode').fill('Atlantis');
  await page.getByRole('button', { name: 'Zoeken' }).click();
  await expect(page.getByRole('status')).toContainText('We kennen geen plaats of postcode ‘Atlantis’');
  await page.goto('/uitvaartondernemers?q=Schiermonnikoog');
  await expect(page.getByRole('status')).toContainText(
    'Er zijn (nog) geen partners die in de gemeente Schiermonnikoog werken.',
  );
  await expect(page.getByRole('link', { name: 'Neem contact op' })).toBeVisible();
  await checkBothThemes(page, '/uitvaartondernemers (leeg)', () =>
    expect(page.getByRole('heading', { level: 1, name: 'Vind een uitvaartondernemer' })).toBeVisible(),
  );
  // An unknown company is the site's 404 page.
  const res = await page.goto('/uitvaartondernemers/bestaat-niet');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: /Pagina niet gevonden/ })).toBeVisible();
});
