import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { fillLogin, fillRegistration, newUser, type TestUser } from '../support/identity.ts';
import { CoreApi } from '../support/app-api.ts';
import { jpegFixture } from '../support/app-memorial.ts';
import { signInNewPerson } from '../support/owner.ts';
import { mails, waitForMail } from '../support/mailbox.ts';
import { confirmAddress, signInTeam } from '../support/team.ts';

/**
 * The partner programme end to end: a funeral company applies on /bedrijf, the team approves it on
 * /team/aanvragen, the applicant registers from the approval mail and sets up the profile (details, a
 * package, the work area, a logo), invites a colleague, makes a page for a family; the family registers from
 * its mail, takes the page over and lets "Verzorgd door" show; the public company page shows the profile and
 * the directory finds the company by a place in its work area (also without JavaScript). Every mail comes
 * through the local SMTP sink; axe checks each new screen in both themes.
 */
async function expectNoSeriousViolations(page: Page, what: string) {
  const result = await axeResults(page);
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  expect.soft(serious, `${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

async function checkBothThemes(page: Page, what: string, ready: () => Promise<void>) {
  for (const theme of ['light', 'dark'] as const) {
    await page
      .context()
      .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
    await page.reload();
    await ready();
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b).*$/);
    await expectNoSeriousViolations(page, `${what} (${theme})`);
    // The family's screens also at phone width (the phone project runs only the layout specs).
    if (what.startsWith('/overnemen')) {
      const name = what.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '');
      const size = page.viewportSize();
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 844 });
        await expectNoSeriousViolations(page, `${what} (${theme}, ${width}px)`);
        await page.screenshot({
          path: test.info().outputPath(`${name}-${theme}-${width}.png`),
          fullPage: true,
        });
      }
      if (size) await page.setViewportSize(size);
    }
  }
}

const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

test('a funeral company goes from the /bedrijf form to a page it made being owned by a family, and is found in the directory', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(360_000);
  const tag = `${info.project.name}${Date.now().toString(36)}`;
  const company = `Uitvaartzorg Heuvelrug ${tag}`;
  const applicant: TestUser = {
    name: 'Bram Heuvel',
    email: `bram.${tag}@uitvaart.test`,
    password: 'zonnebloem-en-regen-42',
  };
  const family: TestUser = {
    name: 'Familie Willems',
    email: `willems.${tag}@familie.test`,
    password: 'herfstbladeren-in-de-tuin-7',
  };

  // 1. The application on /bedrijf.
  await page.goto('/bedrijf');
  await page.getByLabel(/^Soort partner\*?$/).selectOption({ label: 'Uitvaartondernemer' });
  await page.getByLabel(/^Voornaam\*?$/).fill('Bram');
  await page.getByLabel(/^Achternaam\*?$/).fill('Heuvel');
  await page.getByLabel(/^Bedrijfsnaam\*?$/).fill(company);
  await page.getByLabel(/^Straatnaam\*?$/).fill('Slotlaan');
  await page.getByLabel(/^Huisnummer\*?$/).fill('3');
  await page.getByLabel(/^Postcode\*?$/).fill('3701 AA');
  await page.getByLabel(/^Telefoonnummer\*?$/).fill('030 123 45 67');
  await page.getByLabel(/^E-mailadres\*?$/).fill(applicant.email);
  await page.getByLabel(/^Aanvullende informatie\*?$/).fill('Werkgebied: Zeist en De Bilt.');
  await page.getByRole('button', { name: 'Aanvraag versturen' }).click();
  await expect(page.getByRole('heading', { name: 'Bedankt voor je aanvraag!' })).toBeVisible();

  // 2. The team (the e2e server's ADMIN_EMAILS, a confirmed account) approves it on /team/aanvragen.
  const review = await signInTeam(browser);
  const card = review.getByRole('article', { name: company });
  await expect(card.getByText('Werkgebied: Zeist en De Bilt.')).toBeVisible();
  await card.getByRole('button', { name: `${company} goedkeuren` }).click();
  await expect(
    review.getByRole('row', { name: new RegExp(company) }).getByRole('cell', { name: 'Actief' }),
  ).toBeVisible();
  await review.context().close();

  // 3. The applicant registers from the approval mail, confirms the address and signs in again.
  const approval = await waitForMail(
    (m) => m.to.includes(applicant.email) && m.subject === 'Je partneraanvraag is goedgekeurd',
  );
  const registerContext = await browser.newContext();
  const register = await registerContext.newPage();
  await register.goto(pathOf(/https?:\/\/\S+\/partner\?login_hint=\S+/.exec(approval.text)![0]));
  await register.getByRole('button', { name: 'Account aanmaken' }).click();
  await fillRegistration(register, applicant);
  await expect(register.getByRole('heading', { level: 1, name: 'Partner' })).toBeVisible();
  await confirmAddress(register, applicant);
  await registerContext.close();
  const partnerContext = await browser.newContext();
  const partner = await partnerContext.newPage();
  await partner.goto('/partner');
  await partner.getByRole('main').getByRole('button', { name: 'Inloggen' }).click();
  await fillLogin(partner, applicant.email, applicant.password);
  await expect(partner.getByRole('heading', { level: 2, name: company })).toBeVisible();

  // 4. The profile ('Profiel', the first tab): details, a package, the work area, a logo.
  const tab = partner.getByRole('tab', { name: 'Profiel' });
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  const panel = partner.getByRole('tabpanel', { name: 'Profiel' });
  await expect(panel.getByLabel(/^Bedrijfsnaam/)).toHaveValue(company);
  await panel.getByLabel(/^Plaats/).fill('Zeist');
  await panel.getByLabel(/^Website/).fill('https://www.heuvelrug-uitvaart.nl');
  await panel.getByLabel(/^Korte omschrijving/).fill('Persoonlijke uitvaarten op de Utrechtse Heuvelrug.');
  await panel.getByRole('button', { name: 'Pakket toevoegen' }).click();
  await panel.getByLabel(/^Naam/).fill('Basis');
  await panel.getByLabel(/^Bedrag in euro/).fill('3.950');
  await panel.getByLabel(/^Omschrijving \(optioneel\)/).fill('Verzorging, kist en begeleiding');
  const municipality = panel.getByLabel('Gemeente toevoegen');
  await municipality.fill('Atlantis');
  await panel.getByRole('button', { name: 'Toevoegen', exact: true }).click();
  await expect(panel.getByRole('alert')).toContainText('geen Nederlandse gemeente');
  await municipality.fill('zeist');
  await municipality.press('Enter');
  await municipality.fill('De Bilt');
  await panel.getByRole('button', { name: 'Toevoegen', exact: true }).click();
  const chosen = panel.getByRole('list', { name: 'Gekozen gemeenten' });
  await expect(chosen.getByRole('listitem')).toHaveText(['De Bilt', 'Zeist']);
  await panel.getByLabel(/^Postcodegebieden/).fill('3700-3709');
  // A mistake in a field is said there, in Dutch, before anything is sent.
  await panel.getByLabel(/^Bedrag in euro/).fill('drie');
  await panel.getByRole('button', { name: 'Profiel opslaan' }).click();
  await expect(panel.getByText('Voer een bedrag in euro in')).toBeVisible();
  await panel.getByLabel(/^Bedrag in euro/).fill('3.950');
  await panel.getByRole('button', { name: 'Profiel opslaan' }).click();
  await expect(partner.getByText('Profiel opgeslagen')).toBeVisible();
  await panel.getByLabel('Logo kiezen').setInputFiles(await jpegFixture('logo.jpg', 200));
  await expect(panel.getByRole('img', { name: `Huidig logo van ${company}` })).toBeVisible();
  const slug = (await partner.getByRole('link', { name: 'Bekijk je openbare pagina' }).getAttribute('href'))!
    .split('/')
    .pop()!;
  await checkBothThemes(partner, '/partner (Profiel)', () =>
    expect(partner.getByRole('tabpanel', { name: 'Profiel' }).getByLabel(/^Plaats/)).toHaveValue('Zeist'),
  );

  // 5. 'Collega's': the administrator invites a colleague; the invitation is listed and mailed.
  await partner.getByRole('tab', { name: 'Collega’s' }).click();
  const colleague = `collega.${tag}@uitvaart.test`;
  await partner.getByLabel(/^E-mailadres van de collega/).fill(colleague);
  await partner.getByRole('button', { name: 'Collega uitnodigen' }).click();
  await expect(
    partner.getByRole('button', { name: `Uitnodiging voor ${colleague} intrekken` }),
  ).toBeVisible();
  const invitation = await waitForMail((m) => m.to.includes(colleague));
  expect(invitation.subject).toBe(`Uitnodiging: collega bij ${company}`);
  await checkBothThemes(partner, '/partner (Collega’s)', () =>
    expect(partner.getByRole('button', { name: `Uitnodiging voor ${colleague} intrekken` })).toBeVisible(),
  );

  // 6. 'Pagina's voor families': a page for a family, waiting for it.
  await partner.getByRole('tab', { name: 'Pagina’s voor families' }).click();
  await expect(partner.getByText('Je hebt nog geen pagina’s voor families gemaakt.')).toBeVisible();
  await partner.getByLabel(/^Voornaam van de overledene/).fill('Johanna');
  await partner.getByLabel(/^Achternaam van de overledene/).fill('Willems');
  await partner.getByLabel(/^Geboortedatum/).fill('1941-03-02');
  await partner.getByLabel(/^Overlijdensdatum/).fill('2026-11-01');
  await partner.getByLabel(/^E-mailadres van de familie/).fill(family.email);
  await partner.getByRole('button', { name: 'Pagina maken en familie uitnodigen' }).click();
  const item = partner.getByRole('listitem', { name: 'Johanna Willems' });
  await expect(item.getByText('Wacht op de familie')).toBeVisible();
  await checkBothThemes(partner, '/partner (Pagina’s voor families)', () =>
    expect(partner.getByRole('listitem', { name: 'Johanna Willems' })).toBeVisible(),
  );

  // 6b. While it manages the page the company invites people (through the API: the invite screens have their
  // own spec): two relatives join, a third invitation stays open.
  const manageHref = (await item
    .getByRole('link', { name: 'Johanna Willems beheren' })
    .getAttribute('href'))!;
  const memorialId = /[0-9a-f-]{36}/.exec(manageHref)![0];
  const partnerApi = await CoreApi.as(partner);
  const relatives = [newUser('Kees Willems'), newUser('Lies Willems')];
  for (const relative of relatives) {
    await partnerApi.invite(memorialId, relative.email, 'guest');
    const mail = await waitForMail((m) => m.to.includes(relative.email));
    const relativeContext = await browser.newContext();
    const relativePage = await relativeContext.newPage();
    await signInNewPerson(relativePage, relative);
    await relativePage.goto('/');
    await (await CoreApi.as(relativePage)).acceptInvite(/\/uitnodiging\/([\w-]+)/.exec(mail.text)![1]!);
    await relativeContext.close();
  }
  await partnerApi.invite(memorialId, newUser('Nog Niet').email, 'guest');

  // 7. The family opens the mail's link and registers with the address it came to: the link proved it, so
  // nothing more is asked, no confirmation mail, and the family is back on the page waiting for it.
  const handover = await waitForMail(
    (m) => m.to.includes(family.email) && m.subject.startsWith('Neem de gedenkpagina'),
  );
  expect(handover.text).toContain(`${company} heeft op Aandenken de gedenkpagina van Johanna Willems`);
  const link = pathOf(/https?:\/\/\S+\/overnemen\/[\w-]+/.exec(handover.text)![0]);
  const familyContext = await browser.newContext();
  const familyPage = await familyContext.newPage();
  await familyPage.goto(link);
  await expect(familyPage.getByRole('heading', { level: 1, name: 'Pagina overnemen' })).toBeVisible();
  await checkBothThemes(familyPage, '/overnemen (signed out)', () =>
    expect(familyPage.getByRole('heading', { level: 1, name: 'Pagina overnemen' })).toBeVisible(),
  );
  await familyPage.getByRole('button', { name: 'Account aanmaken' }).click();
  await fillRegistration(familyPage, family);
  await expect(familyPage).toHaveURL(new RegExp(`${link}$`));

  // 8. The family takes the page over and lets "Verzorgd door" show, linked.
  const ownerContext = familyContext;
  const owner = familyPage;
  await expect(owner.getByRole('button', { name: 'Pagina overnemen' })).toBeVisible();
  await checkBothThemes(owner, '/overnemen (signed in)', () =>
    expect(owner.getByRole('button', { name: 'Pagina overnemen' })).toBeVisible(),
  );
  // Without the company's help the family sees whom it invited (kept unless unticked), that its open
  // invitation ends, and a new access code offered.
  const people = owner.getByRole('group', { name: 'Wie het bedrijf heeft uitgenodigd' });
  await expect(people.getByLabel(/^Kees Willems/)).toBeChecked();
  await expect(people.getByLabel(/^Lies Willems/)).toBeChecked();
  await expect(people.getByText('Eén uitnodiging is nog niet aangenomen.', { exact: false })).toBeVisible();
  await expect(owner.getByLabel(/^Nieuwe toegangscode maken \(aanbevolen\)/)).toBeChecked();
  await people.getByLabel(/^Lies Willems/).uncheck();
  await owner.getByLabel(`Toon ‘Verzorgd door ${company}’ op de pagina`).check();
  await owner.getByRole('button', { name: 'Pagina overnemen' }).click();
  // The new code, once, with the way to the page; the heading has the focus.
  const taken = owner.getByRole('heading', { level: 1, name: 'De pagina is van jou' });
  await expect(taken).toBeFocused();
  await expect(owner.getByTestId('new-access-code')).toHaveText(/^\d{4} \d{4}$/);
  await expectNoSeriousViolations(owner, '/overnemen (taken over, the new code)');
  await owner.getByRole('link', { name: 'Naar de pagina' }).click();
  await expect(owner).toHaveURL(/\/memorial\/[0-9a-f-]{36}$/);
  const caredBy = owner.getByRole('link', { name: company });
  await expect(caredBy).toBeVisible();
  await expect(caredBy).toHaveAttribute('href', `/uitvaartondernemers/${slug}`);
  await expect(owner.getByText('Verzorgd door')).toBeVisible();
  // Mijn Pagina's holds that one page (no empty list, no second page), and no confirmation mail was sent.
  const memorialUrl = owner.url();
  await owner.goto('/mijn-paginas');
  await expect(owner.getByRole('link', { name: /Johanna Willems.*Bekijk pagina/ })).toHaveCount(1);
  const asked = (await mails()).filter(
    (m) => m.to.includes(family.email) && m.subject.startsWith('Bevestig'),
  );
  expect(asked).toEqual([]);
  await owner.goto(memorialUrl);

  // The partner was not allowed to keep managing: the list says so, without a way in.
  await partner.reload();
  const handed = partner.getByRole('listitem', { name: 'Johanna Willems' });
  await expect(handed.getByText('Overgedragen')).toBeVisible();
  await expect(handed.getByRole('link', { name: 'Johanna Willems beheren' })).toHaveCount(0);

  // 9. Later the family lets the company manage the page after all (manage tab 'Mensen'); it can again.
  await owner.goto(`${new URL(owner.url()).pathname}/beheer/mensen`);
  await expect(owner.getByRole('heading', { level: 2, name: 'Uitvaartondernemer' })).toBeVisible();
  // Kees stayed, Lies did not.
  const members = owner.getByRole('list', { name: 'Leden' });
  await expect(members.getByText('Kees Willems', { exact: true })).toBeVisible();
  await expect(members.getByText(/Lies Willems/)).toHaveCount(0);
  await checkBothThemes(owner, '/memorial/{id}/beheer/mensen (the care section)', () =>
    expect(owner.getByRole('heading', { level: 2, name: 'Uitvaartondernemer' })).toBeVisible(),
  );
  // The checkbox follows the saved choice (shown at once, put back on a refusal): it turns checked a moment
  // after the click, which check() (one look right after its click) can miss on a busy machine.
  const partnerRole = owner.getByLabel(`${company} mag de pagina meebeheren`);
  await partnerRole.click();
  await expect(partnerRole).toBeChecked();
  await expect(owner.getByText(`${company} mag de pagina weer meebeheren`)).toBeVisible();
  await partner.reload();
  await expect(
    partner
      .getByRole('listitem', { name: 'Johanna Willems' })
      .getByRole('link', { name: 'Johanna Willems beheren' }),
  ).toBeVisible();
  await ownerContext.close();
  await partnerContext.close();

  // 10. The public page, as an anonymous visitor.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/uitvaartondernemers/${slug}`);
  await expect(visitor.getByRole('heading', { level: 1, name: company })).toBeVisible();
  await expect(visitor.getByText('€ 3.950,00')).toBeVisible();
  await expect(visitor.getByText('Verzorging, kist en begeleiding')).toBeVisible();
  await expect(visitor.getByRole('listitem').filter({ hasText: /^De Bilt$/ })).toBeVisible();
  await expect(visitor.getByText('3700 – 3709')).toBeVisible();
  // Visible at once (it has its width and height); loaded a moment later.
  const logo = visitor.getByRole('img', { name: `Logo van ${company}` });
  await expect(logo).toBeVisible();
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await checkBothThemes(visitor, '/uitvaartondernemers/{slug}', () =>
    expect(visitor.getByRole('heading', { level: 1, name: company })).toBeVisible(),
  );

  // 11. The directory finds the company by a place in its work area.
  await visitor.goto('/uitvaartondernemers');
  await visitor.getByLabel('Plaats of postcode').fill('Den Dolder');
  await visitor.getByRole('button', { name: 'Zoeken' }).click();
  await expect(visitor).toHaveURL(/\?q=Den\+Dolder$/);
  await expect(visitor.getByRole('status')).toContainText('in de gemeente Zeist');
  await visitor.getByRole('link', { name: company }).click();
  await expect(visitor.getByRole('heading', { level: 1, name: company })).toBeVisible();
  await visitorContext.close();

  // Without JavaScript, the search form still works (a plain GET form, answered by the server).
  const plainContext = await browser.newContext({ javaScriptEnabled: false });
  const plain = await plainContext.newPage();
  await plain.goto('/uitvaartondernemers');
  await plain.getByLabel('Plaats of postcode').fill('3705 AB');
  await plain.getByRole('button', { name: 'Zoeken' }).click();
  await expect(plain).toHaveURL(/\?q=3705\+AB$/);
  await expect(plain.getByRole('link', { name: company })).toBeVisible();
  await plainContext.close();
});
