import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { CoreApi } from '../support/app-api.ts';
import { createMemorialAsNewOwner, openManageTab } from '../support/app-memorial.ts';
import { clickLogin } from '../support/identity.ts';

/** Serious and critical accessibility problems axe finds on the page as it is now (colour contrast included). */
async function expectNoSeriousViolations(page: Page, what: string) {
  // Colours are checked at rest: a tab's colour fading after a click once measured as a contrast fault.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const result = await axeResults(page);
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  // Soft, so one run lists the problems of every page.
  expect.soft(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

for (const theme of ['light', 'dark'] as const) {
  test(
    `the memorial page, managing it and Mijn Pagina’s are accessible in the ${theme} theme`,
    { tag: '@layout' },
    async ({ page, browser }) => {
      test.setTimeout(150_000);
      const lastName = `Kramer ${Date.now().toString(36)}`;
      const { id } = await createMemorialAsNewOwner(page, 'Jannie', lastName);
      const name = `Jannie ${lastName}`;
      // A page with something in every section: details, photos (one as cover; three make a coverflow), a memory.
      const api = await CoreApi.as(page);
      await api.update(id, {
        status: 'active',
        birthDate: '1941-03-08',
        deathDate: '2023-11-30',
        birthPlace: 'Groningen',
        deathPlace: 'Haren',
        quote: 'Altijd een open deur en een pan soep op het vuur.',
      });
      const cover = await api.uploadPhoto(id, 'portret.jpg', 30, 'Jannie in de tuin');
      await api.uploadPhoto(id, 'markt.jpg', 160, 'Op de markt');
      await api.uploadPhoto(id, 'strand.jpg', 210, 'Aan het strand');
      await api.update(id, { coverMediaId: cover });
      await api.addMemory(id, { yearLabel: 'Zomer 1968', text: 'Samen kersen plukken in de boomgaard.' });

      await page
        .context()
        .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);

      await page.goto(`/memorial/${id}`);
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark).*$/);
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      await expect(
        page.getByTestId('memory-wall').getByRole('article', { name: 'Zomer 1968' }),
      ).toBeVisible();
      // The coverflow loads as it nears the screen; its bullets must be large enough targets (WCAG 2.5.8).
      await page.getByRole('heading', { level: 2, name: 'Foto’s' }).scrollIntoViewIfNeeded();
      await expect(page.getByRole('button', { name: /Foto 1 van 3 bekijken/ })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Ga naar foto 3' })).toBeVisible();
      await expectNoSeriousViolations(page, 'gedenkpagina');
      // The candle form, in view as the hero's button brings it.
      await page.getByRole('link', { name: 'Steek een kaarsje aan' }).click();
      await expect(page.locator('#candle-name')).toBeFocused();
      await expectNoSeriousViolations(page, 'gedenkpagina, kaarsje');
      // The keepsakes: the printed book and the presentation.
      for (const [path, what] of [
        ['boek', 'gedrukt boek'],
        ['presentatie', 'presentatie'],
      ] as const) {
        await page.goto(`/memorial/${id}/${path}`);
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
        await expectNoSeriousViolations(page, what);
      }

      for (const tab of [
        'Gegevens',
        'Foto’s en video’s',
        'Herinneringen',
        'Mensen',
        'Privacy en toegang',
        // The plan and its trial notice.
        'Abonnement',
        'Logboek',
        'Bewaren',
      ]) {
        await openManageTab(page, id, tab);
        await expect(page.getByRole('tabpanel')).toBeVisible();
        await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
        await expectNoSeriousViolations(page, `beheren, ${tab}`);
      }

      await page.goto('/mijn-paginas');
      await expect(page.getByRole('link', { name: `${name} beheren` })).toBeVisible();
      await expectNoSeriousViolations(page, 'Mijn Pagina’s');

      // A one-time link that no longer works, opened by someone who is not signed in.
      const visitor = await browser.newContext();
      await visitor.addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
      const visitorPage = await visitor.newPage();
      await visitorPage.goto(`/memorial/${id}#gasttoken=${'x'.repeat(43)}`);
      await expect(
        visitorPage.getByRole('heading', { level: 1, name: 'Deze link is niet meer geldig' }),
      ).toBeVisible();
      await expectNoSeriousViolations(visitorPage, 'link niet meer geldig');
      // An invitation and a handover whose link no longer works.
      await visitorPage.goto(`/uitnodiging/${'x'.repeat(24)}`);
      await expect(
        visitorPage.getByRole('heading', { level: 1, name: 'Deze uitnodiging is niet meer geldig' }),
      ).toBeVisible();
      await expectNoSeriousViolations(visitorPage, 'uitnodiging niet meer geldig');
      await visitorPage.goto(`/overnemen/${'x'.repeat(24)}`);
      await expect(
        visitorPage.getByRole('heading', { level: 1, name: 'Deze link is niet meer geldig' }),
      ).toBeVisible();
      await expectNoSeriousViolations(visitorPage, 'overnemen niet meer geldig');
      // The identity screens the server serves: signing in and registering.
      await clickLogin(visitorPage);
      await expect(visitorPage.getByRole('link', { name: 'Account aanmaken' })).toBeVisible();
      await expectNoSeriousViolations(visitorPage, 'inloggen');
      await visitorPage.getByRole('link', { name: 'Account aanmaken' }).click();
      await expect(visitorPage.getByRole('heading', { name: 'Account aanmaken' })).toBeVisible();
      await expectNoSeriousViolations(visitorPage, 'account aanmaken');
      await visitor.close();
    },
  );
}
