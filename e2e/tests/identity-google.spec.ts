import { expect, test } from '../support/test.ts';
import { expectSignedIn } from '../support/identity.ts';

test('sign in with Google (a local stand-in provider) from the create flow', async ({ page }) => {
  const tag = Date.now().toString(36);
  const googleUser = { name: 'Femke Google', email: `femke.${tag}@gmail.test` };
  await page.goto(`/protect-memorial?firstName=Wim&lastName=Kok${tag}`);
  await page.getByRole('button', { name: 'Inloggen met Google' }).click();

  await expect(page.getByRole('heading', { name: 'Kies een Google-account' })).toBeVisible();
  await page.getByLabel('E-mailadres (Google)').fill(googleUser.email);
  await page.getByLabel('Naam (Google)').fill(googleUser.name);
  await page.getByRole('button', { name: 'Doorgaan met Google' }).click();

  await expect(page.getByText('Je bent ingelogd', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/verify-memorial\\?firstName=Wim&lastName=Kok${tag}$`));
  await expectSignedIn(page, googleUser);
  await page.getByRole('button', { name: 'Maak pagina' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Wim Kok${tag}` })).toBeVisible();
});
