import { expect, test, type Page } from '../support/test.ts';
import {
  clickLogin,
  expectSignedIn,
  expectSignedOut,
  fillLogin,
  fillRegistration,
  logOut,
  newUser,
  registerFromHeader,
  storedUser,
} from '../support/identity.ts';
import { chunkPaths, requestsOneOf } from '../support/bundle.ts';

test(
  'log out and log in again, with the return URL kept and a wrong password refused',
  { tag: ['@database', '@layout'] },
  async ({ page }) => {
    const user = newUser('Lotte Smits');
    await page.goto('/prijzen');
    await registerFromHeader(page, user);
    await expect(page).toHaveURL(/\/prijzen$/);
    await expectSignedIn(page, user);

    await logOut(page, user);
    await expect(page.getByText('Je bent uitgelogd', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/prijzen$/);
    await expectSignedOut(page);
    expect(await storedUser(page)).toBeNull();

    await page.goto('/contact?onderwerp=vraag');
    await clickLogin(page);
    await fillLogin(page, user.email, 'dit-is-niet-het-wachtwoord');
    await expect(page.getByRole('alert')).toHaveText('Onjuist e-mailadres of wachtwoord.');
    await expect(page.getByLabel('E-mailadres')).toHaveValue(user.email);
    await page.getByLabel('Wachtwoord').fill(user.password);
    await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
    await expect(page.getByText('Je bent ingelogd', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/contact\?onderwerp=vraag$/);
    await expectSignedIn(page, user);

    // A reload keeps the session (session storage) without a new login.
    await page.reload();
    await expectSignedIn(page, user);
  },
);

test('a broken login answer shows the login error and goes home', async ({ page, browserErrors }) => {
  browserErrors.allow(/^Inloggen mislukt Error: No matching state found in storage/);
  await page.goto('/auth/callback?code=verzonnen&state=onbekend');
  await expect(page.getByText('Er is een fout opgetreden bij het inloggen')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test('silent renewal keeps a person signed in past the access token’s expiry', async ({ page }) => {
  // The browser's clock runs as usual, and jumps ahead where the test would otherwise wait for expiry.
  await page.clock.install();
  const user = newUser('Daan Hendriks');
  await page.goto('/mijn-paginas');
  await page.getByRole('link', { name: 'Account aanmaken' }).click();
  await fillRegistration(page, user);
  await expect(page.getByText("Je hebt nog geen gedenkpagina's.")).toBeVisible();

  const first = (await storedUser(page))!;
  expect(first.expires_at - Date.now() / 1000).toBeLessThanOrEqual(71);
  // Past the first access token's expiry: the client's timers fire as they would have by then.
  await pastExpiry(page, first.expires_at);
  await expect.poll(async () => (await storedUser(page))?.access_token).not.toBe(first.access_token);
  const now = (await storedUser(page))!;
  expect(now.expires_at * 1000).toBeGreaterThan(await browserNow(page));
  await expectSignedIn(page, user);
  // The API still takes the renewed token: the list loads again after a reload.
  await page.reload();
  await expect(page.getByText("Je hebt nog geen gedenkpagina's.")).toBeVisible();
});

test('visitors who do not sign in never load the identity client', async ({ page }) => {
  const identityChunks: string[] = [];
  const oidcSession = chunkPaths('oidc-session');
  page.on('request', (req) => {
    if (requestsOneOf(req.url(), oidcSession)) identityChunks.push(req.url());
  });
  await page.goto('/');
  await page.goto('/create-memorial');
  await page.goto('/prijzen');
  await page.waitForLoadState('networkidle');
  expect(identityChunks).toEqual([]);

  await clickLogin(page);
  await expect(page.getByRole('heading', { name: 'Inloggen' })).toBeVisible();
  expect(identityChunks).toHaveLength(1);
});

test('two tabs sharing one session both stay signed in through renewals (no refresh-token reuse)', async ({
  page,
  context,
}) => {
  await context.clock.install();
  const user = newUser('Tessa Bos');
  await page.goto('/mijn-paginas');
  await page.getByRole('link', { name: 'Account aanmaken' }).click();
  await fillRegistration(page, user);
  await expect(page.getByText("Je hebt nog geen gedenkpagina's.")).toBeVisible();

  // Stay on a page that does not sign anyone in by itself, so a lost session would show.
  await page.goto('/prijzen');
  // Right after a renewal (every 10 s here), so the copy below is not overtaken by the next one.
  const before = (await storedUser(page))!.access_token;
  await context.clock.fastForward(11_000);
  await expect.poll(async () => (await storedUser(page))?.access_token).not.toBe(before);
  // A tab opened from this one starts with a copy of its session storage: the same refresh token.
  const [second] = await Promise.all([
    context.waitForEvent('page'),
    page.evaluate(() => void window.open('/prijzen')),
  ]);
  const refused: string[] = [];
  for (const tab of [page, second]) {
    tab.on('response', (res) => {
      if (res.url().endsWith('/protocol/openid-connect/token') && res.status() !== 200)
        refused.push(res.url());
    });
  }
  await second.waitForLoadState();
  const first = (await storedUser(page))!;
  expect((await storedUser(second))!.refresh_token).toBe(first.refresh_token);
  await expectSignedIn(second, user);

  // Both renew at the same moments (every 10 s here). Reusing a refresh token would revoke the session and
  // sign both tabs out; serialised renewals keep both signed in with fresh tokens.
  await pastExpiry(page, first.expires_at);
  for (const tab of [page, second]) {
    await expect.poll(async () => (await storedUser(tab))?.access_token).not.toBe(first.access_token);
  }
  expect(refused, 'no refresh was refused').toEqual([]);
  for (const tab of [page, second]) {
    await expect(tab).toHaveURL(/\/prijzen$/);
    const now = await storedUser(tab);
    expect(now, 'still signed in').not.toBeNull();
    expect(now!.expires_at * 1000).toBeGreaterThan(await browserNow(tab));
    await expectSignedIn(tab, user);
    await tab.goto('/mijn-paginas');
    await expect(tab.getByText("Je hebt nog geen gedenkpagina's.")).toBeVisible();
  }
});

/** The browser's own time (its clock is installed by the test, so it may run ahead of this process's). */
const browserNow = (page: Page) => page.evaluate(() => Date.now());

/** Moves the browser's clock 2 s past an expiry (seconds since the epoch), firing the timers due by then. */
async function pastExpiry(page: Page, expiresAt: number) {
  await page.clock.fastForward(Math.max(0, expiresAt * 1000 - (await browserNow(page))) + 2_000);
}
