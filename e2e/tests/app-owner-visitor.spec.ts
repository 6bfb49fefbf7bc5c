import { expect, test } from '../support/test.ts';
import {
  confirm,
  createMemorialAsNewOwner,
  jpegFixture,
  openManageTab,
  readAccessCode,
} from '../support/app-memorial.ts';

test(
  'an owner fills a private page; a visitor with the code lights a candle and adds a memory; the owner approves it',
  { tag: '@database' },
  async ({ page, browser }) => {
    test.setTimeout(180_000);
    const lastName = `Wolters ${Date.now().toString(36)}`;
    const { id } = await createMemorialAsNewOwner(page, 'Anna', lastName);
    const name = `Anna ${lastName}`;

    // A fresh page is a concept; its owner is told so and can start arranging it.
    await expect(page.getByText('Deze pagina is nog een concept.')).toBeVisible();
    await page.getByRole('link', { name: 'Pagina inrichten' }).click();
    await expect(page).toHaveURL(`/memorial/${id}/beheer`);

    // Details.
    await page.getByLabel('Geboortedatum').fill('1938-04-12');
    await page.getByLabel('Overlijdensdatum').fill('1930-01-01');
    await page.getByRole('button', { name: 'Gegevens opslaan' }).click();
    await expect(page.getByText('Overlijdensdatum ligt voor de geboortedatum')).toBeVisible();
    await page.getByLabel('Overlijdensdatum').fill('2024-02-02');
    await page.getByLabel('Geboorteplaats').fill('Zwolle');
    await page.getByLabel('Overlijdensplaats').fill('Deventer');
    await page.getByLabel('Citaat').fill('Ze had voor iedereen een kopje thee en een luisterend oor.');
    await page.getByRole('button', { name: 'Gegevens opslaan' }).click();
    await expect(page.getByText('De gegevens zijn opgeslagen')).toBeVisible();

    // Photos: two at once, with a caption, reordered by button and by keyboard drag.
    await openManageTab(page, id, 'Foto’s en video’s');
    // A slow connection (Chromium's own throttling) at first, so the upload's progress can be seen.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 16 * 1024,
    });
    const uploads = page.waitForResponse(
      (r) => r.url().endsWith('/core/memorial-media') && r.status() === 201,
    );
    await page
      .getByTestId('file-input')
      .setInputFiles([await jpegFixture('strand.jpg', 200), await jpegFixture('tuin.jpg', 100)]);
    await expect(page.getByRole('progressbar', { name: 'Uploaden van strand.jpg' })).toBeVisible();
    // Full speed again at once: the session's token renewal must not wait behind a slow line.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await cdp.detach();
    await uploads;
    await expect(page.getByText('2 foto’s en video’s zijn toegevoegd')).toBeVisible({ timeout: 30_000 });
    const rows = page.getByRole('list', { name: 'Foto’s en video’s in volgorde' }).getByRole('listitem');
    await expect(rows).toHaveCount(2);
    await page.getByLabel('Onderschrift van foto 1').fill('Op het strand van Scheveningen');
    // Saved while typing: a quiet 'Opgeslagen' beside the field, no toast.
    await expect(page.getByText('Opgeslagen', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Foto 1 omlaag' }).click();
    await expect(page.getByLabel('Onderschrift van foto 2')).toHaveValue('Op het strand van Scheveningen');
    // The keyboard moves a photo with the arrow keys on its grip, and the focus stays with it.
    await page.getByRole('button', { name: 'Foto 2 verslepen' }).focus();
    await page.keyboard.press('ArrowUp');
    await expect(
      page.getByRole('status').filter({ hasText: 'foto 2 staat nu op plaats 1 van 2.' }),
    ).toBeAttached();
    await expect(page.getByRole('button', { name: 'Foto 1 verslepen' })).toBeFocused();
    await expect(page.getByLabel('Onderschrift van foto 1')).toHaveValue('Op het strand van Scheveningen');
    await page.reload();
    await expect(page.getByLabel('Onderschrift van foto 1')).toHaveValue('Op het strand van Scheveningen');

    // Biography with the rich-text editor.
    await openManageTab(page, id, 'Levensverhaal');
    const editor = page.getByRole('textbox', { name: /Levensverhaal van Anna/ });
    await editor.click();
    await page.keyboard.type('Anna was de oudste van zes kinderen.');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Kop', exact: true }).click();
    await page.keyboard.type('Verpleegster');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Vet' }).click();
    await page.keyboard.type('Veertig jaar');
    await page.getByRole('button', { name: 'Vet' }).click();
    await page.keyboard.type(' werkte ze in het ziekenhuis.');
    await page.getByRole('button', { name: 'Levensverhaal opslaan' }).click();
    await expect(page.getByText('Het levensverhaal is opgeslagen')).toBeVisible();

    // Publish, and try public before settling on private.
    await openManageTab(page, id, 'Gegevens');
    await page.getByRole('button', { name: 'Publiceren' }).click();
    await confirm(page, 'Publiceren');
    await expect(page.getByText('De pagina is gepubliceerd', { exact: true })).toBeVisible();
    await openManageTab(page, id, 'Privacy en toegang');
    await page.getByRole('radio', { name: /Openbaar/ }).click();
    await confirm(page, 'Openbaar maken');
    await expect(page.getByRole('radio', { name: /Openbaar/ })).toHaveAttribute('aria-checked', 'true');
    await page.getByRole('radio', { name: /Besloten/ }).click();
    await confirm(page, 'Besloten maken');
    await expect(page.getByRole('radio', { name: /Besloten/ })).toHaveAttribute('aria-checked', 'true');
    const code = await readAccessCode(page, id);

    // The page as its owner sees it.
    await page.goto(`/memorial/${id}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByText('1938 – 2024')).toBeVisible();
    await expect(
      page.getByText('“Ze had voor iedereen een kopje thee en een luisterend oor.”'),
    ).toBeVisible();
    await expect(page.locator('.memorial-prose h2')).toHaveText('Verpleegster');
    await expect(page.locator('.memorial-prose strong')).toHaveText('Veertig jaar');

    // A visitor without the code learns nothing about the page.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/memorial/${id}`);
    await expect(
      visitor.getByRole('heading', { level: 1, name: 'Deze pagina bestaat niet of is besloten' }),
    ).toBeVisible();
    await expect(visitor.getByText(name)).toHaveCount(0);
    await visitor.getByRole('link', { name: 'Toegangscode invullen' }).click();

    // With the code: in as a guest.
    await expect(visitor).toHaveURL('/beslotenpagina');
    await visitor.getByRole('textbox', { name: 'Toegangscode' }).fill(code);
    await visitor.getByRole('button', { name: 'Ga naar pagina' }).click();
    await expect(visitor).toHaveURL(`/memorial/${id}`);
    await expect(visitor.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(visitor.getByText('Je bezoekt deze pagina als gast.')).toBeVisible();
    // The guest token is kept in local storage, so the visitor stays in after a reload.
    const guestToken = await visitor.evaluate(() => localStorage.getItem('aandenken-guest-token'));
    expect(guestToken).toMatch(/^\S{20,}$/);
    await visitor.reload();
    await expect(visitor.getByText('Je bezoekt deze pagina als gast.')).toBeVisible();
    await expect(visitor.getByRole('link', { name: 'Beheren' })).toHaveCount(0);

    // A candle.
    const candles = visitor.getByRole('region', { name: 'Kaarsjes en bloemen' });
    await candles.getByLabel('Je naam').fill('Tante Riet');
    await candles.getByLabel('Bericht (niet verplicht)').fill('Rust zacht, lieve Anna.');
    await candles.getByRole('button', { name: 'Steek een kaarsje aan' }).click();
    await expect(candles.getByText('Je kaarsje brandt.')).toBeVisible();
    await expect(candles.getByRole('list', { name: 'Kaarsjes en bloemen, nieuwste eerst' })).toContainText(
      'Rust zacht, lieve Anna.',
    );
    await expect(candles.getByText(/1 kaarsje brandt/)).toBeVisible();

    // A memory with a photo: a guest's memory waits for approval.
    await visitor.getByRole('button', { name: 'Deel een herinnering' }).first().click();
    const dialog = visitor.getByRole('dialog', { name: 'Deel een herinnering' });
    await dialog.getByRole('button', { name: 'Herinnering delen' }).click();
    await expect(dialog.getByText('Vul je naam in')).toBeVisible();
    await dialog.getByLabel('Je naam').fill('Tante Riet');
    await dialog.getByLabel('Jaar of periode').fill('Zomer 1975');
    const memoryText = `Samen op de fiets naar Giethoorn, en Anna die de weg wist zonder kaart. (${Date.now().toString(36)})`;
    await dialog.getByLabel('Je herinnering').fill(memoryText);
    await dialog.getByTestId('file-input').setInputFiles([await jpegFixture('fiets.jpg', 40)]);
    await expect(dialog.getByRole('list', { name: 'Gekozen bestanden' }).getByRole('listitem')).toHaveCount(
      1,
    );
    await dialog.getByRole('button', { name: 'Herinnering delen' }).click();
    const thanks = visitor.getByRole('dialog', { name: 'Dank je wel' });
    await expect(thanks.getByText('Je herinnering wacht op goedkeuring')).toBeVisible({ timeout: 30_000 });
    await thanks.getByRole('button', { name: 'Terug naar de pagina' }).click();
    await expect(
      visitor.getByRole('status').filter({ hasText: 'Je herinnering wacht op goedkeuring' }),
    ).toBeVisible();
    // Shown in the 'waiting' note, not on the wall.
    await expect(
      visitor.getByRole('status').filter({ hasText: 'Je herinnering wacht op goedkeuring' }),
    ).toContainText('Zomer 1975: Samen op de fiets naar Giethoorn');
    await expect(visitor.getByTestId('memory-wall')).toHaveCount(0);

    // The owner approves it in the moderation queue.
    await openManageTab(page, id, 'Herinneringen');
    await expect(page.getByRole('button', { name: /Wacht op goedkeuring/ })).toContainText('1');
    const pending = page.getByRole('article', { name: /Tante Riet/ });
    await expect(pending).toContainText(memoryText);
    await expect(pending.getByRole('img', { name: 'Foto 1' })).toBeVisible();
    await pending.getByRole('button', { name: 'Goedkeuren' }).click();
    await expect(page.getByText('De herinnering staat op de pagina')).toBeVisible();
    await expect(page.getByText('Er wachten geen herinneringen op goedkeuring.')).toBeVisible();

    // It appears on the wall, with its photo, for the owner and for the visitor.
    await page.goto(`/memorial/${id}`);
    const card = page.getByTestId('memory-wall').getByRole('article', { name: 'Zomer 1975' });
    await expect(card).toContainText(memoryText);
    await expect(card).toContainText('Tante Riet');
    await expect(
      card.getByRole('button', { name: /Foto 1 van 1 bij deze herinnering bekijken/ }),
    ).toBeVisible();

    await visitor.reload();
    const seen = visitor.getByTestId('memory-wall').getByRole('article', { name: 'Zomer 1975' });
    await expect(seen).toContainText(memoryText);
    const heart = seen.getByRole('button', { name: /Vind ik mooi/ });
    await expect(heart).toHaveAttribute('aria-pressed', 'false');
    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await expect(heart).toHaveAccessibleName(/1 hartje/);
    await visitorContext.close();
  },
);
