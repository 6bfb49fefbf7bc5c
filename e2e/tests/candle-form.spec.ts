import { exampleMemorialIds } from '@aandenken/contract';
import { axeResults } from '../support/axe.ts';
import { expect, test, type Page } from '../support/test.ts';

/**
 * The memorial page's candle form (candles-section.tsx, site/candle-form.ts): a real form that works before the
 * page's script arrives and without it, reached from the hero's 'Steek een kaarsje aan' with its name field
 * focused, and held in place while the page above it settles.
 */
const id = exampleMemorialIds.johanna;
const url = `/memorial/${id}`;

/** The examples are made in the background when the server starts; wait until Johanna's page is there. */
async function examplesReady(page: Page) {
  await expect
    .poll(async () => (await page.request.get(`/core/memorial/${id}`)).status(), {
      timeout: 150_000,
      intervals: [2000],
    })
    .toBe(200);
}

/**
 * Opens the page once the app has started on it (main.tsx announces it): a tap while React takes over the
 * server's HTML can land where the link was a moment before, which is the browser's race, not the form's.
 */
async function openStarted(page: Page) {
  await page.addInitScript(() =>
    window.addEventListener('aandenken:started', () => {
      (window as unknown as { started: boolean }).started = true;
    }),
  );
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { started?: boolean }).started === true);
}

/** The names of the page's newest candles, as the API answers. */
async function candleNames(page: Page) {
  const res = await page.request.post('/core/candles/query', { data: { memorialId: id, limit: 20 } });
  return ((await res.json()) as { items: Array<{ name: string }> }).items.map((c) => c.name);
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a visitor types a name and lights a candle; the server confirms it in Dutch', async ({ page }) => {
    test.setTimeout(180_000);
    await examplesReady(page);
    await page.goto(url);
    const form = page.getByRole('form', { name: 'Kaarsje aansteken of bloem neerleggen' });
    const name = form.getByRole('textbox', { name: 'Je naam' });
    await expect(name).toBeEditable();
    await name.fill('Nienke zonder script');
    await form.getByRole('textbox', { name: 'Bericht (niet verplicht)' }).fill('Dag juf Johanna');
    await form.getByRole('button', { name: 'Steek een kaarsje aan' }).click();
    await expect(page).toHaveURL(new RegExp(`${url}#kaarsje-brandt$`));
    await expect(page.getByText('Je kaarsje brandt.')).toBeVisible();
    expect(await candleNames(page)).toContain('Nienke zonder script');
  });

  test('a form without a name comes back with the reason in Dutch and what was typed', async ({ page }) => {
    test.setTimeout(180_000);
    await examplesReady(page);
    await page.goto(url);
    const form = page.getByRole('form', { name: 'Kaarsje aansteken of bloem neerleggen' });
    await form.getByText('Bloem', { exact: true }).click();
    await form.getByRole('textbox', { name: 'Bericht (niet verplicht)' }).fill('Zonder naam gestuurd');
    await form.getByRole('button', { name: 'Leg een bloem neer' }).click();
    await expect(form.getByRole('alert')).toContainText('Naam is verplicht');
    await expect(form.getByRole('textbox', { name: 'Je naam' })).toBeFocused();
    await expect(form.getByRole('textbox', { name: 'Bericht (niet verplicht)' })).toHaveValue(
      'Zonder naam gestuurd',
    );
    await expect(form.getByRole('radio', { name: 'Bloem' })).toBeChecked();
    expect(await candleNames(page)).not.toContain('');
  });
});

test('the hero’s button lands on the form with the name field focused, and the form stays put', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await examplesReady(page);
  await openStarted(page);
  await page.getByRole('link', { name: 'Steek een kaarsje aan' }).click();
  const form = page.getByRole('form', { name: 'Kaarsje aansteken of bloem neerleggen' });
  const name = form.getByRole('textbox', { name: 'Je naam' });
  await expect(name).toBeFocused();
  await expect(name).toBeInViewport();
  // Where the form's top is on the screen, every frame for three seconds while the page above it settles.
  const tops = await page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        const form = document.getElementById('kaarsje-aansteken')!;
        const seen: number[] = [];
        const start = performance.now();
        const frame = () => {
          seen.push(form.getBoundingClientRect().top);
          if (performance.now() - start < 3000) requestAnimationFrame(frame);
          else resolve(seen);
        };
        frame();
      }),
  );
  expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(4);
  // What is typed at once stays when the form's script takes over, and lights the candle.
  await page.keyboard.type('Sanne met script');
  await form.getByRole('button', { name: 'Steek een kaarsje aan' }).click();
  await expect(page.getByText('Je kaarsje brandt.')).toBeVisible();
  await expect(page.getByText('Dank je wel, Sanne met script.')).toBeVisible();
});

test('a field typed into before the app has started keeps its focus and text when the app takes over', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await examplesReady(page);
  // The app's script is held back until the visitor has typed: a slow phone's first seconds.
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.addInitScript(() =>
    window.addEventListener('aandenken:started', () => {
      (window as unknown as { started: boolean }).started = true;
    }),
  );
  await page.goto(url);
  const form = page.getByRole('form', { name: 'Kaarsje aansteken of bloem neerleggen' });
  const name = form.getByRole('textbox', { name: 'Je naam' });
  await name.click();
  await page.keyboard.type('Anna');
  release();
  await page.waitForFunction(() => (window as unknown as { started?: boolean }).started === true);
  // Until the section has taken over (its script hydrates it in place), then once more after that.
  await expect(page.locator('[data-island="candles"][data-hydrated]')).toBeAttached();
  await expect(name).toBeFocused();
  await expect(name).toHaveValue('Anna');
  await page.keyboard.type(' voor het script');
  await form.getByRole('button', { name: 'Steek een kaarsje aan' }).click();
  await expect(page.getByText('Dank je wel, Anna voor het script.')).toBeVisible();
});

test('the candle’s flame moves only while it is on the screen, and not at all for less motion', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await examplesReady(page);
  await openStarted(page);
  const flame = page.locator('#kaarsjes .candle-flame').first();
  const moving = () => flame.evaluate((el) => el.getAnimations().length);
  // In the middle of the screen, again at each look: the sections above it settle their height meanwhile.
  const movingInView = () =>
    flame.evaluate((el) => {
      el.scrollIntoView({ block: 'center', behavior: 'instant' });
      return el.getAnimations().length;
    });
  expect(await moving()).toBe(0);
  await flame.scrollIntoViewIfNeeded();
  await expect(page.locator('[data-island="candles"][data-hydrated]')).toBeAttached();
  await expect.poll(movingInView).toBe(1);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await expect.poll(movingInView).toBe(0);
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(moving).toBe(0);
});

for (const theme of ['light', 'dark'] as const) {
  test(
    `the candle section is accessible in the ${theme} theme`,
    { tag: '@layout' },
    async ({ page, context }, testInfo) => {
      test.setTimeout(180_000);
      await context.addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
      await examplesReady(page);
      await openStarted(page);
      await page.getByRole('link', { name: 'Steek een kaarsje aan' }).click();
      await expect(page.getByRole('textbox', { name: 'Je naam' })).toBeFocused();
      await page.evaluate(() => document.fonts.ready);
      const { violations } = await axeResults(page, { include: '#kaarsjes' });
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
      await page.screenshot({ path: testInfo.outputPath(`candle-form-${theme}.png`) });
    },
  );
}
