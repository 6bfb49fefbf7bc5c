import { expect, test, type Page } from '../support/test.ts';
import { CoreApi } from '../support/app-api.ts';
import { axeResults } from '../support/axe.ts';
import { createMemorialAsNewOwner, openManageTab } from '../support/app-memorial.ts';

// Nothing typed is lost: the memory dialog asks before it closes on what was written, drafts of a memory and
// of the biography survive a reload and another tab of the manage page (kept in this browser per page),
// and leaving with unsaved text warns first.

async function activeMemorial(page: Page, firstName: string) {
  const lastName = `Verbeek ${Date.now().toString(36)}`;
  const { id } = await createMemorialAsNewOwner(page, firstName, lastName);
  await (await CoreApi.as(page)).update(id, { status: 'active' });
  await page.goto(`/memorial/${id}`);
  return id;
}

async function openMemoryDialog(page: Page) {
  await page.getByRole('button', { name: 'Deel een herinnering' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Deel een herinnering' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('a memory being written is asked about before closing and survives a reload; so does the biography', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const id = await activeMemorial(page, 'Hendrik');
  const text = `Hendrik die op zondag altijd pannenkoeken bakte, met stroop en spek. (${Date.now().toString(36)})`;

  let dialog = await openMemoryDialog(page);
  await dialog.getByLabel('Jaar of periode').fill('Zomer 1982');
  await dialog.getByLabel('Je herinnering').fill(text);

  // Escape does not throw it away: it asks, with going on as the first choice.
  await page.keyboard.press('Escape');
  const ask = page.getByRole('alertdialog', { name: 'Wil je stoppen met schrijven?' });
  await expect(ask).toBeVisible();
  await expect(ask.getByRole('button', { name: 'Doorgaan met schrijven' })).toBeFocused();
  await ask.getByRole('button', { name: 'Doorgaan met schrijven' }).click();
  await expect(ask).toBeHidden();
  await expect(dialog.getByLabel('Je herinnering')).toHaveValue(text);

  // Escape pressed right after going on (in the browser's very next task) asks again: nothing in between
  // has to settle first.
  await page.keyboard.press('Escape');
  await expect(ask).toBeVisible();
  await page.evaluate(() => {
    const goOn = [...document.querySelectorAll('[role="alertdialog"] button')].find(
      (b) => b.textContent === 'Doorgaan met schrijven',
    ) as HTMLButtonElement;
    goOn.click();
    setTimeout(() =>
      (document.activeElement ?? document.body).dispatchEvent(
        new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }),
      ),
    );
  }, undefined);
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Doorgaan met schrijven' }).click();
  await expect(ask).toBeHidden();
  // Focus is back in the text.
  await expect(dialog.getByLabel('Je herinnering')).toBeFocused();

  // A tap outside asks too.
  await page.mouse.click(5, 5);
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Doorgaan met schrijven' }).click();
  await expect(dialog).toBeVisible();

  // Leaving the page warns first (the browser's own question); after the reload the draft is back.
  const warned = page.waitForEvent('dialog');
  void page.evaluate(() => window.location.reload()).catch(() => {});
  const leave = await warned;
  expect(leave.type()).toBe('beforeunload');
  await leave.accept();
  await expect(page.getByRole('button', { name: 'Deel een herinnering' }).first()).toBeVisible();
  dialog = await openMemoryDialog(page);
  await expect(dialog.getByLabel('Je herinnering')).toHaveValue(text);
  await expect(dialog.getByLabel('Jaar of periode')).toHaveValue('Zomer 1982');
  await expect(dialog.getByText('Wat je eerder schreef, staat er nog.')).toBeVisible();

  // Shared: the draft is gone, and the dialog opens empty the next time.
  await dialog.getByRole('button', { name: 'Herinnering delen' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(text)).toBeVisible();
  dialog = await openMemoryDialog(page);
  await expect(dialog.getByLabel('Je herinnering')).toHaveValue('');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The biography: typed, another tab and back, and it is still there, marked as a draft.
  await openManageTab(page, id, 'Levensverhaal');
  const editor = page.getByRole('textbox', { name: /Levensverhaal van Hendrik/ });
  await editor.click();
  await page.keyboard.type('Hendrik werd geboren in een huis aan de dijk.');
  await openManageTab(page, id, 'Gegevens');
  await openManageTab(page, id, 'Levensverhaal');
  await expect(editor).toContainText('Hendrik werd geboren in een huis aan de dijk.');
  await expect(page.getByText('Je ziet een concept dat nog niet is opgeslagen.')).toBeVisible();

  // Saved: no draft any more, the text stays.
  await page.getByRole('button', { name: 'Levensverhaal opslaan' }).click();
  await expect(page.getByText('Het levensverhaal is opgeslagen')).toBeVisible();
  await expect(page.getByText('Je ziet een concept dat nog niet is opgeslagen.')).toBeHidden();
  await page.reload();
  await expect(editor).toContainText('Hendrik werd geboren in een huis aan de dijk.');
  await expect(page.getByText('Je ziet een concept dat nog niet is opgeslagen.')).toBeHidden();
});

for (const theme of ['light', 'dark'] as const) {
  test(
    `the question before closing a memory is accessible and fits the screen in the ${theme} theme`,
    { tag: '@layout' },
    async ({ page }, testInfo) => {
      test.setTimeout(90_000);
      await page
        .context()
        .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
      await activeMemorial(page, 'Grietje');
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark).*$/);
      const dialog = await openMemoryDialog(page);
      await dialog.getByLabel('Je herinnering').fill('De geur van appeltaart op zaterdag.');
      await dialog.getByRole('button', { name: 'Sluiten' }).click();
      const ask = page.getByRole('alertdialog', { name: 'Wil je stoppen met schrijven?' });
      await expect(ask).toBeVisible();

      const results = await axeResults(page, { include: '[role="alertdialog"]' });
      expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      // Every choice is on the screen, none cut off.
      const viewport = page.viewportSize()!;
      for (const name of ['Doorgaan met schrijven', 'Bewaren voor later', 'Weggooien']) {
        const box = (await ask.getByRole('button', { name }).boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      }
      await page.screenshot({ path: testInfo.outputPath(`discard-${theme}.png`) });

      // Kept for later: closed, and the text is back when the dialog opens again.
      await ask.getByRole('button', { name: 'Bewaren voor later' }).click();
      await expect(dialog).toBeHidden();
      const again = await openMemoryDialog(page);
      await expect(again.getByLabel('Je herinnering')).toHaveValue('De geur van appeltaart op zaterdag.');
    },
  );
}
