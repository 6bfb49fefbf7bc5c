import { expect, test, type Page } from '../support/test.ts';
import { exampleMemorialIds } from '@aandenken/contract';

const url = `/memorial/${exampleMemorialIds.johanna}`;

/** The examples are made in the background when the server starts; wait until Johanna's page is there. */
async function examplesReady(page: Page) {
  await expect
    .poll(async () => (await page.request.get(`/core/memorial/${exampleMemorialIds.johanna}`)).status(), {
      timeout: 150_000,
      intervals: [2000],
    })
    .toBe(200);
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the public memorial page arrives rendered: name, years, biography, memories and candles', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await examplesReady(page);
    await page.goto(url);
    await expect(page).toHaveTitle('Johanna de Vries · Aandenken');
    await expect(page.getByRole('heading', { level: 1, name: 'Johanna de Vries' })).toBeVisible();
    await expect(page.getByText('1941 – 2024')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Levensverhaal' })).toBeVisible();
    await expect(page.locator('.memorial-prose h2').first()).toHaveText('Juf Johanna');
    await expect(page.getByTestId('memory-wall').getByRole('article')).toHaveCount(9);
    await expect(page.getByRole('heading', { name: 'Kaarsjes en bloemen' })).toBeVisible();
    // The portrait is the first thing to load, at its size.
    const portrait = page.getByRole('img', { name: /Portretfoto/ });
    await expect(portrait).toHaveAttribute('fetchpriority', 'high');
    await expect(portrait).toHaveAttribute('loading', 'eager');
    await expect(portrait).toHaveAttribute('width', /\d+/);
    await expect(portrait).toHaveAttribute('srcset', /\d+w/);
  });
});

test(
  'with JavaScript the page hydrates without a console error, and lighting a candle works',
  { tag: '@database' },
  async ({ page }) => {
    test.setTimeout(180_000);
    await examplesReady(page);
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    const rendered = await (await page.request.get(url)).text();
    expect(rendered).toContain('Johanna de Vries</h1>');
    expect(rendered).toContain('<script type="application/json" id="ssr-data">');

    // The heading as the HTML parser made it: hydration adopts it; a render afresh would replace it.
    await page.addInitScript(() => {
      const observer = new MutationObserver(() => {
        const h1 = document.getElementById('memorial-name');
        if (!h1) return;
        (window as unknown as { parsedHeading: Element }).parsedHeading = h1;
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1, name: 'Johanna de Vries' })).toBeVisible();
    // The candles are an island (decision 019): the server's HTML until the visitor comes near them. Hydrated:
    // the candles' times turn relative only in the browser, after hydration.
    const candles = page.getByRole('region', { name: 'Kaarsjes en bloemen' });
    await candles.scrollIntoViewIfNeeded();
    await expect(candles.getByRole('list', { name: 'Kaarsjes en bloemen, nieuwste eerst' })).toContainText(
      /geleden|gisteren|zojuist/,
    );
    expect(
      await page.evaluate(
        () =>
          (window as unknown as { parsedHeading?: Element }).parsedHeading ===
          document.getElementById('memorial-name'),
      ),
    ).toBe(true);
    const reads: string[] = [];
    page.on('request', (r) => r.url().includes('/core/') && reads.push(r.url()));

    await candles.getByLabel('Je naam').fill('Een lezer');
    await candles.getByLabel('Bericht (niet verplicht)').fill('Met liefde.');
    await candles.getByRole('button', { name: 'Steek een kaarsje aan' }).click();
    await expect(candles.getByText('Je kaarsje brandt.')).toBeVisible();
    await expect(candles.getByRole('list', { name: 'Kaarsjes en bloemen, nieuwste eerst' })).toContainText(
      'Een lezer',
    );
    expect(reads.some((r) => r.includes('/core/candles/'))).toBe(true);

    // The next load shows the new candle in the server's HTML.
    const after = await (await page.request.get(url)).text();
    expect(after).toContain('Met liefde.');
    expect(problems).toEqual([]);
  },
);

test('a private or unknown memorial gets the plain shell, the same for both', async ({ page }) => {
  const unknown = await (await page.request.get('/memorial/00000000-0000-4000-8000-000000000000')).text();
  expect(unknown).toContain('<div id="root"></div>');
  expect(unknown).not.toContain('ssr-data');
});
