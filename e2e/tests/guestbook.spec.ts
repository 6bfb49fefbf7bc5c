import jsQR from 'jsqr';
import sharp from 'sharp';
import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { CoreApi } from '../support/app-api.ts';
import { createMemorialAsNewOwner, openManageTab } from '../support/app-memorial.ts';

// The guestbook (docs/funeral-day.md, "Het condoleanceregister"): the family opens the digital guestbook,
// a visitor scans its QR code on a phone and signs without an account or access code, and the family's
// screen shows the entry appear live.

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

/** Reads the QR code in a screenshot of `page`'s element, as a phone's camera would. */
async function decodeQr(page: Page, testId: string): Promise<string> {
  const qr = page.getByTestId(testId);
  await expect(qr.locator('svg')).toBeVisible();
  const png = await qr.screenshot();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const code = jsQR(
    new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    info.width,
    info.height,
  );
  expect(code, 'a readable QR code').not.toBeNull();
  return code!.data;
}

test('the guestbook: a visitor scans the QR code on a phone and signs; the family sees it appear live', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const lastName = `Register ${Date.now().toString(36)}`;
  const { id } = await createMemorialAsNewOwner(page, 'Lotte', lastName);
  const api = await CoreApi.as(page);
  // A private page: signing the guestbook needs no access code.
  await api.update(id, { status: 'active', visibility: 'private' });

  await openManageTab(page, id, 'Uitvaart');
  const section = page.locator('section', {
    has: page.getByRole('heading', { name: 'Condoleanceregister', exact: true }),
  });
  await section.getByRole('button', { name: 'Register openen' }).click();
  await expect(section.getByTestId('guestbook-state')).toHaveText('open');
  const live = section.getByTestId('guestbook-live');
  await expect(live).toHaveText(/^Live/);
  await expectAccessibleInBothThemes(page, async () => {
    await expect(live).toHaveText(/^Live/);
    await expect(section.getByTestId('guestbook-qr').locator('svg')).toBeVisible();
  });

  // The QR code, decoded, is the short link shown beside it.
  const url = await decodeQr(page, 'guestbook-qr');
  expect(url).toMatch(/^http:\/\/localhost:\d+\/g\/[A-Za-z0-9_-]{22}$/);
  await expect(section.getByTestId('guestbook-url')).toHaveText(url);

  // The poster and the table card carry the same code.
  await section.getByRole('link', { name: 'Poster en tafelkaart' }).click();
  await expect(page.getByRole('heading', { name: /Poster en tafelkaart/ })).toBeVisible();
  const poster = page.getByRole('region', { name: 'Poster A4' });
  await expect(poster.getByText(`Lotte ${lastName}`)).toBeVisible();
  await expectAccessibleInBothThemes(page, async () => {
    await expect(page.getByRole('region', { name: 'Poster A4' }).locator('svg')).toBeVisible();
  });
  await page.getByRole('radio', { name: /Tafelkaart/ }).check();
  await expect(
    page.getByRole('region', { name: 'Tafelkaart' }).getByRole('img', { name: /^QR-code/ }),
  ).toHaveCount(2);
  await page.goBack();
  await expect(live).toHaveText(/^Live/);

  // A visitor on a phone, without an account, opens the decoded link and signs.
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });
  const visitor = await phone.newPage();
  await visitor.goto(url);
  const form = visitor.getByRole('form', { name: 'Het condoleanceregister tekenen' });
  await expect(visitor.getByRole('heading', { name: `Lotte ${lastName}` })).toBeVisible();
  await expectAccessibleInBothThemes(visitor, async () => {
    await expect(form.getByRole('button', { name: 'Tekenen' })).toBeEnabled();
  });
  await form.getByLabel('Je naam').fill('Tante Jet');
  await form.getByLabel('Je bericht (niet verplicht)').fill('Wat een mooi afscheid. Veel sterkte.');
  await form.getByLabel('Je adres voor een bedankkaart (niet verplicht)').fill('Dorpsstraat 1, Ergens');
  await form.getByRole('button', { name: 'Tekenen' }).tap();
  await expect(visitor.getByRole('status')).toHaveText(
    'Dank je wel, Tante Jet. Je naam staat in het condoleanceregister.',
  );

  // The family's screen, not reloaded, shows the entry arrive through the live stream.
  const entries = section.getByRole('list', { name: 'Inschrijvingen in het register' });
  await expect(entries.getByText('Tante Jet')).toBeVisible();
  await expect(entries.getByText('Wat een mooi afscheid. Veel sterkte.')).toBeVisible();
  await expect(section.getByText('1 inschrijving', { exact: true })).toBeVisible();

  // The family hides it, then closes the guestbook: the link says so.
  await entries.getByRole('button', { name: 'Verbergen: Tante Jet' }).click();
  await expect(entries.getByRole('button', { name: 'Weer tonen: Tante Jet' })).toBeVisible();
  await section.getByRole('button', { name: 'Register sluiten' }).click();
  await expect(section.getByTestId('guestbook-state')).toHaveText('gesloten');
  await visitor.reload();
  await expect(visitor.getByText('Het condoleanceregister is gesloten.')).toBeVisible();
  await phone.close();
});

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * No notice (the section's own, or a toast shown and not on its way out) has a box that meets a shown QR
 * code's box, with the code scrolled to the foot of the window, where the toasts appear.
 */
async function expectNoNoticeOverQr(page: Page, what: string) {
  const qrs = page.getByRole('img', { name: /^QR-code/ });
  await expect(qrs.first()).toBeVisible();
  const notices = page.locator(
    '[data-testid="guestbook-notice"], [data-sonner-toast]:not([data-removed="true"])',
  );
  for (const qr of await qrs.all()) {
    if (!(await qr.isVisible())) continue; // not shown in this medium
    await qr.evaluate((el) => el.scrollIntoView({ block: 'end', behavior: 'instant' }));
    const q = (await qr.boundingBox())!;
    for (const notice of await notices.all()) {
      const n = await notice.boundingBox();
      if (n)
        expect(overlaps(n, q), `${what}: ${await notice.textContent()} ${JSON.stringify([n, q])}`).toBe(
          false,
        );
    }
  }
}

test('the notice that the guestbook is open never lies over a QR code, on screen or on paper', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { id } = await createMemorialAsNewOwner(page, 'Kees', `Poster ${Date.now().toString(36)}`);
  await openManageTab(page, id, 'Uitvaart');
  const section = page.locator('section', {
    has: page.getByRole('heading', { name: 'Condoleanceregister', exact: true }),
  });
  await section.getByRole('button', { name: 'Register openen' }).click();
  const notice = section.getByTestId('guestbook-notice');
  await expect(notice).toHaveText('Het condoleanceregister is open.');
  await expect(section.getByTestId('guestbook-qr').locator('svg')).toBeVisible();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await expectNoNoticeOverQr(page, `beheren, ${width}px`);
  }

  // A toast on this screen ('De link is gekopieerd', or that copying failed), then straight on to the
  // poster while it is still showing: it is about the screen before and goes, so it never covers the code.
  await page.setViewportSize({ width: 390, height: 844 });
  await section.getByRole('button', { name: 'Link kopiëren' }).click();
  await expect(page.locator('[data-sonner-toast]')).toBeVisible();
  await section.getByRole('link', { name: 'Poster en tafelkaart' }).click();
  await expect(page.getByRole('heading', { name: /Poster en tafelkaart/ })).toBeVisible();
  await expectNoNoticeOverQr(page, 'poster, right after the toast');
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  for (const format of ['Poster A4', 'Poster A5', 'Tafelkaart']) {
    await page.getByRole('radio', { name: new RegExp(`^${format}`) }).check();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      for (const media of ['screen', 'print'] as const) {
        await page.emulateMedia({ media });
        await expectNoNoticeOverQr(page, `${format}, ${width}px, ${media}`);
      }
      await page.emulateMedia({ media: 'screen' });
    }
  }
  // On paper only the sheet: the toasts' container is not printed.
  await page.emulateMedia({ media: 'print' });
  const toaster = page.locator('section[aria-label^="Meldingen"]');
  await expect(toaster).toHaveCount(1);
  expect(await toaster.evaluate((el) => getComputedStyle(el).display)).toBe('none');
  await page.emulateMedia({ media: 'screen' });
});
