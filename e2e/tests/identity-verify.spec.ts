import { expect, test } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { clickLogin, expectSignedIn, fillLogin, newUser, registerFromHeader } from '../support/identity.ts';
import { waitForMail } from '../support/mailbox.ts';

/**
 * Issue 13.1: someone registers an address that is not theirs and chooses its password. When the real holder
 * follows the verification link from the mail, they choose the password; the one chosen before stops working.
 */
test('the holder of the address confirms it by choosing a password; the password chosen before stops working', async ({
  page,
  browser,
}) => {
  const attacker = newUser('Iemand Anders');
  await page.goto('/prijzen');
  await registerFromHeader(page, attacker);
  await expectSignedIn(page, attacker);

  const mail = await waitForMail(
    (m) => m.to.includes(attacker.email) && m.subject === 'Bevestig je e-mailadres voor Aandenken',
  );
  const link = /https?:\/\/\S+\/login-actions\/verify-email\?token=\S+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();

  // The holder of the mailbox, on their own device.
  const holderContext = await browser.newContext();
  const holder = await holderContext.newPage();
  await holder.goto(link!);
  await expect(holder.getByRole('heading', { level: 1, name: 'Bevestig je e-mailadres' })).toBeVisible();
  await expect(holder.getByText('Heb je het account zelf aangemaakt?')).toBeVisible();

  const { violations } = await axeResults(holder);
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);

  // A weak password is refused with the reason, and nothing changes yet.
  await holder.getByLabel('Nieuw wachtwoord').fill('password');
  await holder.getByLabel('Herhaal wachtwoord').fill('password');
  await holder.getByRole('button', { name: 'E-mailadres bevestigen' }).click();
  await expect(holder.getByRole('heading', { level: 1, name: 'Bevestig je e-mailadres' })).toBeVisible();
  await expect(holder.getByLabel('Nieuw wachtwoord')).toHaveAccessibleDescription(
    /Dit wachtwoord is te makkelijk te raden/,
  );

  const password = 'mijn-eigen-sterke-wachtwoord';
  await holder.getByLabel('Nieuw wachtwoord').fill(password);
  await holder.getByLabel('Herhaal wachtwoord').fill(password);
  await holder.getByRole('button', { name: 'E-mailadres bevestigen' }).click();
  await expect(holder.getByRole('heading', { name: 'Je e-mailadres is bevestigd' })).toBeVisible();
  await expect(holder.getByText('je wachtwoord is opgeslagen')).toBeVisible();

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
