import { expect, test, type Browser, type Locator, type Page } from '../support/test.ts';
import { CoreApi } from '../support/app-api.ts';
import { createMemorialAsNewOwner } from '../support/app-memorial.ts';

// The memory wall as a visitor meets it: a page at a time while scrolling, 1 / 2 / 3 columns, the empty
// state and the loading skeleton. The memorial and its memories are set up through the API (their UI path
// is covered by app-owner-visitor); what is under test here goes through the page.

const WALL = '**/core/memories/query-memorial';

/**
 * A published public memorial of a new owner signed in on `owner`. From an address of its own (the e2e
 * server trusts X-Forwarded-For): writing memories is limited to 60 an hour per address, and both projects
 * and other specs write them.
 */
async function publicMemorial(owner: Page, firstName: string) {
  await owner.context().setExtraHTTPHeaders({
    'x-forwarded-for': `198.51.100.${1 + Math.floor(Math.random() * 250)}`,
  });
  const lastName = `Hoekstra ${Date.now().toString(36)}`;
  const { id } = await createMemorialAsNewOwner(owner, firstName, lastName);
  const api = await CoreApi.as(owner);
  await api.update(id, { status: 'active', visibility: 'public' });
  return { id, api, name: `${firstName} ${lastName}` };
}

/** The owner in a browser of their own, so `page` (with the project's screen) stays an anonymous visitor. */
async function ownerBrowser(browser: Browser) {
  const context = await browser.newContext();
  return { context, owner: await context.newPage() };
}

/** The year labels of the cards on the wall, in the order shown (their text, not the upper-cased look). */
const cardNames = (wall: Locator) => wall.getByRole('heading', { level: 3 }).allTextContents();

/** How many cards share the first row, from where the cards are laid out. */
async function cardsInFirstRow(cards: Locator) {
  const tops: number[] = [];
  for (let i = 0; i < 4; i++) tops.push((await cards.nth(i).boundingBox())!.y);
  return tops.filter((y) => Math.abs(y - tops[0]!) < 1).length;
}

/** Scrolls the last card on the wall into view, as a visitor reading to the end would. */
async function scrollToEndOfWall(cards: Locator) {
  await cards.last().scrollIntoViewIfNeeded();
}

test(
  'a visitor scrolls through a long wall: newest first, a page at a time, until its end; 3 / 2 / 1 columns',
  { tag: ['@database', '@layout'] },
  async ({ page, browser }) => {
    test.setTimeout(150_000);
    const { context, owner } = await ownerBrowser(browser);
    const { id, api } = await publicMemorial(owner, 'Gerrit');
    // 30 memories, the newest last. A few milliseconds apart, so each has a creation time of its own.
    for (let i = 1; i <= 30; i++) {
      const memory = await api.addMemory(id, {
        yearLabel: `Jaar ${1950 + i}`,
        text: `Herinnering nummer ${i}.`,
      });
      expect(memory.status).toBe('published');
      await new Promise((r) => setTimeout(r, 15));
    }
    await context.close();
    const newestFirst = Array.from({ length: 30 }, (_, i) => `Jaar ${1950 + 30 - i}`);

    // The second page waits until the visitor has seen that more is on its way; the third until the test
    // has looked at the second.
    const asked: (string | null)[] = [];
    let releaseSecond!: () => void;
    const secondReleased = new Promise<void>((r) => (releaseSecond = r));
    let releaseLast!: () => void;
    const lastReleased = new Promise<void>((r) => (releaseLast = r));
    await page.route(WALL, async (route) => {
      const cursor = (route.request().postDataJSON() as { cursor: string | null }).cursor;
      asked.push(cursor);
      const nth = asked.filter((c) => c !== null).length;
      if (nth === 1) await secondReleased;
      if (nth >= 2) await lastReleased;
      await route.continue();
    });

    // An anonymous visitor: the first page arrives with the page itself.
    await page.goto(`/memorial/${id}`);
    const wall = page.getByTestId('memory-wall');
    const cards = wall.getByRole('article');
    await expect(cards).toHaveCount(12);
    expect(await cardNames(wall)).toEqual(newestFirst.slice(0, 12));
    await expect(page.getByRole('button', { name: 'Meer laden' })).toBeVisible();

    await test.step('scrolling to the end loads the next page by itself, until the end is announced', async () => {
      await scrollToEndOfWall(cards);
      await expect(page.getByRole('status', { name: 'Meer herinneringen laden' })).toBeVisible();
      releaseSecond();
      await expect(cards).toHaveCount(24);
      expect(await cardNames(wall)).toEqual(newestFirst.slice(0, 24));

      await scrollToEndOfWall(cards);
      await expect.poll(() => asked.filter((c) => c !== null).length).toBe(2);
      releaseLast();
      await expect(cards).toHaveCount(30);
      const names = await cardNames(wall);
      expect(names).toEqual(newestFirst);
      expect(new Set(names).size).toBe(30);

      await scrollToEndOfWall(cards);
      await expect(page.getByText('Je hebt alle herinneringen gezien.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Meer laden' })).toHaveCount(0);
      // Each page was asked for once, and nothing after the last.
      expect(asked.filter((c) => c !== null)).toHaveLength(2);
      expect(new Set(asked.filter((c) => c !== null)).size).toBe(2);
      await expect(cards).toHaveCount(30);
    });

    await test.step('the cards stand in as many columns as the screen is wide', async () => {
      await page.evaluate(() => window.scrollTo(0, 0));
      if (test.info().project.name === 'phone') {
        expect(await cardsInFirstRow(cards)).toBe(1);
        const [first, second] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()];
        expect(second!.y).toBeGreaterThanOrEqual(first!.y + first!.height);
      } else {
        expect(await cardsInFirstRow(cards)).toBe(3);
        // Between the sm and lg breakpoints: two.
        await page.setViewportSize({ width: 700, height: 800 });
        await expect.poll(() => cardsInFirstRow(cards)).toBe(2);
        await page.setViewportSize({ width: 1280, height: 800 });
        await expect.poll(() => cardsInFirstRow(cards)).toBe(3);
      }
    });
  },
);

test('a freshly published page without memories: the owner is invited to share the first, a visitor told what will come', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, owner } = await ownerBrowser(browser);
  const { id, name } = await publicMemorial(owner, 'Trijntje');

  // The owner, who may write here, is invited to share the first memory.
  await owner.goto(`/memorial/${id}`);
  await expect(owner.getByRole('heading', { level: 1, name })).toBeVisible();
  const empty = owner.getByRole('region', { name: 'Herinneringen' });
  await expect(empty.getByText('Nog geen herinneringen')).toBeVisible();
  await expect(
    empty.getByText('Deel als eerste een herinnering aan Trijntje: een moment, een verhaal, een foto.'),
  ).toBeVisible();
  await empty.getByRole('button', { name: 'Deel de eerste herinnering' }).click();
  await expect(owner.getByRole('dialog', { name: 'Deel een herinnering' })).toBeVisible();
  await context.close();

  // An anonymous visitor cannot write here (only the family and their guests can): the wall says what will
  // appear, and offers nothing they could not do.
  await page.goto(`/memorial/${id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const wall = page.getByRole('region', { name: 'Herinneringen' });
  await expect(wall.getByText('Nog geen herinneringen')).toBeVisible();
  await expect(
    wall.getByText('Hier verschijnen de herinneringen die familie en vrienden aan Trijntje delen.'),
  ).toBeVisible();
  await expect(wall.getByRole('button')).toHaveCount(0);
  await expect(page.getByTestId('memory-wall')).toHaveCount(0);
});

test('while the memories load the wall shows its skeleton, then the cards', async ({ page }) => {
  test.setTimeout(120_000);
  const { id, api, name } = await publicMemorial(page, 'Hendrik');
  await api.addMemory(id, { yearLabel: 'Winter 1979', text: 'Schaatsen op de Elfstedenroute.' });

  // A signed-in member's browser reads the wall itself (the server renders only the anonymous page); the
  // answer is held back until the skeleton has been seen.
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(WALL, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(`/memorial/${id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const skeleton = page.getByRole('list', { name: 'Herinneringen laden' });
  await expect(skeleton).toBeVisible();
  await expect(skeleton).toHaveAttribute('aria-busy', 'true');
  // Nothing claims the wall is empty while it loads.
  await expect(page.getByText('Nog geen herinneringen')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Herinneringen' }).getByRole('article')).toHaveCount(0);

  release();
  await expect(page.getByTestId('memory-wall').getByRole('article', { name: 'Winter 1979' })).toBeVisible();
  await expect(skeleton).toHaveCount(0);
});
