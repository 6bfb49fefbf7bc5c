import { expect, type Browser, type Page } from '@playwright/test';
import { clickLogin, fillLogin, fillRegistration, type TestUser } from './identity.ts';
import { waitForMail } from './mailbox.ts';

/** The team: the e2e server's ADMIN_EMAILS (support/serve.ts), with the password every spec uses. */
export const team: TestUser = {
  name: 'Team Aandenken',
  email: 'team@aandenken.test',
  password: 'lang-en-geheim-wachtwoord-1',
};

/**
 * Follows the verification link in `user`'s mail on `page`, in the browser that registered the account:
 * the team's own account, or a partner's or family's that a spec registers.
 */
export async function confirmAddress(page: Page, user: Pick<TestUser, 'email'>) {
  const mail = await waitForMail(
    (m) => m.to.includes(user.email) && m.subject === 'Bevestig je e-mailadres voor Aandenken',
  );
  const link = /https?:\/\/\S+\/login-actions\/verify-email\?token=\S+/.exec(mail.text)?.[0];
  expect(link, 'the verification link in the mail').toBeTruthy();
  // In the browser that registered (and so is signed in to the account) one click is enough.
  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Je e-mailadres is bevestigd' })).toBeVisible();
}

/**
 * The team's account, registered and its address confirmed on first use (in a context of its own, closed
 * after). Another spec or a retry on the same server may have made it already, with the same password.
 */
export async function ensureTeamAccount(browser: Browser) {
  const context = await browser.newContext();
  const register = await context.newPage();
  await register.goto('/prijzen');
  await clickLogin(register);
  await register.getByRole('link', { name: 'Account aanmaken' }).click();
  await fillRegistration(register, team);
  const exists = register.getByText('Er bestaat al een account met dit e-mailadres.', { exact: false });
  await expect(register.getByText('Je bent ingelogd', { exact: true }).or(exists)).toBeVisible();
  if (!(await exists.isVisible())) await confirmAddress(register, team);
  await context.close();
}

/**
 * The team signed in on /team/aanvragen ('Partneraanvragen'), in a new context of its own (the caller closes
 * it: `page.context().close()`); the account is made first when it does not exist yet.
 */
export async function signInTeam(browser: Browser): Promise<Page> {
  await ensureTeamAccount(browser);
  const page = await (await browser.newContext()).newPage();
  await page.goto('/team/aanvragen');
  // The screen sends a signed-out visitor to sign in; slow on a busy machine.
  await expect(page.getByRole('heading', { name: 'Inloggen' })).toBeVisible({ timeout: 30_000 });
  await fillLogin(page, team.email, team.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Partneraanvragen' })).toBeVisible();
  return page;
}
