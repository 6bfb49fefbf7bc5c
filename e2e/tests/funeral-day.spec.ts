import fs from 'node:fs/promises';
import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { CoreApi } from '../support/app-api.ts';
import { createMemorialAsNewOwner, openManageTab } from '../support/app-memorial.ts';

// The funeral day (docs/funeral-day.md): an owner puts the funeral on the page; a visitor sees it,
// adds it to their calendar and signs up for the koffietafel; the owner sees who comes and exports the list.

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

test('the funeral day: an owner adds the service, a visitor adds it to the calendar and signs up @layout', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const lastName = `Dag ${Date.now().toString(36)}`;
  const { id } = await createMemorialAsNewOwner(page, 'Ria', lastName);
  const api = await CoreApi.as(page);
  await api.update(id, { status: 'active', visibility: 'public' });
  const date = inDays(10);

  // The owner adds the service in the manage tab 'Uitvaart'.
  await openManageTab(page, id, 'Uitvaart');
  await expect(page.getByText('Er staat nog geen bijeenkomst op de pagina.')).toBeVisible();
  await page.getByRole('button', { name: 'Bijeenkomst toevoegen' }).click();
  const form = page.getByRole('form', { name: 'Bijeenkomst toevoegen' });
  await form.getByLabel('Soort').selectOption('uitvaart');
  await form.getByLabel('Datum').fill(date);
  await form.getByLabel('Begintijd').fill('14:30');
  await form.getByLabel('Naam van de plaats').fill('Aula Zorgvlied');
  await form.getByLabel('Adres').fill('Amsteldijk 273, Amsterdam');
  await form.getByLabel('Na afloop (koffietafel, condoleance)').fill('Koffietafel in de aula');
  await form.getByLabel(/Aanmelden voor na afloop/).check();
  await form.getByRole('button', { name: 'Opslaan' }).click();
  await expect(form).toHaveCount(0);
  const list = page.getByRole('list', { name: 'Bijeenkomsten' });
  await expect(list.getByText('Aula Zorgvlied')).toBeVisible();
  await expect(list.getByText('Nog niemand heeft zich aangemeld.')).toBeVisible();
  await expectAccessibleInBothThemes(page, async () => {
    await expect(page.getByRole('tab', { name: 'Uitvaart' })).toHaveAttribute('aria-selected', 'true');
    await expect(list.getByText('Nog niemand heeft zich aangemeld.')).toBeVisible();
  });

  // A visitor sees it high on the page, downloads the calendar file and signs up.
  const visitorContext = await browser.newContext({ acceptDownloads: true });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/memorial/${id}`);
  const section = visitor.getByRole('region', { name: 'Uitvaart en afscheid' });
  await expect(section.getByRole('heading', { name: 'Uitvaart', exact: true })).toBeVisible();
  await expect(section.getByText('Koffietafel in de aula')).toBeVisible();
  await expect(section.getByRole('link', { name: /Bekijk op de kaart/ })).toHaveAttribute(
    'href',
    /^https:\/\/www\.openstreetmap\.org\/search\?query=Aula%20Zorgvlied/,
  );
  const [ics] = await Promise.all([
    visitor.waitForEvent('download'),
    section.getByRole('button', { name: 'Zet in je agenda' }).click(),
  ]);
  expect(ics.suggestedFilename()).toBe(`uitvaart-${date}.ics`);
  const calendar = await fs.readFile(await ics.path(), 'utf8');
  expect(calendar).toContain('BEGIN:VCALENDAR');
  expect(calendar).toContain(`DTSTART;TZID=Europe/Amsterdam:${date.replace(/-/g, '')}T143000`);

  await expectAccessibleInBothThemes(visitor, async () => {
    await expect(section.getByRole('button', { name: 'Aanmelden' })).toBeEnabled();
  });
  await section.getByLabel('Je naam').fill('Tante Jet');
  await section.getByLabel('Met hoeveel personen kom je?').fill('3');
  await section.getByRole('button', { name: 'Aanmelden' }).click();
  await expect(section.getByRole('status')).toHaveText(
    'Dank je wel, Tante Jet. Je bent aangemeld met 3 personen.',
  );

  // The owner sees the RSVP and exports the list for Excel.
  await page.reload();
  await expect(list.getByRole('cell', { name: 'Tante Jet' })).toBeVisible();
  await expect(list.getByText(/1 aanmelding, samen 3 personen/)).toBeVisible();
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    list.getByRole('button', { name: 'Exporteren (CSV)' }).click(),
  ]);
  const bytes = await fs.readFile(await csv.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  expect(text.split('\r\n')[0]).toBe('Naam;Aantal personen;Opmerking;Aangemeld op');
  expect(text).toContain('Tante Jet;3;;');
  await visitorContext.close();
});
