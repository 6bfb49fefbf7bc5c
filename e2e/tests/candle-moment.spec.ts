import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { CoreApi } from '../support/app-api.ts';
import { createMemorialAsNewOwner, openManageTab } from '../support/app-memorial.ts';

// The kaarsjesmoment (docs/funeral-day.md, 'Samen herdenken'): the family plans a kaarsjesmoment; two visitors
// in two browsers have the page open during it; a candle lit by one appears live for the other, with the
// number of people there together.

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

/** Now in Dutch time: the moment starts this minute. */
function amsterdamNow() {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Amsterdam',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date())
      .map((x) => [x.type, x.value]),
  );
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

test('a kaarsjesmoment: a candle lit in one browser appears live in the other, with the count', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const { id } = await createMemorialAsNewOwner(page, 'Lotte', `Licht ${Date.now().toString(36)}`);
  const api = await CoreApi.as(page);
  await api.update(id, { status: 'active', visibility: 'public' });

  // The family plans the moment in the manage tab 'Herdenken', starting now.
  await openManageTab(page, id, 'Herdenken');
  await expect(page.getByText('Er is nog geen kaarsjesmoment gepland.')).toBeVisible();
  await page.getByRole('button', { name: 'Kaarsjesmoment plannen' }).click();
  const form = page.getByRole('form', { name: 'Kaarsjesmoment plannen' });
  const now = amsterdamNow();
  await form.getByLabel('Datum').fill(now.date);
  await form.getByLabel('Begintijd').fill(now.time);
  await form.getByLabel('Hoe lang').selectOption('60');
  await form.getByLabel('Aanleiding (niet verplicht)').fill('Samen voor Lotte');
  await form.getByRole('button', { name: 'Opslaan' }).click();
  await expect(form).toHaveCount(0);
  const list = page.getByRole('list', { name: 'Geplande kaarsjesmomenten' });
  await expect(list.getByRole('heading', { name: 'Samen voor Lotte' })).toBeVisible();
  await expectAccessibleInBothThemes(page, async () => {
    await expect(page.getByRole('tab', { name: 'Herdenken' })).toHaveAttribute('aria-selected', 'true');
    await expect(list.getByRole('heading', { name: 'Samen voor Lotte' })).toBeVisible();
  });

  // Two visitors, each in their own browser, open the page during the moment.
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  const a = await contextA.newPage();
  const b = await contextB.newPage();
  await a.goto(`/memorial/${id}`);
  const panelA = a.getByRole('region', { name: 'Samen herdenken' });
  // The section loads once the visitor comes near it (decision 019: its chunk, its read, then the panel's
  // chunk; slow on a busy machine); it sits just above the candles.
  const loaded = { timeout: 60_000 };
  await a.getByRole('region', { name: 'Kaarsjes en bloemen' }).scrollIntoViewIfNeeded();
  await expect(panelA.getByRole('heading', { name: /Nu: het kaarsjesmoment/ })).toBeVisible(loaded);
  await expect(panelA.getByTestId('together')).toHaveText(
    'Je bent hier nu alleen; wie de pagina opent, sluit bij je aan.',
  );
  await b.goto(`/memorial/${id}`);
  const panelB = b.getByRole('region', { name: 'Samen herdenken' });
  await b.getByRole('region', { name: 'Kaarsjes en bloemen' }).scrollIntoViewIfNeeded();
  await expect(panelB.getByTestId('together')).toHaveText('2 mensen steken nu samen een kaarsje aan', loaded);
  // A sees B arrive without reloading.
  await expect(panelA.getByTestId('together')).toHaveText('2 mensen steken nu samen een kaarsje aan');

  // A lights a candle with the ordinary form; it appears in B's panel live.
  const candles = a.getByRole('region', { name: 'Kaarsjes en bloemen' });
  await candles.getByLabel('Je naam').fill('Marieke');
  await candles.getByLabel('Bericht (niet verplicht)').fill('Een lichtje voor jou.');
  await candles.getByRole('button', { name: 'Steek een kaarsje aan' }).click();
  await expect(candles.getByText('Je kaarsje brandt.')).toBeVisible();
  const litB = panelB.getByRole('list', { name: 'Kaarsjes van dit moment' });
  await expect(litB.getByText('Marieke stak een kaarsje aan')).toBeVisible();
  await expect(litB.getByText('Een lichtje voor jou.')).toBeVisible();
  await expect(panelA.getByText('Marieke stak een kaarsje aan')).toBeVisible();

  await expectAccessibleInBothThemes(b, async () => {
    await expect(litB.getByText('Marieke stak een kaarsje aan')).toBeVisible(loaded);
    await expect(panelB.getByTestId('together')).toHaveText('2 mensen steken nu samen een kaarsje aan');
  });

  // A leaves: B is alone again.
  await contextA.close();
  await expect(panelB.getByTestId('together')).toHaveText(
    'Je bent hier nu alleen; wie de pagina opent, sluit bij je aan.',
  );
  await contextB.close();
});
