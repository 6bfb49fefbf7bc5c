import { afterPaint, expect, test, type Page } from '../support/test.ts';
import { exampleMemorialIds } from '@aandenken/contract';
import { axeResults } from '../support/axe.ts';

const isPhone = (page: Page) => (page.viewportSize()?.width ?? 0) < 768;

test.describe('layout', { tag: '@layout' }, () => {
  test('a tap before the app has started is kept and repeated once the app has taken over the page', async ({
    page,
  }) => {
    // The prerendered page paints first; the app's script is held back here (a slow phone network).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/prijzen');
    const header = page.getByRole('banner');
    const trigger = isPhone(page)
      ? header.getByRole('button', { name: 'Menu openen' })
      : header.getByRole('button', { name: 'Inloggen', exact: true });
    await trigger.click();
    await expect(page).toHaveURL('/prijzen');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    release();
    if (isPhone(page)) await expect(page.getByRole('dialog')).toBeVisible();
    else await expect(page.getByRole('link', { name: 'Account aanmaken' })).toBeVisible();
  });

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
        await expect(sheet.getByRole('button', { name: 'Inloggen' })).toBeVisible();
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
      await expect(header.getByRole('button', { name: 'Inloggen' })).toBeVisible();
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

  test('footer: every entry is a link with a target, hidden on the footer-less paths', async ({ page }) => {
    await page.goto('/contact');
    const footer = page.getByRole('contentinfo');
    await expect(footer).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Prijzen' })).toHaveAttribute('href', '/prijzen');
    await expect(footer.getByRole('link', { name: 'Contact' }).first()).toHaveAttribute('href', '/contact');
    await expect(footer.getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', '/privacy');
    await expect(footer.getByRole('link', { name: 'Voorwaarden' })).toHaveAttribute('href', '/voorwaarden');
    await expect(footer.getByRole('link', { name: 'Uitvaart ondernemingen' })).toHaveAttribute(
      'href',
      '/uitvaartondernemers',
    );
    // No placeholders without a target; the questions lead to the FAQ on /contact.
    for (const label of ['Twitter', 'Web', 'FAQ', 'Feature Requests']) {
      await expect(footer.getByText(label, { exact: true })).toHaveCount(0);
    }
    await footer.getByRole('link', { name: 'Veelgestelde vragen' }).click();
    await expect(page).toHaveURL('/contact#veelgestelde-vragen');
    await expect(page.getByRole('heading', { name: 'Veelgestelde vragen' })).toBeInViewport();
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
    await afterPaint(page);
    await expect(button).toHaveCount(0);
    await page.evaluate(() => window.scrollTo({ top: 1200, behavior: 'instant' }));
    await expect(button).toBeVisible();
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(button).toHaveCount(0);
  });
  test('the footer is hidden on a memorial page', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await page.goto(`/memorial/${exampleMemorialIds.johanna}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Johanna de Vries' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toHaveCount(0);
  });

  test('toasts: one at a time, the newest shown', async ({ page, browserErrors }) => {
    browserErrors.allow(/^Inloggen mislukt Error: No state in response/);
    // A callback without a sign-in to finish fails: 'Inloggen mislukt', then home.
    await page.goto('/auth/callback');
    await expect(page).toHaveURL('/');
    const toasts = page.locator('[data-sonner-toast]');
    await expect(toasts.filter({ hasText: 'Inloggen mislukt' })).toBeVisible();

    // A second toast within the 5 seconds, without a reload: the sign-out callback, reached in the app.
    await page.evaluate(() => {
      history.pushState({}, '', '/auth/logout-callback');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    const shown = page.locator('[data-sonner-toast][data-visible="true"]');
    await expect(shown).toContainText('Je bent uitgelogd');
    await expect(shown).toHaveCount(1);
    // sonner may keep the older toast in its list, but not shown (data-visible false, transparent).
    const older = toasts.filter({ hasText: 'Inloggen mislukt' });
    if ((await older.count()) > 0) {
      await expect(older).toHaveAttribute('data-visible', 'false');
      // Transparent, or already taken out of the rendering (no computed style left: '').
      await expect
        .poll(() => older.evaluateAll((els) => els.map((el) => getComputedStyle(el).opacity).join(',')))
        .toMatch(/^(0|)(,(0|))*$/);
    }
  });
  test('/ and /example load nothing from another origin', async ({ page, baseURL }) => {
    const foreign: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== new URL(baseURL!).origin)
        foreign.push(req.url());
    });
    for (const path of ['/', '/example']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // Down the whole page, so lazy images below the fold are requested too.
      for (let y = 0; y < (await page.evaluate(() => document.body.scrollHeight)); y += 600) {
        await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
        await afterPaint(page);
      }
      await page.waitForLoadState('networkidle');
    }
    expect(foreign).toEqual([]);
  });

  test('a page that cannot load says what to do under a working header and footer; the next page loads', async ({
    page,
    context,
    browserErrors,
  }, testInfo) => {
    // The page's code cannot be fetched (a deployment replaced it, the connection dropped): caused on purpose.
    browserErrors.allow(/dynamically imported module|Importing a module script failed|Unable to preload CSS/);
    for (const theme of ['light', 'dark'] as const) {
      await context.addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
      await page.goto('/contact');
      await page.waitForFunction(() =>
        Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer')),
      );
      // From here on no page's code arrives (chunks are named by their hash; the entry is already running).
      await page.route(/\/assets\/[a-z0-9]+\.js$/, (route) => route.abort());
      const footer = page.getByRole('contentinfo');
      await footer.getByRole('link', { name: 'Privacy', exact: true }).click();
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { level: 1, name: 'Er ging iets mis' })).toBeVisible();
      await expect(page).toHaveTitle('Er ging iets mis · Aandenken');
      await expect(
        main.getByText('Laad de pagina opnieuw, kies een andere of kom later terug.'),
      ).toBeVisible();
      await expect(main.getByRole('button', { name: 'Opnieuw laden' })).toBeVisible();
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(footer).toBeVisible();
      const { violations } = await axeResults(page);
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
      await page.screenshot({ path: testInfo.outputPath(`route-error-${theme}.png`), fullPage: true });
      // The code is there again: another page of the footer loads, in place of the message.
      await page.unroute(/\/assets\/[a-z0-9]+\.js$/);
      await footer.getByRole('link', { name: 'Voorwaarden', exact: true }).click();
      await expect(page).toHaveURL('/voorwaarden');
      await expect(page.getByRole('heading', { level: 1, name: 'Algemene voorwaarden' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Er ging iets mis' })).toHaveCount(0);
    }
  });
});
