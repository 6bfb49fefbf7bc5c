import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { CoreApi } from '../support/app-api.ts';
import { createMemorialAsNewOwner, openManageTab } from '../support/app-memorial.ts';
import { waitForMail } from '../support/mailbox.ts';
import { storedUser } from '../support/identity.ts';
import { signInTeam } from '../support/team.ts';

/** Serious and critical accessibility problems axe finds on the page as it is now. */
async function expectNoSeriousViolations(page: Page, what: string) {
  const result = await axeResults(page);
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect.soft(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

async function fillBuyer(page: Page) {
  await page.getByLabel('Naam').fill('Marieke Jansen');
  await page.getByLabel('Straat en huisnummer').fill('Dorpsstraat 12');
  await page.getByLabel('Postcode').fill('9712 AB');
  await page.getByLabel('Plaats').fill('Groningen');
}

test('choose Premium, cancel once at the checkout (nothing changes), then pay: the page has Premium', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const lastName = `Betaal ${Date.now().toString(36)}`;
  const { id } = await createMemorialAsNewOwner(page, 'Gerrit', lastName);
  await (await CoreApi.as(page)).update(id, { status: 'active' });

  // The page's management shows the trial and leads to the payment page.
  await openManageTab(page, id, 'Abonnement');
  await expect(page.getByTestId('plan-summary')).toHaveText(
    /Proefperiode met alles van Premium, nog \d+ dagen/,
  );
  await expect(page.getByText('Er is nog niets betaald voor deze pagina.')).toBeVisible();
  await page.getByRole('link', { name: 'Kies een abonnement' }).click();
  await expect(page).toHaveURL(new RegExp(`/page/payment/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(`Gerrit ${lastName}`) })).toBeVisible();
  // The footer is hidden here (the contract's footer-less paths).
  await expect(page.locator('footer')).toHaveCount(0);

  // Without the buyer's details nothing is sent.
  await page.getByRole('radio', { name: /^Premium/ }).click();
  await page.getByRole('button', { name: /^Premium betalen: € ?199$/ }).click();
  await expect(page.getByRole('textbox', { name: 'Naam' })).toHaveAttribute('aria-invalid', 'true');

  // First attempt: cancelled at the checkout.
  await fillBuyer(page);
  await page.getByRole('button', { name: /^Premium betalen: € ?199$/ }).click();
  await expect(page.getByRole('heading', { name: 'Test-betaling (Mollie stand-in)' })).toBeVisible();
  await expect(page.getByText('€ 199.00')).toBeVisible();
  await page.getByRole('button', { name: 'canceled' }).click();
  await expect(page).toHaveURL(new RegExp(`/page/payment/${id}\\?betaling=`));
  await expect(page.getByRole('alert')).toContainText('De betaling is geannuleerd.');
  await expect(page.getByRole('alert')).toContainText('de pagina is gebleven zoals hij was');
  await expect(page.getByTestId('plan-summary')).toHaveText(/Proefperiode/);

  // Second attempt: paid.
  await page.getByRole('radio', { name: /^Premium/ }).click();
  await fillBuyer(page);
  await page.getByRole('button', { name: /^Premium betalen: € ?199$/ }).click();
  await page.getByRole('button', { name: 'paid' }).click();
  await expect(page.getByText('Betaling gelukt: de pagina heeft nu Premium.')).toBeVisible();
  await expect(page.getByTestId('plan-summary')).toHaveText('Nu: Premium, voor altijd.');
  await expect(
    page.getByText('Deze pagina heeft Premium, voor altijd. Er is niets te betalen.'),
  ).toBeVisible();

  await openManageTab(page, id, 'Abonnement');
  await expect(page.getByTestId('plan-summary')).toHaveText('Premium, voor altijd');
  await expect(page.getByText('Betaald', { exact: true })).toBeVisible();
  await expect(page.getByText('Geannuleerd', { exact: true })).toBeVisible();
  // The invoice: mailed, and downloadable from the management screen.
  const invoiceLink = page.getByRole('link', { name: /^Factuur AK-\d{6} \(pdf\)$/ });
  await expect(invoiceLink).toBeVisible();
  const pdf = await page.request.get((await invoiceLink.getAttribute('href'))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  await waitForMail((m) => m.subject.startsWith('Je factuur AK-') && m.text.includes(`Gerrit ${lastName}`));

  // 'Mijn Pagina's' shows the plan and leads to its invoices.
  await page.goto('/mijn-paginas');
  const line = page.getByTestId('plan-line');
  await expect(line).toHaveText('Premium, voor altijd · facturen');
  await line.click();
  await expect(page.getByRole('tab', { name: 'Abonnement' })).toHaveAttribute('aria-selected', 'true');
});

for (const theme of ['light', 'dark'] as const) {
  test(`the payment page is accessible in the ${theme} theme`, async ({ page }) => {
    const lastName = `Toegankelijk ${theme} ${Date.now().toString(36)}`;
    const { id } = await createMemorialAsNewOwner(page, 'Aaltje', lastName);
    await page
      .context()
      .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
    await page.goto(`/page/payment/${id}`);
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark).*$/);
    await expect(page.getByRole('radio', { name: /^Basis/ })).toBeVisible();
    await expectNoSeriousViolations(page, `payment page (${theme})`);
    await page.getByRole('button', { name: /betalen/ }).click();
    await expect(page.getByRole('textbox', { name: 'Naam' })).toHaveAttribute('aria-invalid', 'true');
    await expectNoSeriousViolations(page, `payment page with errors (${theme})`);
    await openManageTab(page, id, 'Abonnement');
    await expect(page.getByTestId('plan-summary')).toBeVisible();
    await expectNoSeriousViolations(page, `plan tab (${theme})`);
  });
}

test('a lapsed Basis year makes the page read-only; paying makes it writable again', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const lastName = `Verlopen ${Date.now().toString(36)}`;
  const { id } = await createMemorialAsNewOwner(page, 'Bertha', lastName);
  const owner = await CoreApi.as(page);
  await owner.update(id, { status: 'active' });

  // The team sets the page to a Basis year that ended yesterday (as if it lapsed).
  const team = await signInTeam(browser);
  const token = (await storedUser(team))!.access_token;
  const set = await team.request.post(`/core/team/memorials/${id}/plan`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      plan: 'basis',
      paidUntil: new Date(Date.now() - 86_400_000).toISOString(),
      reason: 'e2e: verlopen jaar',
    },
  });
  expect(set.status(), await set.text()).toBe(200);

  // Read-only: said above the page, refused by the server, candles still welcome.
  await page.goto(`/memorial/${id}`);
  const notice = page.getByTestId('plan-notice');
  await expect(notice).toContainText('Deze pagina is alleen te lezen');
  const ownerToken = (await storedUser(page))!.access_token;
  const refused = await page.request.post('/core/memories/concept', {
    headers: { authorization: `Bearer ${ownerToken}` },
    data: { memorialId: id, yearLabel: '1970', text: 'Nog een herinnering.' },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe('PLAN_READ_ONLY');
  expect(await owner.lightCandle(id)).toBe(201);

  // One click to choose a plan; pay Basis at the stand-in.
  await notice.getByRole('link', { name: 'Kies een abonnement' }).click();
  await expect(page).toHaveURL(new RegExp(`/page/payment/${id}$`));
  await page.getByRole('radio', { name: /^Basis/ }).click();
  await fillBuyer(page);
  await page.getByRole('button', { name: /^Basis betalen: € ?50$/ }).click();
  await page.getByRole('button', { name: 'paid' }).click();
  await expect(page.getByText('Betaling gelukt: de pagina heeft nu Basis.')).toBeVisible();
  await expect(page.getByTestId('plan-summary')).toHaveText(/^Nu: Basis, betaald tot /);

  // Writable again.
  await page.goto(`/memorial/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Bertha ${lastName}` })).toBeVisible();
  await expect(owner.addMemory(id, { yearLabel: '1970', text: 'Weer welkom.' })).resolves.toMatchObject({
    status: 'published',
  });
  await page.reload();
  await expect(page.getByTestId('plan-notice')).toContainText('Nog 5 herinneringen binnen Basis');
});
