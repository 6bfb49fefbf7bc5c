import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { fillLogin, fillRegistration, type TestUser } from '../support/identity.ts';
import { waitForMail } from '../support/mailbox.ts';
import { confirmAddress, signInTeam } from '../support/team.ts';

/**
 * The team's review: a company applies on /bedrijf, a team member (ADMIN_EMAILS of the e2e server)
 * approves it on /team/aanvragen, the applicant registers from the approval mail, confirms the address,
 * and is the company's partner user. Axe checks both new screens in both themes.
 */
async function expectNoSeriousViolations(page: Page, what: string) {
  const result = await axeResults(page);
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect.soft(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

async function checkBothThemes(page: Page, what: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page
      .context()
      .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b).*$/);
    await expectNoSeriousViolations(page, `${what} (${theme})`);
  }
}

test('a company applies, the team approves, the applicant registers from the mail and is its partner user', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(180_000);
  const tag = `${info.project.name}${Date.now().toString(36)}`;
  const company = `Uitvaartzorg Linde ${tag}`;
  const applicant: TestUser = {
    name: 'Anna de Boer',
    email: `anna.${tag}@uitvaart.test`,
    password: 'zonnebloem-en-regen-42',
  };

  // 1. The application on /bedrijf.
  await page.goto('/bedrijf');
  await page.getByLabel(/^Soort partner\*?$/).selectOption({ label: 'Uitvaartondernemer' });
  await page.getByLabel(/^Voornaam\*?$/).fill('Anna');
  await page.getByLabel(/^Achternaam\*?$/).fill('de Boer');
  await page.getByLabel(/^Bedrijfsnaam\*?$/).fill(company);
  await page.getByLabel(/^Straatnaam\*?$/).fill('Oudegracht');
  await page.getByLabel(/^Huisnummer\*?$/).fill('12a');
  await page.getByLabel(/^Postcode\*?$/).fill('3511 AB');
  await page.getByLabel(/^Telefoonnummer\*?$/).fill('030 123 45 67');
  await page.getByLabel(/^E-mailadres\*?$/).fill(applicant.email);
  await page.getByLabel(/^Aanvullende informatie\*?$/).fill('Werkgebied: Utrecht.');
  await page.getByRole('button', { name: 'Aanvraag versturen' }).click();
  await expect(page.getByRole('heading', { name: 'Bedankt voor je aanvraag!' })).toBeVisible();

  // 2. A team member (the e2e server's ADMIN_EMAILS) registers, confirms the address and signs in again.
  const review = await signInTeam(browser);
  const card = review.getByRole('article', { name: company });
  await expect(card).toBeVisible();
  await expect(card.getByText('Werkgebied: Utrecht.')).toBeVisible();
  await expect(card.getByText(applicant.email)).toBeVisible();
  await checkBothThemes(review, '/team/aanvragen');

  // The account menu leads the team here.
  await review.getByRole('button', { name: /account van Team Aandenken/i }).click();
  await expect(review.getByRole('menuitem', { name: 'Partneraanvragen' })).toHaveAttribute(
    'href',
    '/team/aanvragen',
  );
  await review.keyboard.press('Escape');

  await review
    .getByRole('article', { name: company })
    .getByRole('button', { name: `${company} goedkeuren` })
    .click();
  await expect(review.getByRole('article', { name: company })).toHaveCount(0);
  const row = review.getByRole('row', { name: new RegExp(company) });
  await expect(row.getByRole('cell', { name: 'Actief' })).toBeVisible();
  // The team grants the role to someone else (rights once that person confirms the address).
  const colleague = `collega.${tag}@aandenken.test`;
  await review.getByLabel(/^E-mailadres van het nieuwe teamlid/).fill(colleague);
  await review.getByRole('button', { name: 'Toevoegen aan het team' }).click();
  await expect(review.getByRole('button', { name: `${colleague} uit het team halen` })).toBeVisible();

  // 3. The applicant opens the link in the approval mail, registers with that address and confirms it.
  const approval = await waitForMail(
    (m) => m.to.includes(applicant.email) && m.subject === 'Je partneraanvraag is goedgekeurd',
  );
  expect(approval.text).not.toContain(company);
  const link = /https?:\/\/\S+\/partner\?login_hint=\S+/.exec(approval.text)?.[0];
  expect(link).toBeTruthy();
  const applicantContext = await browser.newContext();
  const partner = await applicantContext.newPage();
  await partner.goto(new URL(link!).pathname + new URL(link!).search);
  await expect(partner.getByText(applicant.email)).toBeVisible();
  await checkBothThemes(partner, '/partner (signed out)');
  await partner.getByRole('button', { name: 'Account aanmaken' }).click();
  await fillRegistration(partner, applicant);
  await expect(partner.getByRole('heading', { level: 1, name: 'Partner' })).toBeVisible();
  // Not yet: the address has not proven itself.
  await expect(partner.getByText('Er is (nog) geen bedrijf aan je account gekoppeld.')).toBeVisible();
  await confirmAddress(partner, applicant);

  // 4. Signed in again after the confirmation, the account is the company's partner user.
  const signedInContext = await browser.newContext();
  const mine = await signedInContext.newPage();
  await mine.goto('/partner');
  await mine.getByRole('main').getByRole('button', { name: 'Inloggen' }).click();
  await fillLogin(mine, applicant.email, applicant.password);
  await expect(mine.getByRole('heading', { level: 2, name: company })).toBeVisible();
  await expect(mine.getByText('Je bedrijf is goedgekeurd.')).toBeVisible();
  await checkBothThemes(mine, '/partner');
  await mine.getByRole('button', { name: /account van Anna de Boer/i }).click();
  await expect(mine.getByRole('menuitem', { name: 'Partner' })).toHaveAttribute('href', '/partner');
  await applicantContext.close();
  await signedInContext.close();
  await review.context().close();
});
