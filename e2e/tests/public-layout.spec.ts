import { expect, test, type Page } from '@playwright/test';

const isPhone = (page: Page) => (page.viewportSize()?.width ?? 0) < 768;

test.describe('layout', () => {
  test('header: logo and links lead to their routes; Login when signed out', async ({ page }) => {
    await page.goto('/contact');
    const header = page.getByRole('banner');
    await expect(header).toBeVisible();
    expect(await header.evaluate((el) => getComputedStyle(el).position)).toBe('sticky');

    const links: [string, string][] = [
      ['Maak een pagina', '/create-memorial'],
      ['Bezoek besloten Pagina', '/beslotenpagina'],
      ['Contact', '/contact'],
    ];
    if (isPhone(page)) {
      // The side menu: a dialog that traps focus, lists the links and closes on navigation.
      await expect(header.getByRole('navigation', { name: 'Hoofdmenu' })).toBeHidden();
      for (const [name, path] of links) {
        await header.getByRole('button', { name: 'Menu openen' }).click();
        const sheet = page.getByRole('dialog');
        await expect(sheet).toBeVisible();
        await expect(sheet.getByRole('button', { name: 'Login' })).toBeVisible();
        await sheet.getByRole('link', { name, exact: true }).click();
        await expect(page).toHaveURL(path);
        await expect(sheet).toBeHidden();
      }
      await header.getByRole('button', { name: 'Menu openen' }).click();
      const sheet = page.getByRole('dialog');
      await page.keyboard.press('Tab');
      expect(await sheet.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      await page.keyboard.press('Escape');
      await expect(sheet).toBeHidden();
    } else {
      const nav = header.getByRole('navigation', { name: 'Hoofdmenu' });
      for (const [name, path] of links) {
        await nav.getByRole('link', { name, exact: true }).click();
        await expect(page).toHaveURL(path);
      }
      await expect(header.getByRole('button', { name: 'Login' })).toBeVisible();
      await expect(header.getByRole('button', { name: 'Menu openen' })).toBeHidden();
    }
    await header.getByRole('link', { name: /naar de startpagina/ }).click();
    await expect(page).toHaveURL('/');
  });

  test('theme: dark by default, Light and Dark kept across reloads without a flash', async ({ page }) => {
    await page.goto('/');
    const html = page.locator('html');
    await expect(html).toHaveClass(/dark/);

    await page.getByRole('button', { name: 'Thema wisselen' }).click();
    await expect(page.getByRole('menuitemradio', { name: 'Donker' })).toHaveAttribute('aria-checked', 'true');
    await page.getByRole('menuitemradio', { name: 'Licht' }).click();
    await expect(html).not.toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem('aandenken-theme'))).toBe('light');
    expect((await page.context().cookies()).find((c) => c.name === 'aandenken-theme')?.value).toBe('light');
    const lightBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);

    // The server sends the page in the kept theme: with the app's scripts blocked it is light all the same.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.reload();
    await expect(html).not.toHaveClass(/dark/);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(lightBackground);
    await page.unroute('**/assets/*.js');

    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(html).not.toHaveClass(/dark/);
    await page.getByRole('button', { name: 'Thema wisselen' }).click();
    await page.getByRole('menuitemradio', { name: 'Donker' }).click();
    await expect(html).toHaveClass(/dark/);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(
      lightBackground,
    );

    await page.route('**/assets/*.js', (route) => route.abort());
    await page.reload();
    await expect(html).toHaveClass(/dark/);
  });

  test('footer: links and placeholders, hidden on the spec’s paths', async ({ page }) => {
    await page.goto('/contact');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Prijzen' })).toHaveAttribute('href', '/prijzen');
    await expect(footer.getByRole('link', { name: 'Contact' }).first()).toHaveAttribute('href', '/contact');
    for (const label of ['Twitter', 'Web', 'Uitvaart ondernemingen', 'FAQ', 'Feature Requests']) {
      await expect(footer.getByText(label, { exact: true })).toBeVisible();
      await expect(footer.getByRole('link', { name: label, exact: true })).toHaveCount(0);
    }
    await footer.getByRole('link', { name: 'Prijzen' }).click();
    await expect(page).toHaveURL('/prijzen');
    await expect(page.getByRole('heading', { name: 'Prijzen' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toHaveCount(0);

    // The rules hold on client-side navigation (shown again on /) and on a fresh load of /beslotenpagina.
    await page
      .getByRole('banner')
      .getByRole('link', { name: /naar de startpagina/ })
      .click();
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await page.goto('/beslotenpagina');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
  });

  test('scroll-to-top appears after 400px and brings the page back up', async ({ page }) => {
    await page.goto('/');
    const button = page.getByRole('button', { name: 'Terug naar boven' });
    await expect(button).toHaveCount(0);
    await page.evaluate(() => window.scrollTo({ top: 390, behavior: 'instant' }));
    await page.waitForTimeout(200);
    await expect(button).toHaveCount(0);
    await page.evaluate(() => window.scrollTo({ top: 1200, behavior: 'instant' }));
    await expect(button).toBeVisible();
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(button).toHaveCount(0);
  });
});
