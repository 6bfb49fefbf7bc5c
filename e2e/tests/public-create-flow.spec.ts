import { expect, test } from '../support/test.ts';

test.describe('create flow for a signed-out visitor', () => {
  test('/create-memorial prefills from the query and asks for a missing first name', async ({ page }) => {
    await page.goto('/create-memorial?lastName=de%20Vries');
    await expect(page.getByRole('heading', { level: 1, name: 'Maak een gedenkpagina' })).toBeVisible();
    await expect(page.getByLabel('Achternaam')).toHaveValue('de Vries');
    await expect(page.getByLabel('Voornaam')).toHaveValue('');

    await page.getByRole('button', { name: 'Volgende' }).click();
    await expect(page.getByText('Voornaam is verplicht')).toBeVisible();
    await expect(page.getByText('Achternaam is verplicht')).toHaveCount(0);
    await expect(page).toHaveURL('/create-memorial?lastName=de%20Vries');

    // Spaces only is empty too.
    await page.getByLabel('Voornaam').fill('   ');
    await page.getByRole('button', { name: 'Volgende' }).click();
    await expect(page.getByText('Voornaam is verplicht')).toBeVisible();

    await page.getByLabel('Voornaam').fill('Johanna');
    await expect(page.getByText('Voornaam is verplicht')).toHaveCount(0);
    await page.getByRole('button', { name: 'Volgende' }).click();
    await expect(page).toHaveURL('/protect-memorial?firstName=Johanna&lastName=de+Vries');
    await expect(page.getByRole('heading', { level: 1, name: 'Bescherm de pagina' })).toBeVisible();
  });

  test('the guards of /protect-memorial and /verify-memorial send a signed-out visitor back', async ({
    page,
  }) => {
    await page.goto('/protect-memorial?firstName=Johanna');
    await expect(page).toHaveURL('/create-memorial');
    await expect(page.getByLabel('Voornaam')).toBeVisible();

    await page.goto('/verify-memorial?lastName=de%20Vries');
    await expect(page).toHaveURL('/create-memorial');

    await page.goto('/verify-memorial?firstName=Johanna&lastName=de%20Vries');
    await expect(page).toHaveURL('/protect-memorial?firstName=Johanna&lastName=de+Vries');
    await expect(page.getByRole('button', { name: 'Doorgaan met e-mail' })).toBeVisible();
  });
});
