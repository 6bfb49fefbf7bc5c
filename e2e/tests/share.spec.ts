import fs from 'node:fs';
import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { CoreApi } from '../support/app-api.ts';
import { createMemorialAsNewOwner } from '../support/app-memorial.ts';

/** Where the share menu's screenshots go (looked at by hand; not compared). */
const SHOTS = process.env.E2E_SHOTS_DIR ?? 'test-results/share-shots';

/** A published page of a new owner, with its address as the API gives it. */
async function publishedPage(page: Page, visibility: 'public' | 'private') {
  const lastName = `Delen ${Date.now().toString(36)}`;
  const { id } = await createMemorialAsNewOwner(page, 'Johanna', lastName);
  const api = await CoreApi.as(page);
  const m = (await api.update(id, {
    status: 'active',
    visibility,
    birthDate: '1948-03-02',
    deathDate: '2024-01-09',
  })) as { accessCode: string | null; slug?: string };
  return { id, name: `Johanna ${lastName}`, slug: m.slug!, accessCode: m.accessCode };
}

test('an owner of a private page shares link and code in one message from the menu', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { name, slug, accessCode } = await publishedPage(page, 'private');
  expect(slug).toMatch(/^johanna-delen-[a-z0-9]+-1948-2024$/);
  const code = accessCode!.replace(/^(\d{4})(\d{4})$/, '$1 $2');
  const message = `Bekijk de gedenkpagina van ${name}: ${baseURL}/gedenkpagina/${slug} — de toegangscode is ${code}.`;

  // The readable address opens the page for its owner.
  await page.goto(`/gedenkpagina/${slug}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.getByRole('button', { name: 'Delen' }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'WhatsApp' })).toHaveAttribute(
    'href',
    `https://wa.me/?text=${encodeURIComponent(message)}`,
  );
  await expect(menu.getByRole('menuitem', { name: 'E-mail' })).toHaveAttribute(
    'href',
    `mailto:?subject=${encodeURIComponent(`${name} · Aandenken`)}&body=${encodeURIComponent(message)}`,
  );
  await menu.getByRole('menuitem', { name: 'Link en code kopiëren' }).click();
  await expect(menu).toBeHidden();
  await expect(
    page.getByRole('status').filter({ hasText: 'Link en toegangscode gekopieerd' }),
  ).toBeAttached();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(message);

  // Whoever gets the message and opens the link is asked for the code, and the code opens the page.
  const visitor = await page.context().browser()!.newPage();
  await visitor.goto(`${baseURL}/gedenkpagina/${slug}`);
  await expect(
    visitor.getByRole('heading', { name: 'Deze pagina bestaat niet of is besloten' }),
  ).toBeVisible();
  await visitor.close();
});

test('a visitor of a public page copies its readable address', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { id, slug } = await publishedPage(page, 'public');
  const visitor = await context.browser()!.newContext({ baseURL });
  await visitor.grantPermissions(['clipboard-read', 'clipboard-write']);
  const tab = await visitor.newPage();
  // A tap before the app has taken over the server's HTML (its script held back here, a slow phone network)
  // is kept by public/boot.js and repeated once the app and the page's own code are there.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await tab.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  // The id address still works; Delen gives the readable one.
  await tab.goto(`/memorial/${id}`);
  await tab.getByRole('button', { name: 'Delen' }).click();
  await expect(tab.getByRole('menu')).toHaveCount(0);
  release();
  await tab.getByRole('menuitem', { name: 'Link kopiëren' }).click();
  expect(await tab.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/gedenkpagina/${slug}`);
  await visitor.close();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 412, height: 915 }, hasTouch: true, isMobile: true });

  test('Delen opens the phone’s own share sheet with the page’s title, text and address', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const { name, slug } = await publishedPage(page, 'public');
    // The browser's share sheet is the boundary: stand in for it and keep what it was given.
    await page.addInitScript(() => {
      const w = window as unknown as { shared: ShareData[] };
      w.shared = [];
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: (data: ShareData) => {
          w.shared.push(data);
          return Promise.resolve();
        },
      });
    });
    await page.goto(`/gedenkpagina/${slug}`);
    await page.getByRole('button', { name: 'Delen' }).tap();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared))
      .toEqual([
        {
          title: `${name} · Aandenken`,
          text: `Bekijk de gedenkpagina van ${name}.`,
          url: `${baseURL}/gedenkpagina/${slug}`,
        },
      ]);
    await expect(page.getByRole('menu')).toHaveCount(0);
  });
});

for (const theme of ['light', 'dark'] as const) {
  test(
    `the memorial page with the share menu open is accessible in the ${theme} theme`,
    { tag: '@layout' },
    async ({ page }, testInfo) => {
      test.setTimeout(120_000);
      const { slug } = await publishedPage(page, 'private');
      await page
        .context()
        .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
      await page.goto(`/gedenkpagina/${slug}`);
      // Opened with the button low on the screen (scrolled up to it from below), as on a phone.
      const delen = page.getByRole('button', { name: 'Delen' });
      await delen.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().bottom - innerHeight + 60));
      await delen.click();
      const menu = page.getByRole('menu');
      await expect(menu).toBeVisible();
      const result = await axeResults(page);
      // The page made room: the menu lies under the button, on the screen, not over the name and years.
      const button = (await delen.boundingBox())!;
      const box = (await menu.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(button.y + button.height);
      expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);
      const serious = result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({
          rule: v.id,
          nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
        }));
      expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/${testInfo.project.name}-${theme}.png` });
      // Escape closes it and gives the focus back to the button.
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(page.getByRole('button', { name: 'Delen' })).toBeFocused();
    },
  );
}
