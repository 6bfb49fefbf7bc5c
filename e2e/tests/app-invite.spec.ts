import { expect, test } from '../support/test.ts';
import { confirm, createMemorialAsNewOwner, openManageTab } from '../support/app-memorial.ts';
import { fillRegistration, newUser } from '../support/identity.ts';
import { waitForMail } from '../support/mailbox.ts';

const inviteLink = (text: string) => /\/uitnodiging\/[A-Za-z0-9_-]{16,128}/.exec(text)?.[0];
const guestLink = (text: string) => /\/memorial\/[0-9a-f-]{36}#gasttoken=[A-Za-z0-9_-]+/.exec(text)?.[0];

test(
  'an invitation by e-mail is accepted by someone new, who becomes a member; a revoked one says so',
  { tag: '@database' },
  async ({ page, browser }) => {
    test.setTimeout(180_000);
    const lastName = `Hendriks ${Date.now().toString(36)}`;
    const { id, owner } = await createMemorialAsNewOwner(page, 'Gerrit', lastName);
    const name = `Gerrit ${lastName}`;
    await page.goto(`/memorial/${id}/beheer`);
    await page.getByRole('button', { name: 'Publiceren' }).click();
    await confirm(page, 'Publiceren');

    // Invite a contributor.
    await openManageTab(page, id, 'Mensen');
    const friend = newUser('Joost de Boer');
    await page.getByRole('textbox', { name: 'E-mailadres', exact: true }).fill(friend.email);
    // The name goes into the mail to an address that has not proven itself: one line, no link.
    await page.getByLabel('Naam (niet verplicht)').fill('Joost, kijk op www.voorbeeld.nl');
    await page.getByRole('button', { name: 'Uitnodiging versturen' }).click();
    await expect(page.getByLabel('Naam (niet verplicht)')).toHaveAccessibleDescription(
      'Een naam mag geen link, webadres of e-mailadres bevatten',
    );
    await page.getByLabel('Naam (niet verplicht)').fill('Joost');
    await page.getByLabel('Rol').selectOption('contributor');
    await page.getByRole('button', { name: 'Uitnodiging versturen' }).click();
    await expect(page.getByText('De uitnodiging is verstuurd')).toBeVisible();
    const open = page.getByRole('list', { name: 'Openstaande uitnodigingen' });
    await expect(open).toContainText(friend.email);
    await expect(open).toContainText('Bijdrager');

    const mail = await waitForMail((m) => m.to.some((t) => t.toLowerCase() === friend.email));
    expect(mail.subject).toBe(`${owner.name} nodigt je uit voor de gedenkpagina van ${name}`);
    const link = inviteLink(mail.text);
    expect(link).toBeTruthy();

    // The friend opens the link in their own browser, registers and accepts.
    const friendContext = await browser.newContext();
    const guest = await friendContext.newPage();
    await guest.goto(link!);
    await expect(guest.getByRole('heading', { level: 1, name: `${owner.name} nodigt je uit` })).toBeVisible();
    await expect(guest.getByText(name)).toBeVisible();
    await expect(guest.getByText(/als\s+bijdrager/)).toBeVisible();
    await guest.getByRole('button', { name: 'Account aanmaken' }).click();
    await fillRegistration(guest, friend);
    // Registering from the invitation accepts it: the new member lands on the page without another click.
    await expect(guest).toHaveURL(`/memorial/${id}`);
    await expect(guest.getByRole('heading', { level: 1, name })).toBeVisible();
    // A contributor may share memories but not manage the page.
    await expect(guest.getByRole('button', { name: 'Deel een herinnering' }).first()).toBeVisible();
    await expect(guest.getByRole('link', { name: 'Beheren' })).toHaveCount(0);
    // The link, opened again, says it has been accepted.
    await guest.goto(link!);
    await expect(guest.getByRole('heading', { name: 'Deze uitnodiging is al aangenomen' })).toBeVisible();
    // The one-time guest link in the same mail died with the acceptance; the member simply sees the page.
    await guest.goto(guestLink(mail.text)!);
    await expect(guest.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(guest.getByText('Je bezoekt deze pagina als gast.')).toHaveCount(0);

    // The owner sees the new member; the invitation is no longer open.
    await page.reload();
    await expect(page.getByRole('list', { name: 'Leden' })).toContainText(friend.name);
    await expect(page.getByText('Er staan geen uitnodigingen open.')).toBeVisible();

    // A revoked invitation tells its holder in plain Dutch.
    const other = newUser('Els Visser');
    await page.getByRole('textbox', { name: 'E-mailadres', exact: true }).fill(other.email);
    await page.getByRole('button', { name: 'Uitnodiging versturen' }).click();
    await expect(page.getByRole('list', { name: 'Openstaande uitnodigingen' })).toContainText(other.email);
    const otherMail = await waitForMail((m) => m.to.some((t) => t.toLowerCase() === other.email));
    await page.getByRole('button', { name: `Uitnodiging voor ${other.email} intrekken` }).click();
    await confirm(page, 'Intrekken');
    await expect(page.getByText('De uitnodiging is ingetrokken')).toBeVisible();
    const stranger = await browser.newContext();
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(inviteLink(otherMail.text)!);
    await expect(
      strangerPage.getByRole('heading', { name: 'Deze uitnodiging is niet meer geldig' }),
    ).toBeVisible();
    // Its one-time guest link was withdrawn with it: said calmly, with what to do instead.
    await strangerPage.goto(guestLink(otherMail.text)!);
    await expect(
      strangerPage.getByRole('heading', { level: 1, name: 'Deze link is niet meer geldig' }),
    ).toBeVisible();
    await expect(strangerPage.getByRole('link', { name: 'Toegangscode invullen' })).toBeVisible();
    await expect(strangerPage.getByRole('main').getByRole('button', { name: 'Inloggen' })).toBeVisible();
    await stranger.close();
    await friendContext.close();
  },
);
