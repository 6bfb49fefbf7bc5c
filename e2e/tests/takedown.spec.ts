import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { CoreApi } from '../support/app-api.ts';
import { createMemorialAsNewOwner, openManageTab } from '../support/app-memorial.ts';
import { waitForMail } from '../support/mailbox.ts';
import { signInTeam } from '../support/team.ts';

/**
 * 'Melden' and successors: a visitor reports a memory from the page, the team sees
 * it on its screen and hides it, and the visitor no longer sees it; an owner names a successor. Axe checks
 * the report dialog and the team's screen in both themes.
 */
async function expectNoSeriousViolations(page: Page, what: string) {
  // Dialogs and sections fade in: axe measures contrast once nothing is still on its way in.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  const result = await axeResults(page);
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect.soft(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page
    .context()
    .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b).*$/);
}

/** From an address of its own (the e2e server trusts X-Forwarded-For): reports and memories are limited per address. */
async function ownAddress(page: Page) {
  await page.context().setExtraHTTPHeaders({
    'x-forwarded-for': `198.51.100.${1 + Math.floor(Math.random() * 250)}`,
  });
}

test('a visitor reports a memory, the team hides it, the visitor no longer sees it', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await ownAddress(owner);
  const lastName = `Melder ${Date.now().toString(36)}`;
  const { id } = await createMemorialAsNewOwner(owner, 'Johan', lastName);
  const api = await CoreApi.as(owner);
  await api.update(id, { status: 'active', visibility: 'public' });
  const text = `Een herinnering die er niet hoort ${Date.now().toString(36)}.`;
  await api.addMemory(id, { yearLabel: '1975', text });

  // The visitor, not signed in, reports it from the page.
  await ownAddress(page);
  await page.goto(`/memorial/${id}`);
  await expect(page.getByText(text)).toBeVisible();
  const report = page.getByRole('button', { name: /^Melden: herinnering uit 1975/ });
  const dialog = page.getByRole('dialog', { name: 'Herinnering melden' });
  // The page's HTML comes first; a click before its script has taken over does nothing yet.
  const openReport = () =>
    expect(async () => {
      await report.click();
      await expect(dialog.getByLabel(/^Reden/)).toBeVisible({ timeout: 3000 });
    }).toPass({ timeout: 20_000 });
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await openReport();
    await expectNoSeriousViolations(page, `report dialog (${theme})`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
  await openReport();
  await dialog.getByRole('button', { name: 'Melding versturen' }).click();
  await expect(dialog.getByLabel(/^Reden/)).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel(/^Reden/).selectOption({ label: 'Het schendt iemands privacy' });
  await dialog.getByLabel(/^Toelichting/).fill('Hier staat mijn adres in.');
  await dialog.getByRole('button', { name: 'Melding versturen' }).click();
  await expect(dialog.getByText('Bedankt voor je melding.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Sluiten' }).first().click();

  // The owner is mailed; the team sees the report on its screen and hides the memory.
  await waitForMail((m) => m.subject === `Melding op de gedenkpagina van Johan ${lastName}`);
  const team = await signInTeam(browser);
  const item = team.getByRole('article', { name: `Herinnering op de pagina van Johan ${lastName}` });
  await expect(item.getByText('Hier staat mijn adres in.')).toBeVisible();
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(team, theme);
    await expect(item).toBeVisible();
    await expectNoSeriousViolations(team, `team screen with reports (${theme})`);
  }
  await item.getByRole('button', { name: /verbergen$/ }).click();
  const hide = team.getByRole('dialog', { name: 'Onderdeel verbergen' });
  await hide.getByLabel(/^Reden/).fill('Bevat een privéadres.');
  await hide.getByRole('button', { name: 'Verbergen' }).click();
  await expect(hide).toBeHidden();
  await expect(item.getByText('Verborgen door het team')).toBeVisible();

  // Gone for the visitor; the owner still sees it in the page's Meldingen, with the team's reason.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: `Johan ${lastName}` })).toBeVisible();
  await expect(page.getByText(text)).toHaveCount(0);
  await openManageTab(owner, id, 'Meldingen');
  await expect(
    owner.getByText(/Verborgen door het team van Aandenken.*Bevat een privéadres\./),
  ).toBeVisible();
  await ownerContext.close();
  await team.context().close();
});

test('a visitor reports a photo from the photo viewer', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await ownAddress(owner);
  const { id } = await createMemorialAsNewOwner(owner, 'Fenna', `Foto ${Date.now().toString(36)}`);
  const api = await CoreApi.as(owner);
  await api.update(id, { status: 'active', visibility: 'public' });
  await api.uploadPhoto(id, 'strand.jpg', 200, 'Op het strand');
  await ownerContext.close();

  await ownAddress(page);
  await page.goto(`/memorial/${id}`);
  const viewer = page.getByRole('dialog', { name: /^Foto’s van Fenna/ });
  await expect(async () => {
    await page.getByRole('button', { name: /^Foto 1 van 1 bekijken: Op het strand/ }).click();
    await expect(viewer).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 20_000 });
  await viewer.getByRole('button', { name: 'Melden: deze foto' }).click();
  const dialog = page.getByRole('dialog', { name: 'Foto melden' });
  await dialog.getByLabel(/^Reden/).selectOption({ label: 'Het is van iemand anders (auteursrecht)' });
  await dialog.getByRole('button', { name: 'Melding versturen' }).click();
  await expect(dialog.getByText('Bedankt voor je melding.')).toBeVisible();
  await expectNoSeriousViolations(page, 'photo report sent');
  await waitForMail((m) => m.subject.startsWith('Nieuwe melding: een foto of video'));
});

test('an owner names a successor by e-mail address', async ({ page }) => {
  await ownAddress(page);
  const { id } = await createMemorialAsNewOwner(page, 'Aaltje', `Opvolger ${Date.now().toString(36)}`);
  await openManageTab(page, id, 'Mensen');
  await expect(page.getByText('Je hebt nog geen opvolger aangewezen.')).toBeVisible();
  await page.getByLabel('E-mailadres van je opvolger').fill('dochter@example.nl');
  await page.getByRole('button', { name: 'Aanwijzen' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Je opvolger:' })).toContainText(
    'dochter@example.nl',
  );
  await expectNoSeriousViolations(page, 'successor section');
  await page.getByRole('button', { name: 'Opvolger weghalen' }).click();
  await expect(page.getByText('Je hebt nog geen opvolger aangewezen.')).toBeVisible();
});
