import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../support/test.ts';
import { clickLogin, fillLogin, fillRegistration, storedUser, type TestUser } from '../support/identity.ts';
import { jpegFixture } from '../support/app-memorial.ts';
import { waitForMail } from '../support/mailbox.ts';

/**
 * Issue 14, the partner's profile and the public side: an approved company's partner user fills in the
 * profile on /partner (details, logo, prices, work area), the public page /uitvaartondernemers/{slug} shows it,
 * and the directory finds the company by a place in its work area (also without JavaScript). Axe checks the
 * portal, the company page and the directory in both themes.
 */
async function expectNoSeriousViolations(page: Page, what: string) {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect.soft(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

async function checkBothThemes(page: Page, what: string, ready: () => Promise<void>) {
  for (const theme of ['light', 'dark'] as const) {
    await page
      .context()
      .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
    await page.reload();
    await ready();
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b).*$/);
    await expectNoSeriousViolations(page, `${what} (${theme})`);
  }
}

async function confirmAddress(page: Page, user: TestUser) {
  const mail = await waitForMail(
    (m) => m.to.includes(user.email) && m.subject === 'Bevestig je e-mailadres voor Aandenken',
  );
  const link = /https?:\/\/\S+\/login-actions\/verify-email\?token=\S+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  await page.goto(link!);
  await page.getByLabel('Nieuw wachtwoord').fill(user.password);
  await page.getByLabel('Herhaal wachtwoord').fill(user.password);
  await page.getByRole('button', { name: 'E-mailadres bevestigen' }).click();
  await expect(page.getByRole('heading', { name: 'Je e-mailadres is bevestigd' })).toBeVisible();
}

test('a partner sets up the profile; the public page shows it and the directory finds it by place', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(240_000);
  const tag = `${info.project.name}${Date.now().toString(36)}`;
  const company = `Uitvaartzorg Heuvelrug ${tag}`;
  const applicant: TestUser = {
    name: 'Bram Heuvel',
    email: `bram.${tag}@uitvaart.test`,
    password: 'zonnebloem-en-regen-42',
  };

  // Set-up (the UI path of these steps is team-review.spec.ts): the application, the team's approval.
  const applied = await page.request.post('/core/companies/request', {
    data: {
      companyType: 'FuneralDirector',
      firstName: 'Bram',
      lastName: 'Heuvel',
      companyName: company,
      streetName: 'Slotlaan',
      houseNumber: '3',
      postalCode: '3701 AA',
      phoneNumber: '030 123 45 67',
      email: applicant.email,
    },
  });
  expect(applied.status()).toBe(201);
  const { id } = (await applied.json()) as { id: string };
  const team: TestUser = {
    name: 'Team Aandenken',
    email: 'team@aandenken.test',
    password: 'lang-en-geheim-wachtwoord-1',
  };
  const teamContext = await browser.newContext();
  const teamPage = await teamContext.newPage();
  await teamPage.goto('/prijzen');
  await clickLogin(teamPage);
  await teamPage.getByRole('link', { name: 'Account aanmaken' }).click();
  await fillRegistration(teamPage, team);
  const exists = teamPage.getByText('Er bestaat al een account met dit e-mailadres.', { exact: false });
  await expect(teamPage.getByText('Je hebt succesvol ingelogged').or(exists)).toBeVisible();
  if (!(await exists.isVisible())) await confirmAddress(teamPage, team);
  const reviewContext = await browser.newContext();
  const review = await reviewContext.newPage();
  await review.goto('/team/aanvragen');
  await fillLogin(review, team.email, team.password);
  await expect(review.getByRole('heading', { level: 1, name: 'Partneraanvragen' })).toBeVisible();
  const teamToken = (await storedUser(review))!.access_token;
  const approved = await review.request.post(`/core/team/applications/${id}/approve`, {
    headers: { authorization: `Bearer ${teamToken}` },
  });
  expect(approved.status()).toBe(200);
  await teamContext.close();

  // The applicant registers from the approval mail, confirms the address and signs in again.
  const approval = await waitForMail(
    (m) => m.to.includes(applicant.email) && m.subject === 'Je partneraanvraag is goedgekeurd',
  );
  const link = /https?:\/\/\S+\/partner\?login_hint=\S+/.exec(approval.text)?.[0];
  expect(link).toBeTruthy();
  const registerContext = await browser.newContext();
  const register = await registerContext.newPage();
  await register.goto(new URL(link!).pathname + new URL(link!).search);
  await register.getByRole('button', { name: 'Account aanmaken' }).click();
  await fillRegistration(register, applicant);
  await expect(register.getByRole('heading', { level: 1, name: 'Partner' })).toBeVisible();
  await confirmAddress(register, applicant);
  await registerContext.close();
  const partnerContext = await browser.newContext();
  const partner = await partnerContext.newPage();
  await partner.goto('/partner');
  await partner.getByRole('button', { name: 'Inloggen' }).click();
  await fillLogin(partner, applicant.email, applicant.password);
  await expect(partner.getByRole('heading', { level: 2, name: company })).toBeVisible();

  // The portal: the 'Profiel' tab, filled in.
  const tab = partner.getByRole('tab', { name: 'Profiel' });
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  const panel = partner.getByRole('tabpanel', { name: 'Profiel' });
  await expect(panel.getByLabel(/^Bedrijfsnaam/)).toHaveValue(company);
  await panel.getByLabel(/^Plaats/).fill('Zeist');
  await panel.getByLabel(/^Website/).fill('https://www.heuvelrug-uitvaart.nl');
  await panel.getByLabel(/^Korte omschrijving/).fill('Persoonlijke uitvaarten op de Utrechtse Heuvelrug.');
  await panel.getByRole('button', { name: 'Pakket toevoegen' }).click();
  await panel.getByLabel(/^Naam/).fill('Basis');
  await panel.getByLabel(/^Bedrag in euro/).fill('3.950');
  await panel.getByLabel(/^Omschrijving \(optioneel\)/).fill('Verzorging, kist en begeleiding');
  const municipality = panel.getByLabel('Gemeente toevoegen');
  await municipality.fill('Atlantis');
  await panel.getByRole('button', { name: 'Toevoegen', exact: true }).click();
  await expect(panel.getByRole('alert')).toContainText('geen Nederlandse gemeente');
  await municipality.fill('zeist');
  await municipality.press('Enter');
  await municipality.fill('De Bilt');
  await panel.getByRole('button', { name: 'Toevoegen', exact: true }).click();
  const chosen = panel.getByRole('list', { name: 'Gekozen gemeenten' });
  await expect(chosen.getByRole('listitem')).toHaveText(['De Bilt', 'Zeist']);
  await panel.getByLabel(/^Postcodegebieden/).fill('3700-3709');
  // A mistake in a field is said there, in Dutch, before anything is sent.
  await panel.getByLabel(/^Bedrag in euro/).fill('drie');
  await panel.getByRole('button', { name: 'Profiel opslaan' }).click();
  await expect(panel.getByText('Voer een bedrag in euro in')).toBeVisible();
  await panel.getByLabel(/^Bedrag in euro/).fill('3.950');
  await panel.getByRole('button', { name: 'Profiel opslaan' }).click();
  await expect(partner.getByText('Profiel opgeslagen')).toBeVisible();

  // The logo, through the media pipeline.
  await panel.getByLabel('Logo kiezen').setInputFiles(await jpegFixture('logo.jpg', 200));
  await expect(panel.getByRole('img', { name: `Huidig logo van ${company}` })).toBeVisible();
  const slug = (await partner.getByRole('link', { name: 'Bekijk uw openbare pagina' }).getAttribute('href'))!
    .split('/')
    .pop()!;
  await checkBothThemes(partner, '/partner (Profiel)', () =>
    expect(partner.getByRole('tabpanel', { name: 'Profiel' }).getByLabel(/^Plaats/)).toHaveValue('Zeist'),
  );

  // The public page, as an anonymous visitor.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/uitvaartondernemers/${slug}`);
  await expect(visitor.getByRole('heading', { level: 1, name: company })).toBeVisible();
  await expect(visitor.getByText('€ 3.950,00')).toBeVisible();
  await expect(visitor.getByText('Verzorging, kist en begeleiding')).toBeVisible();
  await expect(visitor.getByRole('listitem').filter({ hasText: /^De Bilt$/ })).toBeVisible();
  await expect(visitor.getByText('3700 – 3709')).toBeVisible();
  await expect(visitor.getByRole('img', { name: `Logo van ${company}` })).toBeVisible();
  expect(
    await visitor
      .getByRole('img', { name: `Logo van ${company}` })
      .evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBeGreaterThan(0);
  await checkBothThemes(visitor, '/uitvaartondernemers/{slug}', () =>
    expect(visitor.getByRole('heading', { level: 1, name: company })).toBeVisible(),
  );

  // The directory finds it by a place in its work area.
  await visitor.goto('/uitvaartondernemers');
  await visitor.getByLabel('Plaats of postcode').fill('Den Dolder');
  await visitor.getByRole('button', { name: 'Zoeken' }).click();
  await expect(visitor).toHaveURL(/\?q=Den\+Dolder$/);
  await expect(visitor.getByRole('status')).toContainText('in de gemeente Zeist');
  await visitor.getByRole('link', { name: company }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: company })).toBeVisible();
  await visitorContext.close();

  // Without JavaScript, the search form still works (a plain GET form, answered by the server).
  const plainContext = await browser.newContext({ javaScriptEnabled: false });
  const plain = await plainContext.newPage();
  await plain.goto('/uitvaartondernemers');
  await plain.getByLabel('Plaats of postcode').fill('3705 AB');
  await plain.getByRole('button', { name: 'Zoeken' }).click();
  await expect(plain).toHaveURL(/\?q=3705\+AB$/);
  await expect(plain.getByRole('link', { name: company })).toBeVisible();
  await plainContext.close();
  await partnerContext.close();
  await reviewContext.close();
});

test('the directory: search, empty state and accessibility in both themes @layout', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Uitvaart ondernemingen' }).click();
  await expect(page).toHaveURL('/uitvaartondernemers');
  await expect(page.getByRole('heading', { level: 1, name: 'Vind een uitvaartondernemer' })).toBeVisible();
  await page.getByLabel('Plaats of postcode').fill('Atlantis');
  await page.getByRole('button', { name: 'Zoeken' }).click();
  await expect(page.getByRole('status')).toContainText('We kennen geen plaats of postcode ‘Atlantis’');
  await page.goto('/uitvaartondernemers?q=Schiermonnikoog');
  await expect(page.getByRole('status')).toContainText(
    'Er zijn (nog) geen partners die in de gemeente Schiermonnikoog werken.',
  );
  await expect(page.getByRole('link', { name: 'Neem contact op' })).toBeVisible();
  await checkBothThemes(page, '/uitvaartondernemers (leeg)', () =>
    expect(page.getByRole('heading', { level: 1, name: 'Vind een uitvaartondernemer' })).toBeVisible(),
  );
  // An unknown company is the site's 404 page.
  const res = await page.goto('/uitvaartondernemers/bestaat-niet');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: /Pagina niet gevonden/ })).toBeVisible();
});
