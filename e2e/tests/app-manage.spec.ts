import { expect, test, type Browser, type Page } from '../support/test.ts';
import { CoreApi } from '../support/app-api.ts';
import { confirm, createMemorialAsNewOwner, openManageTab, readAccessCode } from '../support/app-memorial.ts';
import { newUser, registerFromHeader } from '../support/identity.ts';
import { waitForMail } from '../support/mailbox.ts';

// Managing actions that the owner-visitor and invite specs do not reach. The memorial's state is set up
// through the API where its UI path is tested elsewhere; each action under test goes through the UI.

const inviteLink = (text: string) => /\/uitnodiging\/[A-Za-z0-9_-]{16,128}/.exec(text)?.[0];
const guestLink = (text: string) => /\/memorial\/[0-9a-f-]{36}#gasttoken=[A-Za-z0-9_-]+/.exec(text)?.[0];
const inviteMailTo = (email: string, except?: string) =>
  waitForMail(
    (m) =>
      m.to.some((t) => t.toLowerCase() === email) && !!inviteLink(m.text) && inviteLink(m.text) !== except,
  );

async function newPublishedMemorial(page: Page, firstName: string, visibility: 'public' | 'private') {
  const lastName = `Dijkstra ${Date.now().toString(36)}`;
  const { id, owner } = await createMemorialAsNewOwner(page, firstName, lastName);
  const api = await CoreApi.as(page);
  await api.update(id, { status: 'active', visibility });
  return { id, owner, api, name: `${firstName} ${lastName}` };
}

/**
 * Fills in an access code at /beslotenpagina and sends it. A click that lands before the page's script has
 * run sends the form without it (as it would for a person), so it is repeated until the API was asked.
 */
async function submitCode(visitor: Page, code: string) {
  await expect(async () => {
    await visitor.getByRole('textbox', { name: 'Toegangscode' }).fill(code);
    const answer = visitor.waitForResponse((r) => r.url().endsWith('/core/guest/token'), { timeout: 3_000 });
    await visitor.getByRole('button', { name: 'Ga naar pagina' }).click();
    await answer;
  }).toPass({ timeout: 20_000 });
}

/** A visitor in a browser of their own who opened the private page with its code at /beslotenpagina. */
async function visitWithCode(browser: Browser, id: string, code: string) {
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto('/beslotenpagina');
  await submitCode(visitor, code);
  await expect(visitor).toHaveURL(`/memorial/${id}`);
  await expect(visitor.getByText('Je bezoekt deze pagina als gast.')).toBeVisible();
  return { context, visitor };
}

async function expectInLog(page: Page, id: string, lines: (string | RegExp)[]) {
  await openManageTab(page, id, 'Logboek');
  const log = page.getByRole('list', { name: 'Logboek' });
  for (const line of lines) await expect(log.getByText(line).first()).toBeVisible();
}

test('photos: the chosen cover photo heads the page, a deleted photo is gone; the log and Mijn Pagina’s say so', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { id, api, name } = await newPublishedMemorial(page, 'Klaas', 'public');
  await api.uploadPhoto(id, 'strand.jpg', 200, 'Op het strand');
  await api.uploadPhoto(id, 'tuin.jpg', 100, 'In de tuin');

  await openManageTab(page, id, 'Foto’s en video’s');
  const rows = page.getByRole('list', { name: 'Foto’s en video’s in volgorde' }).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await page.getByRole('button', { name: 'Foto 2 als omslagfoto gebruiken' }).click();
  await expect(page.getByText('De omslagfoto is gekozen')).toBeVisible();
  await expect(rows.nth(1).getByText('Omslagfoto').filter({ visible: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Foto 2 als omslagfoto gebruiken' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Foto 1 verwijderen' }).click();
  await confirm(page, 'Verwijderen');
  await expect(page.getByText('Foto 1 is verwijderd')).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(page.getByLabel('Onderschrift van foto 1')).toHaveValue('In de tuin');

  // What a visitor of the public page sees: the cover photo, and only the photo that is left.
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto(`/memorial/${id}`);
  await expect(visitor.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(visitor.getByRole('img', { name: 'Portretfoto: In de tuin' })).toBeVisible();
  const photos = visitor.getByRole('region', { name: 'Foto’s' });
  await expect(photos.getByRole('button', { name: 'Foto 1 van 1 bekijken: In de tuin' })).toBeVisible();
  await expect(photos.getByText('Op het strand')).toHaveCount(0);
  await context.close();

  await expectInLog(page, id, ['Foto of video verwijderd', /omslagfoto/, 'Pagina gepubliceerd']);

  // Mijn Pagina's: role, status, visibility and counts.
  await api.addMemory(id, { yearLabel: '1960', text: 'Klaas leerde ons vissen.' });
  await page.goto('/mijn-paginas');
  const card = page.getByRole('listitem').filter({ hasText: name });
  await expect(card).toContainText('Eigenaar');
  await expect(card).toContainText('Gepubliceerd');
  await expect(card).toContainText('Openbaar');
  await expect(card).toContainText('1 herinnering');
  await expect(card).toContainText('1 foto');
  await expect(card).toContainText('1 lid');
  await expect(card).toContainText('0 kaarsjes');
  await card.getByRole('link', { name: `${name} beheren` }).click();
  await expect(page).toHaveURL(`/memorial/${id}/beheer`);
});

test('memories: a rejected one never reaches the wall; a members-only one is hidden from guests', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { id, api } = await newPublishedMemorial(page, 'Greet', 'private');
  const code = await readAccessCode(page, id);
  const tag = Date.now().toString(36);
  const guestApi = await CoreApi.asGuest(page, code);
  const pending = await guestApi.addMemory(id, {
    yearLabel: 'Voorjaar 1990',
    text: `Reclame voor een zonnebank (${tag}).`,
    authorName: 'Onbekende',
  });
  expect(pending.status).toBe('pending');
  await api.addMemory(id, { yearLabel: 'Kerst 1985', text: `Alleen voor de familie (${tag}).` });

  // Reject the guest's memory.
  await openManageTab(page, id, 'Herinneringen');
  const waiting = page.getByRole('article', { name: /Onbekende/ });
  await expect(waiting).toContainText('Reclame voor een zonnebank');
  await waiting.getByRole('button', { name: 'Afwijzen' }).click();
  await expect(page.getByText('De herinnering is afgewezen')).toBeVisible();
  await expect(page.getByText('Er wachten geen herinneringen op goedkeuring.')).toBeVisible();
  await page.getByRole('button', { name: /^Afgewezen/ }).click();
  await expect(page.getByRole('list', { name: 'Afgewezen' })).toContainText('Reclame voor een zonnebank');

  // Make the family's memory members-only.
  await page.getByRole('button', { name: /^Gepubliceerd/ }).click();
  const family = page.getByRole('list', { name: 'Gepubliceerd' }).getByRole('article');
  await expect(family).toContainText('Alleen voor de familie');
  // Checked once the server agrees (a controlled field), so a click rather than check().
  await family.getByRole('checkbox', { name: 'Alleen voor leden' }).click();
  await expect(page.getByText('Alleen nog zichtbaar voor leden')).toBeVisible();
  await expect(family.getByRole('checkbox', { name: 'Alleen voor leden' })).toBeChecked();

  // A member (the owner) still sees it on the wall; the rejected memory is not there.
  await page.goto(`/memorial/${id}`);
  const wall = page.getByTestId('memory-wall');
  await expect(wall.getByRole('article', { name: 'Kerst 1985' })).toContainText('Alleen voor de familie');
  await expect(wall.getByText('Reclame voor een zonnebank')).toHaveCount(0);

  // A guest with the code sees neither.
  const { context, visitor } = await visitWithCode(browser, id, code);
  await expect(visitor.getByRole('heading', { name: 'Herinneringen' })).toBeVisible();
  await expect(visitor.getByText('Alleen voor de familie')).toHaveCount(0);
  await expect(visitor.getByText('Reclame voor een zonnebank')).toHaveCount(0);
  await context.close();

  await expectInLog(page, id, ['Herinnering afgewezen', 'Zichtbaarheid van herinnering gewijzigd']);
});

test('people: a resent invitation replaces the old link; a member’s role changes and the member is removed', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const { id, api, name } = await newPublishedMemorial(page, 'Wim', 'private');

  // Someone with an account becomes a guest member (the invitation path itself is in app-invite.spec.ts).
  const friend = newUser('Joost de Boer');
  const friendContext = await browser.newContext();
  const friendPage = await friendContext.newPage();
  await friendPage.goto('/');
  await registerFromHeader(friendPage, friend);
  await api.invite(id, friend.email, 'guest');
  const friendMail = await inviteMailTo(friend.email);
  await (await CoreApi.as(friendPage)).acceptInvite(inviteLink(friendMail.text)!.split('/').pop()!);

  // Resend an open invitation: a second mail with a new link; the first link no longer works.
  const other = newUser('Els Visser');
  await api.invite(id, other.email, 'contributor');
  const first = await inviteMailTo(other.email);
  await openManageTab(page, id, 'Mensen');
  await page.getByRole('button', { name: `Uitnodiging voor ${other.email} opnieuw versturen` }).click();
  await expect(page.getByText('De uitnodiging is opnieuw verstuurd')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Openstaande uitnodigingen' })).toContainText(
    '2 keer verstuurd',
  );
  const firstLink = inviteLink(first.text)!;
  const second = await inviteMailTo(other.email, firstLink);
  const secondLink = inviteLink(second.text)!;
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(firstLink);
  await expect(
    strangerPage.getByRole('heading', { name: 'Deze uitnodiging is niet meer geldig' }),
  ).toBeVisible();
  await strangerPage.goto(secondLink);
  await expect(strangerPage.getByText(/als\s+bijdrager/)).toBeVisible();
  await stranger.close();

  // Make the friend an editor: they may now manage the page.
  const members = page.getByRole('list', { name: 'Leden' });
  await expect(members).toContainText(friend.name);
  await members.getByLabel(`Rol van ${friend.name}`).selectOption('editor');
  await expect(page.getByText(`${friend.name} is nu redacteur`)).toBeVisible();
  await friendPage.goto(`/memorial/${id}`);
  await expect(friendPage.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(friendPage.getByRole('link', { name: 'Beheren' }).first()).toBeVisible();

  // Remove the friend: the private page is closed to them again.
  await page.getByRole('button', { name: `${friend.name} verwijderen` }).click();
  await confirm(page, 'Verwijderen');
  await expect(page.getByText(`${friend.name} is verwijderd`)).toBeVisible();
  await expect(members).not.toContainText(friend.name);
  await friendPage.reload();
  await expect(
    friendPage.getByRole('heading', { level: 1, name: 'Deze pagina bestaat niet of is besloten' }),
  ).toBeVisible();
  await friendContext.close();

  // The one-time link in the old invitation mail opens nothing any more: a calm word, no error.
  const oldGuestLink = guestLink(friendMail.text);
  expect(oldGuestLink).toBeTruthy();
  const former = await browser.newContext();
  const formerPage = await former.newPage();
  await formerPage.goto(oldGuestLink!);
  await expect(
    formerPage.getByRole('heading', { level: 1, name: 'Deze link is niet meer geldig' }),
  ).toBeVisible();
  await expect(
    formerPage.getByText('Anders kun je de familie om een nieuwe uitnodiging vragen.'),
  ).toBeVisible();
  await expect(formerPage.getByRole('alert')).toHaveCount(0);
  await expect(formerPage.getByRole('link', { name: 'Toegangscode invullen' })).toBeVisible();
  await expect(formerPage.getByRole('heading', { level: 1, name })).toHaveCount(0);
  await former.close();

  await expectInLog(page, id, [
    'Uitnodiging opnieuw verstuurd',
    'Rol gewijzigd',
    /Gast → Redacteur/,
    'Lid verwijderd',
    'Uitnodiging aangenomen',
  ]);
});

test('archived: the page says only members read it and takes no more candles, as the server does', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { id, api, name } = await newPublishedMemorial(page, 'Truus', 'public');
  await openManageTab(page, id, 'Gegevens');
  await expect(page.getByText(/alleen de leden kunnen hem dan nog lezen/)).toBeVisible();
  await page.getByRole('button', { name: 'Archiveren' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Alleen de leden kunnen de pagina dan nog lezen');
  await expect(dialog).toContainText('kaarsjes');
  await confirm(page, 'Archiveren');
  await expect(page.getByText('De pagina is gearchiveerd', { exact: true }).first()).toBeVisible();
  await expect(page.getByText(/ook geen kaarsje of bloem/)).toBeVisible();

  await page.goto(`/memorial/${id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const banner = page.getByRole('complementary', { name: 'Gearchiveerd' });
  await expect(banner).toContainText('Alleen de leden van de pagina kunnen hem nog lezen.');
  await expect(banner).toContainText('Er kunnen geen herinneringen, foto’s, kaarsjes of bloemen meer bij.');
  await expect(page.getByRole('link', { name: 'Steek een kaarsje aan' })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Kaarsje aansteken of bloem neerleggen' })).toHaveCount(0);
  await expect(page.getByText('Er kunnen geen kaarsjes of bloemen meer bij.')).toBeVisible();
  // The screens agree with the server: it refuses a candle on an archived page.
  expect(await api.lightCandle(id)).toBe(409);
});

test('access code: copied, regenerated (the old code stops working), and printed on a card with a QR code', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const { id, name } = await newPublishedMemorial(page, 'Truus', 'private');
  const oldCode = await readAccessCode(page, id);

  await page.getByRole('button', { name: 'Kopiëren' }).click();
  await expect(page.getByRole('button', { name: 'Gekopieerd' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(oldCode);

  await page.getByRole('button', { name: 'Nieuwe code maken' }).click();
  await confirm(page, 'Nieuwe code maken');
  await expect(page.getByText('Er is een nieuwe toegangscode gemaakt')).toBeVisible();
  await expect(page.getByTestId('access-code')).not.toHaveText(/^\s*$/);
  await expect
    .poll(async () => (await page.getByTestId('access-code').innerText()).replace(/\s/g, ''))
    .not.toBe(oldCode);
  const newCode = (await page.getByTestId('access-code').innerText()).replace(/\s/g, '');
  expect(newCode).toMatch(/^\d{8}$/);

  // The old code fails at /beslotenpagina; the new one opens the page.
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto('/beslotenpagina');
  await submitCode(visitor, oldCode);
  await expect(visitor.getByRole('textbox', { name: 'Toegangscode' })).toHaveAccessibleDescription(
    'Er is geen pagina gevonden met deze code. Controleer de code en probeer het opnieuw.',
  );
  await submitCode(visitor, newCode);
  await expect(visitor).toHaveURL(`/memorial/${id}`);
  await expect(visitor.getByRole('heading', { level: 1, name })).toBeVisible();
  await context.close();

  // The printable card: the new code, the address of /beslotenpagina and a QR code.
  await page.getByRole('link', { name: 'Kaartje afdrukken' }).click();
  await expect(page).toHaveURL(`/memorial/${id}/kaart`);
  const card = page.getByRole('region', { name: 'Kaartje' });
  await expect(card).toContainText(name);
  await expect(card.getByTestId('card-code')).toHaveText(`${newCode.slice(0, 4)} ${newCode.slice(4)}`);
  await expect(card.getByText(`${new URL(page.url()).host}/beslotenpagina`)).toBeVisible();
  const qr = card.getByRole('img', { name: `QR-code die de gedenkpagina van ${name} opent` });
  await expect(qr.locator('svg')).toBeVisible();
  const target = await qr.getAttribute('data-target');
  expect(target).toBe(`${new URL(page.url()).origin}/beslotenpagina?pagina=${id}#code=${newCode}`);
  // On paper: the card alone on one sheet (A5 landscape, the page's own size), no blank second page.
  const pdf = (await page.pdf({ preferCSSPageSize: true, printBackground: true })).toString('latin1');
  expect(pdf.match(/\/Type\s*\/Page\b(?!s)/g)?.length).toBe(1);
  expect(pdf).toMatch(/\/MediaBox\s*\[\s*0 0 59[45][\d.]* 4(19|20)[\d.]*\s*\]/); // 210 × 148 mm

  // What the QR code opens: the page, for a visitor without an account.
  const scanner = await browser.newContext();
  const scanned = await scanner.newPage();
  await scanned.goto(target!);
  await expect(scanned).toHaveURL(`/memorial/${id}`);
  await expect(scanned.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(scanned.getByText('Je bezoekt deze pagina als gast.')).toBeVisible();
  await scanner.close();

  await page.goto(`/memorial/${id}/beheer`);
  await expectInLog(page, id, ['Nieuwe toegangscode gemaakt']);
});

test('invite-only: the owner switches the access code off; no code opens the page, an invitation’s link does; and back on', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { id, api, name } = await newPublishedMemorial(page, 'Sientje', 'private');
  const code = await readAccessCode(page, id);

  await expect(page.getByTestId('invite-only-state')).toHaveText(/^Uit: wie de toegangscode heeft/);
  await page.getByRole('button', { name: 'Alleen op uitnodiging zetten' }).click();
  await expect(page.getByRole('alertdialog')).toContainText(
    'Geen enkele toegangscode opent de pagina dan nog',
  );
  await confirm(page, 'Alleen op uitnodiging');
  await expect(page.getByText('De pagina is nu alleen op uitnodiging').first()).toBeVisible();
  await expect(page.getByTestId('invite-only-state')).toHaveText(/^Deze pagina is alleen op uitnodiging/);
  // No code is shown, nor offered by mail.
  await expect(page.getByTestId('access-code')).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Toegangscode mailen' })).toHaveCount(0);

  // The code opens nothing.
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto('/beslotenpagina');
  await submitCode(visitor, code);
  await expect(visitor.getByRole('textbox', { name: 'Toegangscode' })).toHaveAccessibleDescription(
    'Er is geen pagina gevonden met deze code. Controleer de code en probeer het opnieuw.',
  );

  // An invitation's one-time link (#gasttoken) still opens it.
  const email = `genodigde-${Date.now().toString(36)}@example.nl`;
  await api.invite(id, email, 'guest');
  const mail = await waitForMail((m) => m.to.includes(email) && m.text.includes('#gasttoken='));
  const guestUrl = /https?:\/\/\S+#gasttoken=[A-Za-z0-9_-]+/.exec(mail.text)![0];
  await visitor.goto(new URL(guestUrl).pathname + new URL(guestUrl).hash);
  await expect(visitor).toHaveURL(`/memorial/${id}`);
  await expect(visitor.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(visitor.getByText('Je bezoekt deze pagina als gast.')).toBeVisible();
  await context.close();

  // Back on: the same code shows and works again.
  await page.getByRole('button', { name: 'Toegangscode weer aanzetten' }).click();
  await confirm(page, 'Code aanzetten');
  await expect(page.getByTestId('access-code')).toHaveText(`${code.slice(0, 4)} ${code.slice(4)}`);
  await expectInLog(page, id, ['Alleen op uitnodiging gewijzigd']);
});
