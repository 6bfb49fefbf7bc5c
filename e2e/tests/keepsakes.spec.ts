import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { CoreApi } from '../support/app-api.ts';
import { confirm, createMemorialAsNewOwner, readAccessCode } from '../support/app-memorial.ts';

// Keepsakes for every plan: the presentation for the screen at a service, and the questions that
// help a family write a first biography.

async function expectNoSeriousViolations(page: Page, what: string) {
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
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  expect.soft(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page
    .context()
    .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
}

const current = (page: Page) => page.locator('.presentation-slide[data-current]');
const transitionOf = (page: Page) => current(page).evaluate((el) => getComputedStyle(el).transitionDuration);

test('the presentation runs through its slides with the keyboard, hides its controls, and honours reduced motion', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const lastName = `Bos ${Date.now().toString(36)}`;
  const name = `Gerrit ${lastName}`;
  const { id } = await createMemorialAsNewOwner(page, 'Gerrit', lastName);
  const api = await CoreApi.as(page);
  await api.update(id, {
    status: 'active',
    visibility: 'public',
    birthDate: '1938-05-02',
    deathDate: '2024-01-12',
  });
  await api.uploadPhoto(id, 'haven.jpg', 200, 'In de haven');
  await api.uploadPhoto(id, 'tuin.jpg', 100, 'In de tuin');
  await api.uploadPhoto(id, 'fiets.jpg', 40, 'Op de fiets');
  await api.addMemory(id, { yearLabel: 'Zomer 1975', text: 'Hij floot altijd bij het vissen.' });

  // From the memorial page's gallery.
  await page.goto(`/memorial/${id}`);
  await page.getByRole('heading', { level: 2, name: 'Foto’s' }).scrollIntoViewIfNeeded();
  await page.getByRole('link', { name: 'Bekijk als presentatie' }).click();
  await expect(page).toHaveURL(`/memorial/${id}/presentatie`);
  const show = page.getByRole('region', { name: `Presentatie: ${name}` });
  await expect(show).toBeVisible();

  // Pause (k), then step through: title, three photos, the memory, the closing slide.
  await page.keyboard.press('k');
  await expect(page.getByRole('button', { name: 'Afspelen' })).toBeVisible();
  await page.keyboard.press('Home');
  await expect(current(page)).toHaveAttribute('data-slide', 'title');
  await expect(current(page)).toContainText(name);
  await expect(current(page)).toContainText('1938 – 2024');
  const kinds = ['photo', 'photo', 'photo', 'memory', 'closing'];
  for (const kind of kinds) {
    await page.keyboard.press('ArrowRight');
    await expect(current(page)).toHaveAttribute('data-slide', kind);
  }
  await expect(current(page)).toContainText('In liefdevolle herinnering aan');
  await page.keyboard.press('ArrowLeft');
  await expect(current(page)).toContainText('Hij floot altijd bij het vissen.');
  await expect(current(page)).toContainText('Zomer 1975');
  // Calm cross-fades.
  expect(await transitionOf(page)).toBe('1.2s');

  // Space plays again; the buttons have names.
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Pauzeren' })).toBeVisible();
  await page.getByRole('button', { name: 'Pauzeren' }).click();
  await page.getByRole('button', { name: 'Vorige dia' }).click();
  await expect(current(page)).toHaveAttribute('data-slide', 'photo');

  // After 3 s without the pointer moving the controls and cursor hide; a movement shows them again.
  const controls = page.locator('.presentation-controls');
  await expect(show).toHaveAttribute('data-idle', '', { timeout: 6_000 });
  await expect(controls).toHaveCSS('opacity', '0');
  await expect(show).toHaveCSS('cursor', 'none');
  await page.mouse.move(200, 200);
  await page.mouse.move(240, 260);
  await expect(show).not.toHaveAttribute('data-idle', '');
  await expect(controls).toHaveCSS('opacity', '1');

  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await page.reload();
    await expect(show).toBeVisible();
    await page.keyboard.press('k');
    await expectNoSeriousViolations(page, `presentatie (${theme})`);
  }

  // Escape leaves the presentation.
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/gedenkpagina\/gerrit-bos-/);

  // A visitor who prefers reduced motion: the slides switch without a transition, and it plays on its own.
  const calm = await browser.newContext({ reducedMotion: 'reduce' });
  const visitor = await calm.newPage();
  await visitor.goto(`/memorial/${id}/presentatie`);
  await expect(current(visitor)).toHaveAttribute('data-slide', 'title');
  // No transition (the site's reduced-motion rule leaves at most a hundredth of a millisecond).
  expect(parseFloat(await transitionOf(visitor))).toBeLessThan(0.001);
  await visitor.keyboard.press('ArrowRight');
  await expect(current(visitor)).toHaveAttribute('data-slide', 'photo');
  await expect(visitor.locator('.presentation-slide[data-slide="title"]')).toHaveCSS('opacity', '0');
  await calm.close();
});

test('the biography questions save as you type, survive a reload and become a first biography', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const lastName = `Vos ${Date.now().toString(36)}`;
  const { id } = await createMemorialAsNewOwner(page, 'Truus', lastName);

  // From the biography tab.
  await page.goto(`/memorial/${id}/beheer/levensverhaal`);
  await page.getByRole('link', { name: 'Hulp bij schrijven: vragenlijst' }).click();
  await expect(page).toHaveURL(`/memorial/${id}/levensverhaal`);
  await expect(page.getByRole('heading', { level: 2, name: 'Jeugd' })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Voortgang' })).toHaveAttribute(
    'aria-valuetext',
    'Stap 1 van 6',
  );

  const status = page.locator('[role="status"][data-save-state]');
  await page
    .getByLabel('Waar en in wat voor gezin groeide hij of zij op?')
    .fill('In Deventer, als jongste van zes.');
  await expect(status).toHaveText('Opgeslagen');
  await page.getByRole('button', { name: 'Volgende' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Opleiding en werk' })).toBeFocused();
  await page
    .getByLabel('Welk werk deed hij of zij, en waar was hij of zij trots op?')
    .fill('Zij was verpleegkundige in het Sint Jozef.');
  await expect(status).toHaveText('Opgeslagen');

  // Without a connection the screen says the answer was not saved, and saves it when asked again.
  const school = page.getByLabel('Welke school of opleiding volgde hij of zij, en wat bleef daarvan bij?');
  await page.context().setOffline(true);
  await school.fill('De kweekschool in Zwolle.');
  await expect(status).toHaveText('Niet opgeslagen');
  await expect(page.getByRole('alert')).toContainText('Je antwoord is niet opgeslagen');
  await page.context().setOffline(false);
  await page.getByRole('button', { name: 'Opnieuw opslaan' }).click();
  await expect(status).toHaveText('Opgeslagen');
  await expect(page.getByRole('alert')).toHaveCount(0);

  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await page.reload();
    // Nothing is lost on reload.
    await expect(page.getByLabel('Waar en in wat voor gezin groeide hij of zij op?')).toHaveValue(
      'In Deventer, als jongste van zes.',
    );
    await expectNoSeriousViolations(page, `levensverhaal-vragen (${theme})`);
  }
  await page.getByRole('button', { name: 'Stap 2: Opleiding en werk' }).click();
  await expect(page.getByLabel('Welk werk deed hij of zij, en waar was hij of zij trots op?')).toHaveValue(
    'Zij was verpleegkundige in het Sint Jozef.',
  );
  await expect(school).toHaveValue('De kweekschool in Zwolle.');

  // The end: a first biography in the editor.
  await page.getByRole('button', { name: 'Stap 6: Afronden' }).click();
  await expect(page.getByText('In Deventer, als jongste van zes.')).toBeVisible();
  await page.getByRole('button', { name: 'Maak een eerste levensverhaal' }).click();
  await expect(page).toHaveURL(`/memorial/${id}/beheer/levensverhaal`);
  const editor = page.locator('[contenteditable="true"]');
  await expect(editor).toContainText('In Deventer, als jongste van zes.');
  await expect(editor).toContainText('Zij was verpleegkundige in het Sint Jozef.');

  // Again, now that there is a biography: only after an explicit confirmation.
  await page.goto(`/memorial/${id}/levensverhaal`);
  await page.getByRole('button', { name: 'Stap 4: Wat hem of haar bezighield' }).click();
  await page.getByLabel('Waar kon hij of zij urenlang mee bezig zijn?').fill('Met de moestuin.');
  await expect(status).toHaveText('Opgeslagen');
  await page.getByRole('button', { name: 'Stap 6: Afronden' }).click();
  await expect(page.getByText('Er staat al een levensverhaal op de pagina.')).toBeVisible();
  await page.getByRole('button', { name: 'Maak een eerste levensverhaal' }).click();
  await confirm(page, 'Ja, vervangen');
  await expect(page).toHaveURL(`/memorial/${id}/beheer/levensverhaal`);
  await expect(editor).toContainText('Met de moestuin.');
});

test('a private page’s presentation plays for a visitor with the access code, and for no one else', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const lastName = `Smit ${Date.now().toString(36)}`;
  const { id } = await createMemorialAsNewOwner(page, 'Hendrik', lastName);
  const api = await CoreApi.as(page);
  await api.update(id, { status: 'active', visibility: 'private' });
  await api.uploadPhoto(id, 'duin.jpg', 60, 'In de duinen');
  const code = await readAccessCode(page, id);

  const context = await browser.newContext();
  const stranger = await context.newPage();
  await stranger.goto(`/memorial/${id}/presentatie`);
  await expect(
    stranger.getByRole('heading', { level: 1, name: 'Deze pagina bestaat niet of is besloten' }),
  ).toBeVisible();

  await stranger.goto('/beslotenpagina');
  await expect(async () => {
    await stranger.getByRole('textbox', { name: 'Toegangscode' }).fill(code);
    const answer = stranger.waitForResponse((r) => r.url().endsWith('/core/guest/token'), { timeout: 3_000 });
    await stranger.getByRole('button', { name: 'Ga naar pagina' }).click();
    await answer;
  }).toPass({ timeout: 20_000 });
  await expect(stranger).toHaveURL(`/memorial/${id}`);
  await stranger.goto(`/memorial/${id}/presentatie`);
  await expect(current(stranger)).toContainText(`Hendrik ${lastName}`);
  await stranger.keyboard.press('ArrowRight');
  await expect(current(stranger)).toHaveAttribute('data-slide', 'photo');
  await expect(current(stranger).getByRole('img', { name: 'In de duinen' })).toBeVisible();
  await context.close();
});
