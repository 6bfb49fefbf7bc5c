import { expect, test } from '../support/test.ts';

test('/example shows the three example memorials as a gallery', async ({ page }) => {
  await page.goto('/example');
  await expect(page.getByRole('heading', { level: 1, name: 'Voorbeelden van gedenkpagina’s' })).toBeVisible();
  const profiles = page.getByRole('article');
  await expect(profiles).toHaveCount(3);
  const expected: [string, string, string][] = [
    ['Johanna de Vries', 'Haarlem', 'Overleden 12 maart 2024'],
    ['Pieter Bakker', 'Den Helder', 'Overleden 3 september 2023'],
    ['Sanne Jansen', 'Utrecht', 'Overleden 21 januari 2024'],
  ];
  for (const [name, place, died] of expected) {
    const profile = page.getByRole('article', { name });
    await expect(profile.getByRole('heading', { level: 2, name })).toBeVisible();
    await expect(profile.getByText(place, { exact: true })).toBeVisible();
    await expect(profile.getByText(died)).toBeVisible();
    await expect(profile.getByRole('img')).toBeVisible();
    await expect(profile.getByText('bloemen', { exact: true })).toBeVisible();
  }
  await page.getByRole('link', { name: 'Maak een pagina' }).last().click();
  await expect(page).toHaveURL('/create-memorial');
});

test('an address a script changed before the app started is the one the app shows, without a hydration mismatch', async ({
  page,
}) => {
  // The app's script is held back until the address has changed: the HTML is the landing page's, the
  // address another route's. Hydrating that HTML there was React error #418.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  // Not waiting for the load event: it would wait for the held script.
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/herinneringen voortleven/);
  await page.evaluate(() => {
    history.pushState({}, '', '/ook-niet');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  release();
  await expect(page.getByRole('heading', { level: 1, name: /Oeps! Pagina niet gevonden/ })).toBeVisible();
});

test('unknown paths answer HTTP 404 with the not-found screen', async ({ page }) => {
  const res = await page.goto('/dit-bestaat-niet/echt-niet');
  expect(res?.status()).toBe(404);
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: /Oeps! Pagina niet gevonden/ })).toBeVisible();
  await expect(page.getByText('De pagina die je zoekt bestaat niet of is verplaatst.')).toBeVisible();
  await page.getByRole('link', { name: 'Ga terug naar de startpagina' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/herinneringen voortleven/);

  // Client-side navigation to an unknown path shows the same screen.
  await page.evaluate(() => {
    history.pushState({}, '', '/ook-niet');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('heading', { name: /Oeps! Pagina niet gevonden/ })).toBeVisible();
});
