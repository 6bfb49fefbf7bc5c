import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { CoreApi } from '../support/app-api.ts';
import { confirm, createMemorialAsNewOwner, openManageTab } from '../support/app-memorial.ts';
import { waitForMail } from '../support/mailbox.ts';

// Future messages (docs/funeral-day.md): an owner plans a future message, changes and cancels it
// within the plan's limit; a visitor signs up on the page with consent and confirms by mail, and the owner
// sees and removes the sign-up. Sending at the
// moment, once, across a restart, and the one-click unsubscribe are covered by
// apps/server/test/future-messages.test.ts (they need a moved clock).

/** Serious and critical accessibility faults on the page as it is now, in each theme. */
async function expectAccessibleInBothThemes(page: Page, ready: () => Promise<void>) {
  for (const theme of ['light', 'dark'] as const) {
    await page
      .context()
      .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
    await page.reload();
    await ready();
    await page.evaluate(() => document.fonts.ready);
    const { violations } = await axeResults(page);
    expect(
      violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
      theme,
    ).toEqual([]);
  }
}

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

test('future messages: an owner plans, changes and cancels one; a visitor stays connected @layout', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const lastName = `Bericht ${Date.now().toString(36)}`;
  const { id } = await createMemorialAsNewOwner(page, 'Wim', lastName);
  const api = await CoreApi.as(page);
  await api.update(id, { status: 'active', visibility: 'public', birthDate: '1950-03-14' });

  // The owner writes a message for later in the tab 'Berichten'.
  await openManageTab(page, id, 'Berichten');
  await expect(page.getByText('Er staat nog geen bericht klaar.')).toBeVisible();
  await expect(page.getByText(/onbeperkt berichten plannen/)).toBeVisible();
  await page.getByRole('button', { name: 'Bericht schrijven' }).click();
  const form = page.getByRole('form', { name: 'Bericht schrijven' });
  await form.getByLabel('Onderwerp').fill('Voor zijn verjaardag');
  await form.getByLabel('Bericht').fill('Lieve allemaal,\n\nVandaag denken we aan Wim.');
  await form.getByLabel('Verstuurdatum').fill(inDays(30));
  await form.getByLabel('Tijd (Nederlandse tijd)').fill('09:30');
  await form.getByRole('button', { name: 'Inplannen' }).click();
  await expect(form).toHaveCount(0);
  const list = page.getByRole('list', { name: 'Berichten' });
  await expect(list.getByRole('heading', { name: 'Voor zijn verjaardag' })).toBeVisible();
  await expect(list.getByText('Gepland')).toBeVisible();
  await expectAccessibleInBothThemes(page, async () => {
    await expect(page.getByRole('tab', { name: 'Berichten' })).toHaveAttribute('aria-selected', 'true');
    await expect(list.getByText('Gepland')).toBeVisible();
  });

  // Changed, then cancelled: it stays listed as cancelled and can no longer be changed.
  await list.getByRole('button', { name: 'Bericht ‘Voor zijn verjaardag’ wijzigen' }).click();
  const edit = page.getByRole('form', { name: 'Bericht wijzigen' });
  await edit.getByLabel('Onderwerp').fill('Een jaar later');
  await edit.getByRole('button', { name: 'Opslaan' }).click();
  await expect(list.getByRole('heading', { name: 'Een jaar later' })).toBeVisible();
  await list.getByRole('button', { name: 'Bericht ‘Een jaar later’ annuleren' }).click();
  await confirm(page, 'Bericht annuleren');
  await expect(list.getByText('Geannuleerd')).toBeVisible();
  await expect(list.getByRole('button', { name: /wijzigen/ })).toHaveCount(0);

  // A visitor leaves an address on the page, with consent, and confirms it from the mail.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/memorial/${id}`);
  const section = visitor.getByRole('region', { name: 'Blijf verbonden' });
  // Loaded once the visitor comes near it (its own chunk; decision 019), below the candles.
  await visitor.getByRole('region', { name: 'Kaarsjes en bloemen' }).scrollIntoViewIfNeeded();
  await expect(section.getByLabel('Je e-mailadres')).toBeVisible({ timeout: 30_000 });
  await expectAccessibleInBothThemes(visitor, async () => {
    await expect(section.getByRole('button', { name: 'Aanmelden' })).toBeEnabled();
  });
  const address = `verbonden-${Date.now().toString(36)}@example.nl`;
  await section.getByLabel('Je e-mailadres').fill(address);
  await section.getByLabel('Herinnering op de verjaardag').check();
  // Without consent nothing happens but a clear message.
  await section.getByRole('button', { name: 'Aanmelden' }).click();
  await expect(section.getByText('Geef toestemming om e-mail te ontvangen', { exact: true })).toBeVisible();
  await expect(section.getByLabel('Ik geef toestemming om deze e-mails te ontvangen')).toBeFocused();
  await section.getByLabel('Ik geef toestemming om deze e-mails te ontvangen').check();
  await section.getByRole('button', { name: 'Aanmelden' }).click();
  await expect(section.getByRole('status')).toContainText(`We hebben een e-mail gestuurd naar ${address}`);

  const mail = await waitForMail((m) => m.to.includes(address) && m.subject.startsWith('Bevestig'));
  const link = /(http\S+\/meldingen\/bevestigen\?t=\S+)/.exec(mail.text)![1]!;
  await visitor.goto(new URL(link).pathname + new URL(link).search);
  await expect(visitor.getByRole('heading', { name: 'Je aanmelding is bevestigd' })).toBeVisible();
  await expect(visitor.getByText('Herinnering op de verjaardag')).toBeVisible();
  await expect(visitor.getByText('Berichten van de familie')).toBeVisible();
  // The confirmed screen in the visitor's theme (the dark one of the last check); both themes on the error below.
  const { violations } = await axeResults(visitor);
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);

  // A link that was tampered with says so, without signing in.
  await visitor.goto('/meldingen/afmelden?t=eyJtIjoiMSJ9.vervalst-token-0123456789');
  await expectAccessibleInBothThemes(visitor, async () => {
    await expect(visitor.getByRole('heading', { name: 'Deze link werkt niet' })).toBeVisible();
  });

  // The owner now sees that a message would reach the visitor too.
  await page.reload();
  await expect(page.getByText(/Een bericht zou nu naar 2 adressen gaan/)).toBeVisible();
  await visitorContext.close();

  // The family sees who signed up, how and when, and removes the sign-up after confirming.
  const signUps = page.getByRole('list', { name: 'Aanmeldingen' });
  await expect(signUps.getByText(address)).toBeVisible();
  await expect(signUps.getByText(/Via de openbare pagina · aangemeld op/)).toBeVisible();
  await expectAccessibleInBothThemes(page, async () => {
    await expect(signUps.getByText(address)).toBeVisible();
  });
  await signUps.getByRole('button', { name: `Aanmelding van ${address} verwijderen` }).click();
  await confirm(page, 'Verwijderen');
  await expect(page.getByText('Nog niemand heeft zich aangemeld.')).toBeVisible();
  await expect(page.getByText(/Een bericht zou nu naar 1 adres gaan/)).toBeVisible();
});
