import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import {
  clickLogin,
  expectSignedIn,
  fillLogin,
  newUser,
  registerFromHeader,
  storedUser,
} from '../support/identity.ts';
import { waitForMail } from '../support/mailbox.ts';

const verifyLinkIn = (text: string) =>
  /https?:\/\/\S+\/login-actions\/verify-email\?token=\S+/.exec(text)?.[0];

/** At phone and desktop width: axe (WCAG 2.2) finds nothing serious; a screenshot goes with the output. */
async function checkScreen(page: Page, info: TestInfo, name: string) {
  const size = page.viewportSize();
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    const { violations } = await axeResults(page);
    expect(
      violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
      `${name} at ${width}px`,
    ).toEqual([]);
    await page.screenshot({ path: info.outputPath(`${name}-${width}.png`), fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

/** The provider's screens in both themes (the site's theme cookie), each checked. */
async function inBothThemes(page: Page, info: TestInfo, name: string, ready: () => Promise<void>) {
  for (const theme of ['light', 'dark'] as const) {
    await page
      .context()
      .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
    await page.reload();
    await ready();
    await checkScreen(page, info, `${name}-${theme}`);
  }
}

/**
 * Someone registers an address that is not theirs and chooses its password. When the real holder
 * follows the verification link from the mail on their own device, the link does not confirm it in one
 * click (that needs a sign-in of the account in that browser): without the password they choose one, and
 * the one chosen before stops working.
 */
test('the holder of the address confirms it by choosing a password; the password chosen before stops working', async ({
  page,
  browser,
}, info) => {
  const attacker = newUser('Iemand Anders');
  await page.goto('/prijzen');
  await registerFromHeader(page, attacker);
  await expectSignedIn(page, attacker);

  const mail = await waitForMail(
    (m) => m.to.includes(attacker.email) && m.subject === 'Bevestig je e-mailadres voor Aandenken',
  );
  const link = verifyLinkIn(mail.text);
  expect(link).toBeTruthy();

  // The holder of the mailbox, on their own device: opening the link asks who is confirming.
  const holderContext = await browser.newContext();
  const holder = await holderContext.newPage();
  await holder.goto(link!);
  await expect(holder.getByRole('heading', { level: 1, name: 'Bevestig je e-mailadres' })).toBeVisible();
  await expect(holder.getByText('Vul het wachtwoord van je account in')).toBeVisible();
  await inBothThemes(holder, info, 'verify-password', () =>
    expect(holder.getByRole('heading', { level: 1, name: 'Bevestig je e-mailadres' })).toBeVisible(),
  );
  // A guess is refused and confirms nothing; not knowing the password, they choose a new one.
  await holder.getByLabel('Wachtwoord').fill('misschien-is-het-dit');
  await holder.getByRole('button', { name: 'E-mailadres bevestigen' }).click();
  await expect(holder.getByLabel('Wachtwoord')).toHaveAccessibleDescription('Dit wachtwoord klopt niet.');
  await holder.getByRole('link', { name: 'Kies een nieuw wachtwoord' }).click();
  await expect(holder.getByRole('heading', { level: 1, name: 'Kies een nieuw wachtwoord' })).toBeVisible();
  await inBothThemes(holder, info, 'verify-new-password', () =>
    expect(holder.getByRole('heading', { level: 1, name: 'Kies een nieuw wachtwoord' })).toBeVisible(),
  );

  // A weak password is refused with the reason, and nothing changes yet.
  await holder.getByLabel('Nieuw wachtwoord').fill('password');
  await holder.getByLabel('Herhaal wachtwoord').fill('password');
  await holder.getByRole('button', { name: 'E-mailadres bevestigen' }).click();
  await expect(holder.getByRole('heading', { level: 1, name: 'Kies een nieuw wachtwoord' })).toBeVisible();
  await expect(holder.getByLabel('Nieuw wachtwoord')).toHaveAccessibleDescription(
    /Dit wachtwoord is te makkelijk te raden/,
  );

  const password = 'mijn-eigen-sterke-wachtwoord';
  await holder.getByLabel('Nieuw wachtwoord').fill(password);
  await holder.getByLabel('Herhaal wachtwoord').fill(password);
  await holder.getByRole('button', { name: 'E-mailadres bevestigen' }).click();
  await expect(holder.getByRole('heading', { name: 'Je e-mailadres is bevestigd' })).toBeVisible();
  await expect(holder.getByText('je wachtwoord is opgeslagen')).toBeVisible();
  await checkScreen(holder, info, 'verified-new-password-dark');

  // The link works once.
  const again = await holderContext.newPage();
  await again.goto(link!);
  await expect(again.getByRole('heading', { name: 'Deze link werkt niet meer' })).toBeVisible();
  await holderContext.close();

  // Whoever registered the address cannot sign in with the password they chose.
  const attackerContext = await browser.newContext();
  const second = await attackerContext.newPage();
  await second.goto('/contact');
  await clickLogin(second);
  await fillLogin(second, attacker.email, attacker.password);
  await expect(second.getByRole('alert')).toHaveText('Onjuist e-mailadres of wachtwoord.');

  // The holder's password works.
  await second.getByLabel('Wachtwoord').fill(password);
  await second.getByRole('button', { name: 'Inloggen', exact: true }).click();
  await expect(second.getByText('Je bent ingelogd', { exact: true })).toBeVisible();
  await expectSignedIn(second, attacker);
  await attackerContext.close();
});

/**
 * Confirming is one click in the browser that registered: no password, nobody signed out, and back where the
 * person was. Signing in from the header on the start page lands on Mijn Pagina's; from a page that needs
 * an account, on that page.
 */
test('one click on the mailed link confirms the address and returns the person, still signed in', async ({
  page,
  browser,
}, info) => {
  const user = newUser('Wim de Boer');
  await page
    .context()
    .addCookies([{ name: 'aandenken-theme', value: 'light', domain: 'localhost', path: '/' }]);
  await page.goto('/');
  await registerFromHeader(page, user);
  await expect(page).toHaveURL(/\/mijn-paginas$/);
  await expectSignedIn(page, user);

  const mail = await waitForMail(
    (m) => m.to.includes(user.email) && m.subject === 'Bevestig je e-mailadres voor Aandenken',
  );
  expect(mail.text).toContain('met één klik');
  const link = verifyLinkIn(mail.text)!;
  expect(new URL(link).searchParams.get('terug')).toBe('/mijn-paginas');

  // The mail opens in a new tab of the same browser: confirmed at once, nothing asked.
  const tab = await page.context().newPage();
  await tab.goto(link);
  await expect(tab.getByRole('heading', { level: 1, name: 'Je e-mailadres is bevestigd' })).toBeVisible();
  await expect(tab.getByLabel(/wachtwoord/i)).toHaveCount(0);
  await checkScreen(tab, info, 'verified-one-click-light');
  // On to where the person was, signed in without a password (the provider's session passes them through).
  await tab.getByRole('link', { name: 'Verder waar je was' }).click();
  await expect(tab).toHaveURL(/\/mijn-paginas$/);
  await expectSignedIn(tab, user);
  expect(await storedUser(tab)).not.toBeNull();
  await tab.close();

  // The first tab was not signed out: its session renews and it stays signed in.
  await page.reload();
  await expectSignedIn(page, user);

  // Elsewhere, a page that needs an account asks to sign in and returns there.
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  await elsewhere.goto('/account');
  await fillLogin(elsewhere, user.email, user.password);
  await expect(elsewhere).toHaveURL(/\/account$/);
  await expectSignedIn(elsewhere, user);
  await other.close();
});
