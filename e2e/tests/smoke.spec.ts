import { exampleMemorialIds, routes } from '@aandenken/contract';
import { expect, test } from '../support/test.ts';

test('the built site is served with the app shell and security headers', async ({ page }) => {
  const res = await page.goto('/');
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toContain("object-src 'none'");
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('unknown paths answer 404', async ({ request }) => {
  expect((await request.get('/bestaat-niet')).status()).toBe(404);
  const api = await request.get('/core/bestaat-niet');
  expect(api.status()).toBe(404);
  expect(await api.json()).toMatchObject({ code: 'NOT_FOUND' });
});

test('every kind of page links the icons and the manifest, which Chromium reads without an error', async ({
  page,
  request,
}) => {
  // The prerendered landing page, a server-rendered memorial and company directory, the browser-rendered shell.
  for (const url of [
    '/',
    routes.memorial(exampleMemorialIds.johanna),
    routes.companyDirectory,
    routes.myPages,
  ]) {
    const head = /<head>[\s\S]*<\/head>/.exec(await (await request.get(url)).text())?.[0] ?? '';
    const links = [...head.matchAll(/<link rel="(icon|apple-touch-icon|manifest)" href="([^"]+)"/g)].map(
      ([, rel, href]) => `${rel} ${href}`,
    );
    expect(links, url).toEqual([
      'icon /favicon.ico',
      'icon /favicon.svg',
      'apple-touch-icon /apple-touch-icon.png',
      'manifest /manifest.webmanifest',
    ]);
  }
  await page.goto('/');
  const cdp = await page.context().newCDPSession(page);
  const manifest = await cdp.send('Page.getAppManifest');
  expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
  expect(manifest.errors).toEqual([]);
  expect(JSON.parse(manifest.data ?? '{}')).toMatchObject({ name: 'Aandenken', start_url: routes.myPages });
  // What Chromium itself requires before it offers to install the site, the icons fetched and decoded (Lighthouse
  // asks the same). A test's browser context is a private window, which Chromium names beside any other reason.
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([]);
});
