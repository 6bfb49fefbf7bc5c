import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../support/test.ts';
import { clickLogin, fillLogin, fillRegistration, storedUser, type TestUser } from '../support/identity.ts';
import { waitForMail } from '../support/mailbox.ts';

/**
 * Issue 14, the partner portal's pages for families: an approved company's user invites a colleague and
 * makes a page for a family; the family opens the mail's link, registers, confirms the address, takes
 * the page over and lets "Verzorgd door" show. Axe checks the portal and the handover screen in both
 * themes. (The application and the team's review are team-review.spec.ts; set up here through the API.)
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

/** Follows the verification link of `user`'s mail and chooses the password (the first verification asks). */
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

const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

test('a partner invites a colleague, makes a page for a family, and the family takes it over', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(240_000);
  const tag = `${info.project.name}${Date.now().toString(36)}`;
  const company = `Uitvaartzorg Eik ${tag}`;
  const partner: TestUser = {
    name: 'Eva Eik',
    email: `eva.${tag}@uitvaart.test`,
    password: 'eikenhout-en-mos-42',
  };
  const family: TestUser = {
    name: 'Familie Willems',
    email: `willems.${tag}@familie.test`,
    password: 'herfstbladeren-in-de-tuin-7',
  };

  // 1. The application (API) and the team's approval (a confirmed team account, then the API).
  const applied = await page.request.post('/core/companies/request', {
    data: {
      companyType: 'FuneralDirector',
      firstName: 'Eva',
      lastName: 'Eik',
      companyName: company,
      streetName: 'Eikenlaan',
      houseNumber: '3',
      postalCode: '3511 AB',
      phoneNumber: '030 123 45 67',
      email: partner.email,
    },
  });
  expect(applied.status()).toBe(201);
  const companyId = ((await applied.json()) as { id: string }).id;
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
  // On a retry against the same server the team's account exists (and was confirmed) already.
  const exists = teamPage.getByText('Er bestaat al een account met dit e-mailadres.', { exact: false });
  await expect(teamPage.getByText('Je hebt succesvol ingelogged').or(exists)).toBeVisible();
  if (!(await exists.isVisible())) await confirmAddress(teamPage, team);
  const review = await (await browser.newContext()).newPage();
  await review.goto('/team/aanvragen');
  await fillLogin(review, team.email, team.password);
  await expect(review.getByRole('heading', { level: 1, name: 'Partneraanvragen' })).toBeVisible();
  const token = (await storedUser(review))!.access_token;
  const approved = await review.request.post(`/core/team/applications/${companyId}/approve`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(approved.status(), await approved.text()).toBe(200);
  await teamContext.close();
  await review.context().close();

  // 2. The partner registers from the approval mail, confirms the address and signs in again.
  const approval = await waitForMail(
    (m) => m.to.includes(partner.email) && m.subject === 'Je partneraanvraag is goedgekeurd',
  );
  const registerContext = await browser.newContext();
  const registering = await registerContext.newPage();
  await registering.goto(pathOf(/https?:\/\/\S+\/partner\?login_hint=\S+/.exec(approval.text)![0]));
  await registering.getByRole('button', { name: 'Account aanmaken' }).click();
  await fillRegistration(registering, partner);
  await expect(registering.getByRole('heading', { level: 1, name: 'Partner' })).toBeVisible();
  await confirmAddress(registering, partner);
  await registerContext.close();
  const portalContext = await browser.newContext();
  const portal = await portalContext.newPage();
  await portal.goto('/partner');
  await portal.getByRole('button', { name: 'Inloggen' }).click();
  await fillLogin(portal, partner.email, partner.password);
  await expect(portal.getByRole('heading', { level: 2, name: company })).toBeVisible();

  // 3. Collega's: the administrator invites a colleague; the invitation is listed and mailed.
  const colleague = `collega.${tag}@uitvaart.test`;
  await portal.getByLabel(/^E-mailadres van de collega/).fill(colleague);
  await portal.getByRole('button', { name: 'Collega uitnodigen' }).click();
  await expect(portal.getByRole('button', { name: `Uitnodiging voor ${colleague} intrekken` })).toBeVisible();
  const invitation = await waitForMail((m) => m.to.includes(colleague));
  expect(invitation.subject).toBe(`Uitnodiging: collega bij ${company}`);

  // 4. A page for a family: the list shows it waiting for the family.
  await expect(portal.getByText('U hebt nog geen pagina’s voor families gemaakt.')).toBeVisible();
  await portal.getByLabel(/^Voornaam van de overledene/).fill('Johanna');
  await portal.getByLabel(/^Achternaam van de overledene/).fill('Willems');
  await portal.getByLabel(/^Geboortedatum/).fill('1941-03-02');
  await portal.getByLabel(/^Overlijdensdatum/).fill('2026-11-01');
  await portal.getByLabel(/^E-mailadres van de familie/).fill(family.email);
  await portal.getByRole('button', { name: 'Pagina maken en familie uitnodigen' }).click();
  const item = portal.getByRole('listitem', { name: 'Johanna Willems' });
  await expect(item.getByText('Wacht op de familie')).toBeVisible();
  await checkBothThemes(portal, '/partner', () =>
    expect(portal.getByRole('listitem', { name: 'Johanna Willems' })).toBeVisible(),
  );

  // 5. The family opens the mail's link, registers and confirms the address.
  const handover = await waitForMail(
    (m) => m.to.includes(family.email) && m.subject.startsWith('Neem de gedenkpagina'),
  );
  expect(handover.text).toContain(`${company} heeft op Aandenken de gedenkpagina van Johanna Willems`);
  const link = pathOf(/https?:\/\/\S+\/overnemen\/[\w-]+/.exec(handover.text)![0]);
  const familyContext = await browser.newContext();
  const familyPage = await familyContext.newPage();
  await familyPage.goto(link);
  await expect(familyPage.getByRole('heading', { level: 1, name: 'Pagina overnemen' })).toBeVisible();
  await checkBothThemes(familyPage, '/overnemen (signed out)', () =>
    expect(familyPage.getByRole('heading', { level: 1, name: 'Pagina overnemen' })).toBeVisible(),
  );
  await familyPage.getByRole('button', { name: 'Account aanmaken' }).click();
  await fillRegistration(familyPage, family);
  await expect(familyPage.getByRole('button', { name: 'Pagina overnemen' })).toBeVisible();
  // Not yet: the address has not proven itself.
  await familyPage.getByRole('button', { name: 'Pagina overnemen' }).click();
  await expect(familyPage.getByRole('alert')).toContainText('Bevestig eerst je e-mailadres');
  await confirmAddress(familyPage, family);
  await familyContext.close();

  // 6. Signed in again, the family chooses and takes the page over; "Verzorgd door" shows, linked.
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await owner.goto(link);
  await owner.getByRole('button', { name: 'Inloggen' }).click();
  await fillLogin(owner, family.email, family.password);
  await expect(owner.getByRole('button', { name: 'Pagina overnemen' })).toBeVisible();
  await checkBothThemes(owner, '/overnemen (signed in)', () =>
    expect(owner.getByRole('button', { name: 'Pagina overnemen' })).toBeVisible(),
  );
  await owner.getByLabel(`Toon ‘Verzorgd door ${company}’ op de pagina`).check();
  await owner.getByRole('button', { name: 'Pagina overnemen' }).click();
  await expect(owner).toHaveURL(/\/memorial\/[0-9a-f-]{36}$/);
  const caredBy = owner.getByRole('link', { name: company });
  await expect(caredBy).toBeVisible();
  await expect(owner.getByText('Verzorgd door')).toBeVisible();
  expect(await caredBy.getAttribute('href')).toMatch(/^\/uitvaartondernemers\/uitvaartzorg-eik-/);

  // The partner was not allowed to keep managing: the list says so, without a way in.
  await portal.reload();
  const handed = portal.getByRole('listitem', { name: 'Johanna Willems' });
  await expect(handed.getByText('Overgedragen')).toBeVisible();
  await expect(handed.getByRole('link', { name: 'Johanna Willems beheren' })).toHaveCount(0);

  // 7. Later the family lets the company manage the page after all (manage tab 'Mensen'); it can again.
  await owner.goto(`${new URL(owner.url()).pathname}/beheer/mensen`);
  await expect(owner.getByRole('heading', { level: 2, name: 'Uitvaartondernemer' })).toBeVisible();
  await checkBothThemes(owner, '/memorial/{id}/beheer/mensen (the care section)', () =>
    expect(owner.getByRole('heading', { level: 2, name: 'Uitvaartondernemer' })).toBeVisible(),
  );
  await owner.getByLabel(`${company} mag de pagina meebeheren`).check();
  await expect(owner.getByText(`${company} mag de pagina weer meebeheren`)).toBeVisible();
  await portal.reload();
  await expect(
    portal
      .getByRole('listitem', { name: 'Johanna Willems' })
      .getByRole('link', { name: 'Johanna Willems beheren' }),
  ).toBeVisible();
  await ownerContext.close();
  await portalContext.close();
});
