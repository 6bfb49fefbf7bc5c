import { expect, test, type Page } from '../support/test.ts';
import { exampleMemorialIds } from '@aandenken/contract';

const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1280) < 768;

/** The examples are made in the background when the server starts; wait until Johanna's page is there. */
async function examplesReady(page: Page) {
  await expect
    .poll(async () => (await page.request.get(`/core/memorial/${exampleMemorialIds.johanna}`)).status(), {
      timeout: 150_000,
      intervals: [2000],
    })
    .toBe(200);
}

test(
  'an example memorial opens from the landing page, with its photos, story, memories and candles',
  { tag: '@layout' },
  async ({ page }) => {
    test.setTimeout(240_000);
    await examplesReady(page);
    await page.goto('/');
    const examples = page.getByRole('region', { name: 'Bekijk deze voorbeelden' });
    if (isPhone(page)) {
      await examples.getByRole('link', { name: 'Bekijk profiel' }).first().click();
    } else {
      await examples.getByRole('link', { name: 'Bekijk de gedenkpagina' }).first().click();
    }
    await expect(page).toHaveURL(`/memorial/${exampleMemorialIds.johanna}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Johanna de Vries' })).toBeVisible();
    await expect(page.getByText('1941 – 2024')).toBeVisible();
    await expect(page.getByRole('img', { name: /Portretfoto/ })).toBeVisible();

    // Biography and the wall (newest first), with hearts that visitors see but cannot give.
    await expect(page.getByRole('heading', { name: 'Levensverhaal' })).toBeVisible();
    await expect(page.locator('.memorial-prose h2').first()).toHaveText('Juf Johanna');
    const wall = page.getByTestId('memory-wall');
    await expect(wall.getByRole('article')).toHaveCount(9);
    await expect(wall.getByRole('article').first()).toContainText('Kleindochter Fleur');
    await expect(wall.getByRole('button', { name: /Vind ik mooi/ })).toHaveCount(0);
    // Anyone may look, not everyone may write.
    await expect(page.getByRole('button', { name: 'Deel een herinnering' })).toHaveCount(0);

    // The photos: the coverflow loads when it comes near, a photo opens full screen, arrows move, Escape closes.
    const photos = page.getByRole('region', { name: 'Foto’s' });
    await photos.scrollIntoViewIfNeeded();
    const first = photos.getByRole('button', { name: /Foto 1 van 4 bekijken/ });
    await expect(first).toBeVisible();
    await first.click();
    const viewer = page.getByRole('dialog', { name: 'Foto’s van Johanna de Vries' });
    await expect(viewer).toBeVisible();
    await expect(viewer.getByText('1 / 4')).toBeVisible();
    await expect(viewer.getByText('Haar tuin in de nazomer, vol dahlia’s.')).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(viewer.getByText('2 / 4')).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(viewer.getByText('4 / 4')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();

    // A visitor of a public page may leave a flower.
    const candles = page.getByRole('region', { name: 'Kaarsjes en bloemen' });
    // Opened as the server's HTML, the candles are an island (decision 019): its form works once the visitor has
    // come near it (until then its fields are disabled, as before any page has hydrated).
    await candles.scrollIntoViewIfNeeded();
    // The example has 34 flowers; other tests of this run may have added some.
    const summary = candles.getByText(/\d+ bloemen zijn neergelegd/);
    await expect(summary).toBeVisible();
    const flowers = Number(/(\d+) bloemen/.exec((await summary.textContent()) ?? '')![1]);
    expect(flowers).toBeGreaterThanOrEqual(34);
    await candles
      .locator('label')
      .filter({ hasText: /^Bloem$/ })
      .click();
    await candles.getByLabel('Je naam').fill('Een bezoeker');
    await candles.getByRole('button', { name: 'Leg een bloem neer' }).click();
    await expect(candles.getByText('Je bloem is neergelegd.')).toBeVisible();
    await expect(candles.getByText(`${flowers + 1} bloemen zijn neergelegd`, { exact: false })).toBeVisible();
  },
);

test('a page that does not exist reads the same as a private one', async ({ page }) => {
  await page.goto('/memorial/0b7f3a52-1d3e-4c1b-9a57-0e3f4b8d2aff');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Deze pagina bestaat niet of is besloten' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Toegangscode invullen' })).toHaveAttribute(
    'href',
    '/beslotenpagina',
  );
});
