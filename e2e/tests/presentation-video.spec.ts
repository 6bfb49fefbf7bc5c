import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { CoreApi } from '../support/app-api.ts';
import { createMemorialAsNewOwner } from '../support/app-memorial.ts';

// The memory presentation's builder: music for every plan, played with the slideshow; with
// Premium (a new page's trial has it) the chosen slides, captions, time, title and closing slide, and the
// MP4 made in the background with its progress shown.

async function expectNoSeriousViolations(page: Page, what: string) {
  const result = await axeResults(page);
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  expect.soft(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page
    .context()
    .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
}

/** A real MP3 (three seconds of a tone) made by the ffmpeg the server itself uses (FFMPEG_PATH, else PATH's). */
function toneMp3(): string {
  const ffmpeg = process.env.FFMPEG_PATH || 'ffmpeg';
  const file = path.join(os.tmpdir(), `e2e-lied-${process.pid}.mp3`);
  execFileSync(ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=duration=3',
    '-c:a',
    'libmp3lame',
    file,
  ]);
  return file;
}

const current = (page: Page) => page.locator('.presentation-slide[data-current]');

test('music and chosen slides play in the presentation; the video is made in the background', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const lastName = `Vos ${Date.now().toString(36)}`;
  const { id } = await createMemorialAsNewOwner(page, 'Anna', lastName);
  const api = await CoreApi.as(page);
  await api.update(id, { status: 'active' });
  await api.uploadPhoto(id, 'duin.jpg', 30, 'In de duinen');
  await api.uploadPhoto(id, 'zee.jpg', 210, 'Aan zee');
  await api.addMemory(id, { yearLabel: '1982', text: 'Ze zong altijd in de auto.' });

  // From Beheren → Foto’s en video’s.
  await page.goto(`/memorial/${id}/beheer/fotos`);
  await page.getByRole('link', { name: 'Presentatie samenstellen' }).click();
  await expect(page).toHaveURL(`/memorial/${id}/presentatie/samenstellen`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`Anna ${lastName}`);

  // Music: chosen, checked by the server, shown with its name.
  await page.getByLabel('Muziek kiezen').setInputFiles(toneMp3());
  await expect(page.getByTestId('music-name')).toHaveText(/e2e-lied-\d+\.mp3/);
  await expect(page.getByRole('button', { name: 'Muziek verwijderen' })).toBeVisible();

  // Slides: the sea first with its own caption, the memory in, five seconds each, a title of our own.
  const rows = page.getByTestId('slide-row');
  await expect(rows).toHaveCount(3);
  await page.getByRole('button', { name: 'Aan zee omhoog' }).click();
  await expect(rows.first()).toContainText('Opnemen');
  await page.getByLabel('Onderschrift bij Aan zee').fill('Bij de zee, 1990');
  await page.getByRole('checkbox', { name: /Herinnering: Ze zong/ }).check();
  await page.getByLabel('Seconden per dia').fill('5');
  await page.getByLabel('Titeldia').fill('Voor mama');
  await page.getByRole('button', { name: 'Presentatie opslaan' }).click();
  await expect(page.getByText('De presentatie is opgeslagen')).toBeVisible();

  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await page.reload();
    await expect(page.getByLabel('Titeldia')).toHaveValue('Voor mama');
    await expectNoSeriousViolations(page, `presentatie samenstellen (${theme})`);
  }

  // The slideshow follows the choice and plays the music with it.
  await page.getByRole('link', { name: 'Presentatie afspelen' }).click();
  await expect(page).toHaveURL(`/memorial/${id}/presentatie`);
  const show = page.getByRole('region', { name: /^Presentatie: / });
  await expect(show).toBeVisible();
  await page.keyboard.press('k');
  await expect(page.getByRole('button', { name: 'Afspelen' })).toBeVisible();
  const audio = page.getByTestId('presentation-music');
  await expect(audio).toHaveJSProperty('paused', true);
  await expect(audio).toHaveJSProperty('loop', true);
  await page.keyboard.press('Home');
  await expect(current(page)).toContainText('Voor mama');
  await page.keyboard.press('ArrowRight');
  await expect(current(page)).toContainText('Bij de zee, 1990');
  await page.keyboard.press('ArrowRight');
  await expect(current(page)).toHaveAttribute('data-slide', 'photo');
  await page.keyboard.press('ArrowRight');
  await expect(current(page)).toContainText('Ze zong altijd in de auto.');

  // Play: the music plays; pause: it pauses; M mutes.
  // A key press is a gesture, so the browser lets the music start with the slideshow.
  await page.keyboard.press('k');
  await expect(audio).toHaveJSProperty('paused', false);
  await expect(page.getByRole('button', { name: 'Muziek starten' })).toBeHidden();
  await page.keyboard.press('k');
  await expect(audio).toHaveJSProperty('paused', true);
  await page.keyboard.press('m');
  await expect(audio).toHaveJSProperty('muted', true);
  await expect(page.getByRole('button', { name: 'Muziek aanzetten' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.getByRole('slider', { name: 'Volume van de muziek' }).fill('40');
  await expect(audio).toHaveJSProperty('volume', 0.4);
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await page.reload();
    await expect(show).toBeVisible();
    await page.keyboard.press('k');
    await expect(page.getByRole('button', { name: 'Afspelen' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Muziek dempen' })).toBeVisible();
    await expectNoSeriousViolations(page, `presentatie met muziek (${theme})`);
  }

  // The video: 720p, made in the background with its progress, then ready to download.
  await page.goto(`/memorial/${id}/presentatie/samenstellen`);
  await page.getByLabel('Seconden per dia').fill('3');
  await page.getByRole('button', { name: 'Presentatie opslaan' }).click();
  await expect(page.getByText('De presentatie is opgeslagen')).toBeVisible();
  await page.getByRole('radio', { name: /720p/ }).check();
  await page.getByRole('button', { name: 'Video maken' }).click();
  await expect(page.getByRole('progressbar', { name: 'Video maken' })).toBeVisible();
  await expect(page.getByTestId('video-ready')).toBeVisible({ timeout: 180_000 });
  const link = page.getByRole('link', { name: 'Video downloaden (720p)' });
  const href = await link.getAttribute('href');
  const file = await page.request.get(href!);
  expect(file.status()).toBe(200);
  expect(file.headers()['content-type']).toBe('video/mp4');
  expect((await file.body()).subarray(4, 8).toString('latin1')).toBe('ftyp');
});
