import { expect, test } from '../support/test.ts';
import { waitForMail } from '../support/mailbox.ts';

test.describe('/bedrijf', () => {
  test('hero, three steps, and required fields with their messages', async ({ page }) => {
    await page.goto('/bedrijf');
    await expect(page.getByRole('heading', { level: 1, name: 'Word partner van Aandenken' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Zo werkt het' })).toBeVisible();
    const steps = page.getByRole('list').filter({ hasText: 'Stap 1' });
    await expect(steps.getByRole('listitem')).toHaveCount(3);
    await expect(page.getByText('vanaf € 299')).toBeVisible();
    // The directory of partners that already work with Aandenken.
    await expect(page.getByRole('link', { name: 'Bekijk onze partners' })).toHaveAttribute(
      'href',
      '/uitvaartondernemers',
    );

    const type = page.getByLabel(/^Soort partner\*?$/);
    const labels = await type.locator('option').allTextContents();
    expect(labels).toEqual([
      'Kies het soort bedrijf',
      'Uitvaartondernemer',
      'Crematorium',
      'Uitvaartverzekeraar',
      'Rouwbegeleider',
      'Steenhouwer / monumentenmaker',
      'Andere dienstverlener',
    ]);
    await expect(page.getByLabel(/^Omschrijving van je diensten\*?$/)).toHaveCount(0);

    await page.getByRole('button', { name: 'Aanvraag versturen' }).click();
    await expect(type).toHaveAccessibleDescription('Kies het soort bedrijf');
    await expect(page.getByLabel(/^Voornaam\*?$/)).toHaveAccessibleDescription('Voornaam is verplicht');
    await expect(page.getByLabel(/^Bedrijfsnaam\*?$/)).toHaveAccessibleDescription(
      'Bedrijfsnaam is verplicht',
    );
    await expect(page.getByLabel(/^Postcode\*?$/)).toHaveAccessibleDescription('Postcode is verplicht');
    await expect(page.getByLabel(/^E-mailadres\*?$/)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel(/^Aanvullende informatie\*?$/)).toHaveAttribute('aria-invalid', 'false');
    await expect(type).toBeFocused();

    await type.selectOption({ label: 'Andere dienstverlener' });
    const description = page.getByLabel(/^Omschrijving van je diensten\*?$/);
    await expect(description).toBeVisible();
    await page.getByRole('button', { name: 'Aanvraag versturen' }).click();
    await expect(description).toHaveAccessibleDescription(/Omschrijf je diensten/);
    await page.getByLabel(/^Postcode\*?$/).fill('12');
    await expect(page.getByLabel(/^Postcode\*?$/)).toHaveAccessibleDescription(
      /Voer een geldige postcode in/,
    );
    // The name goes into a mail to the address typed here: one line, no link.
    await page.getByLabel(/^Voornaam\*?$/).fill('Anna, zie www.voorbeeld.nl');
    await expect(page.getByLabel(/^Voornaam\*?$/)).toHaveAccessibleDescription(
      'Een naam mag geen link, webadres of e-mailadres bevatten',
    );
  });

  test('a failed submit keeps every value and says so in Dutch', async ({ page }) => {
    await page.goto('/bedrijf');
    await fillApplication(page, 'Faalbedrijf B.V.');
    await page.route('**/core/companies/request', (route) =>
      route.fulfill({
        status: 400,
        json: {
          code: 'VALIDATION_ERROR',
          message: 'Controleer de gemarkeerde velden.',
          fields: { postalCode: 'Deze postcode kennen we niet' },
        },
      }),
    );
    await page.getByRole('button', { name: 'Aanvraag versturen' }).click();
    await expect(page.getByRole('alert')).toHaveText('Controleer de gemarkeerde velden.');
    await expect(page.getByLabel(/^Postcode\*?$/)).toHaveAccessibleDescription(
      'Deze postcode kennen we niet',
    );
    await expect(page.getByLabel(/^Bedrijfsnaam\*?$/)).toHaveValue('Faalbedrijf B.V.');
    await page.unroute('**/core/companies/request');
    await page.route('**/core/companies/request', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Aanvraag versturen' }).click();
    await expect(page.getByRole('alert')).toHaveText(/geen verbinding met de server/);
    await expect(page.getByLabel(/^Voornaam\*?$/)).toHaveValue('Anna');
  });

  test('a complete application for another kind of provider: busy state, thank-you screen and both mails', async ({
    page,
  }, info) => {
    const company = `Rouwbloem ${info.project.name} ${Date.now().toString(36)}`;
    const email = `anna.${info.project.name}.${Date.now().toString(36)}@bloemist.test`;
    await page.goto('/bedrijf');
    await fillApplication(page, company, email);
    await page.getByLabel(/^Soort partner\*?$/).selectOption({ label: 'Andere dienstverlener' });
    await page
      .getByLabel(/^Omschrijving van je diensten\*?$/)
      .fill('Rouwbloemwerk en bloemstukken voor uitvaarten.');
    await page.getByLabel(/^Aanvullende informatie\*?$/).fill('Werkgebied: Utrecht en omgeving.');

    // Hold the real request until the busy state has been seen.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route('**/core/companies/request', async (route) => {
      await released;
      await route.continue();
    });
    const request = page.waitForRequest('**/core/companies/request');
    await page.getByRole('button', { name: 'Aanvraag versturen' }).click();
    await expect(page.getByRole('button', { name: 'Verwerken...' })).toBeDisabled();
    release();
    const body = JSON.parse((await request).postData() ?? '{}');
    expect(body).toMatchObject({
      companyType: 'OtherServiceProvider',
      companyName: company,
      serviceDescription: 'Rouwbloemwerk en bloemstukken voor uitvaarten.',
      postalCode: '3511 AB',
    });

    await expect(page.getByRole('heading', { name: 'Bedankt voor je aanvraag!' })).toBeVisible();
    await expect(page.getByText(/Ons team neemt\s+binnen 24-48 uur contact met je op/)).toBeVisible();
    await expect(page.getByText(company)).toBeVisible();

    const team = await waitForMail(
      (m) => m.to.includes('team@aandenken.test') && m.subject.includes(company),
    );
    expect(team.text).toContain('Andere dienstverlener');
    expect(team.text).toContain('Rouwbloemwerk en bloemstukken');
    const applicant = await waitForMail((m) => m.to.includes(email));
    expect(applicant.text).toContain('24-48 uur');
    // Only our own words and the applicant's name: nothing else they typed goes to an unproven address.
    expect(applicant.text).toContain('Beste Anna de Boer,');
    expect(applicant.text).not.toContain(company);
    expect(applicant.text).not.toContain('Rouwbloemwerk');
  });
});

async function fillApplication(
  page: import('@playwright/test').Page,
  company: string,
  email = 'anna@bloemist.test',
) {
  await page.getByLabel(/^Soort partner\*?$/).selectOption({ label: 'Uitvaartondernemer' });
  await page.getByLabel(/^Voornaam\*?$/).fill('Anna');
  await page.getByLabel(/^Achternaam\*?$/).fill('de Boer');
  await page.getByLabel(/^Bedrijfsnaam\*?$/).fill(company);
  await page.getByLabel(/^Straatnaam\*?$/).fill('Oudegracht');
  await page.getByLabel(/^Huisnummer\*?$/).fill('12a');
  await page.getByLabel(/^Postcode\*?$/).fill('3511 AB');
  await page.getByLabel(/^Telefoonnummer\*?$/).fill('030 123 45 67');
  await page.getByLabel(/^E-mailadres\*?$/).fill(email);
}
