import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { createMemorialAsNewOwner, signInNewPerson } from '../support/owner.ts';
import { waitForMail } from '../support/mailbox.ts';
import { fillLogin, storedUser, type TestUser } from '../support/identity.ts';
import { confirmAddress, signInTeam } from '../support/team.ts';

/**
 * Partners pay (docs/plans.md "Partners" and "The team's screen"): a partner pays its partnership and
 * the open amount for its pages in the Mollie stand-in's checkout and gets the invoices in the portal and by
 * mail; the team finds a page on /team/aanvragen and refunds its payment with a reason. axe in both themes.
 */
async function expectNoSeriousViolations(page: Page, what: string) {
  const result = await axeResults(page);
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect.soft(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page
    .context()
    .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b).*$/);
}

const auth = async (page: Page) => ({ authorization: `Bearer ${(await storedUser(page))!.access_token}` });

test('a partner pays its partnership and its pages at the checkout and gets the invoices; the team refunds a payment from its screen', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(600_000);
  const tag = `${info.project.name}${Date.now().toString(36)}`;
  const companyName = `Uitvaartzorg Betaald ${tag}`;
  const applicant: TestUser = {
    name: 'Petra Partner',
    email: `petra.${tag}@uitvaart.test`,
    password: 'zonnebloem-en-regen-42',
  };

  // An approved company (its application and approval through the API; the screens are partner-journey's).
  const team = await signInTeam(browser);
  const applied = await page.request.post('/core/companies/request', {
    data: {
      companyType: 'FuneralDirector',
      firstName: 'Petra',
      lastName: 'Partner',
      companyName,
      streetName: 'Slotlaan',
      houseNumber: '3',
      postalCode: '3701 AA',
      phoneNumber: '030 123 45 67',
      email: applicant.email,
    },
  });
  expect(applied.status(), await applied.text()).toBe(201);
  const companyId = ((await applied.json()) as { id: string }).id;
  const approved = await team.request.post(`/core/team/applications/${companyId}/approve`, {
    headers: await auth(team),
  });
  expect(approved.status(), await approved.text()).toBe(200);

  // The applicant registers, confirms the address and signs in on /partner.
  await signInNewPerson(page, applicant);
  await confirmAddress(page, applicant);
  const partner = await (await browser.newContext()).newPage();
  await partner.goto('/partner');
  await partner.getByRole('main').getByRole('button', { name: 'Inloggen' }).click();
  await fillLogin(partner, applicant.email, applicant.password);
  // Signing in is slow on a busy machine.
  await expect(partner.getByRole('heading', { level: 2, name: companyName })).toBeVisible({
    timeout: 30_000,
  });
  const familyName = `Willems ${tag}`;
  const made = await partner.request.post(`/core/companies/${companyId}/pages`, {
    headers: await auth(partner),
    data: { firstName: 'Johanna', lastName: familyName, familyEmail: `familie.${tag}@familie.test` },
  });
  expect(made.status(), await made.text()).toBe(201);

  // 'Betalingen': nothing paid yet, one page owed.
  await partner.getByRole('tab', { name: 'Betalingen' }).click();
  const panel = partner.getByRole('tabpanel', { name: 'Betalingen' });
  await expect(panel.getByTestId('partnership-state')).toHaveText('Het partnerschap is nog niet betaald');
  await expect(panel.getByTestId('owed-state')).toContainText('Openstaand: 1 pagina met Premium');
  await expect(panel.getByRole('list', { name: 'Openstaande pagina’s' })).toContainText(
    `Johanna ${familyName}`,
  );
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(partner, theme);
    await expect(panel.getByTestId('partnership-state')).toBeVisible();
    await expectNoSeriousViolations(partner, `partner Betalingen (${theme})`);
  }

  // The partnership, paid at the stand-in's checkout.
  await panel.getByRole('button', { name: /^Partnerschap betalen: € ?299,00$/ }).click();
  await expect(partner.getByRole('heading', { name: 'Test-betaling (Mollie stand-in)' })).toBeVisible();
  await expect(partner.getByText('€ 299.00')).toBeVisible();
  await partner.getByRole('button', { name: 'paid' }).click();
  await expect(partner).toHaveURL(/\/partner\?bedrijf=.*tab=betalingen&betaling=/);
  await expect(panel.getByText('Betaling gelukt.')).toBeVisible();
  await expect(panel.getByTestId('partnership-state')).toHaveText(
    /^Partnerschap betaald tot \d{1,2} \S+ \d{4}$/,
  );
  const invoice = panel.getByRole('link', { name: /^Factuur AK-\d{6} \(pdf\)$/ });
  await expect(invoice).toHaveCount(1);
  const pdf = await partner.request.get((await invoice.getAttribute('href'))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const mail = await waitForMail(
    (m) => m.to.includes(applicant.email) && m.subject.startsWith('Je factuur AK-'),
  );
  expect(mail.text).toContain(companyName);

  // The open amount for the page, paid the same way; then nothing is owed.
  await panel.getByRole('button', { name: /^Openstaand bedrag betalen: € ?199,00$/ }).click();
  await expect(partner.getByText('€ 199.00')).toBeVisible();
  await partner.getByRole('button', { name: 'paid' }).click();
  await expect(panel.getByText('Betaling gelukt.')).toBeVisible();
  await expect(panel.getByTestId('owed-state')).toHaveText('Er staat niets open.');
  await expect(panel.getByRole('link', { name: /^Factuur AK-\d{6} \(pdf\)$/ })).toHaveCount(2);
  await partner.getByRole('tab', { name: 'Pagina’s voor families' }).click();
  await expect(partner.getByText('Premium, betaald door je bedrijf')).toBeVisible();

  // A family pays Premium for its own page.
  const ownerPage = await (await browser.newContext()).newPage();
  const lastName = `Terug ${tag}`;
  const { id } = await createMemorialAsNewOwner(ownerPage, 'Gerrit', lastName);
  const created = await ownerPage.request.post('/core/payments', {
    headers: await auth(ownerPage),
    data: {
      memorialId: id,
      plan: 'premium',
      buyerName: 'Marieke Jansen',
      buyerAddress: 'Dorpsstraat 12',
      buyerPostalCode: '9712 AB',
      buyerCity: 'Groningen',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await ownerPage.goto(((await created.json()) as { checkoutUrl: string }).checkoutUrl);
  await ownerPage.getByRole('button', { name: 'paid' }).click();
  await expect(ownerPage.getByText('Betaling gelukt: de pagina heeft nu Premium.')).toBeVisible();

  // The team finds the page on its screen (keyboard: type, Enter) and refunds the payment with a reason.
  const openPlan = async () => {
    const search = team.getByRole('textbox', { name: 'Naam, adres of nummer van de pagina' });
    await search.fill(lastName);
    await search.press('Enter');
    await team
      .getByRole('list', { name: 'Gevonden pagina’s' })
      .getByRole('button', { name: new RegExp(`Gerrit ${lastName}`) })
      .click();
    await expect(team.getByRole('heading', { level: 3, name: `Gerrit ${lastName}` })).toBeVisible();
  };
  await team.reload();
  await openPlan();
  await expect(team.getByTestId('team-plan-summary')).toHaveText('Premium, voor altijd');
  const refund = team.getByRole('button', { name: /^Betaling van €\s?199(,00)? van .* terugstorten$/ });
  await refund.click();
  const dialog = team.getByRole('dialog', { name: 'Betaling terugstorten' });
  await dialog.getByRole('button', { name: 'Terugstorten' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Reden' })).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousViolations(team, 'team refund dialog (light)');
  await dialog.getByRole('textbox', { name: 'Reden' }).fill('e2e: op verzoek van de familie');
  await dialog.getByRole('button', { name: 'Terugstorten' }).click();
  await expect(dialog).toBeHidden();
  await expect(team.getByText('De betaling is teruggestort')).toBeVisible();
  const payments = team.getByRole('list', { name: 'Betalingen' });
  await expect(payments).toContainText('Teruggestort');
  await expect(payments.getByRole('link', { name: /^Creditfactuur AK-\d{6} \(pdf\)$/ })).toBeVisible();
  await expect(team.getByTestId('team-plan-summary')).toHaveText(/^Proefperiode/);
  await waitForMail(
    (m) => m.subject.startsWith('Je creditfactuur AK-') && m.text.includes(`Gerrit ${lastName}`),
  );
  await expectNoSeriousViolations(team, 'team plans (light)');
  await setTheme(team, 'dark');
  await openPlan();
  await expectNoSeriousViolations(team, 'team plans (dark)');
});
