import { expect, test, type Page } from '../support/test.ts';
import { axeResults } from '../support/axe.ts';
import { clickLogin, expectSignedOut, fillLogin, newUser, registerFromHeader } from '../support/identity.ts';

/** Serious and critical accessibility faults on the page as it is now, in the theme it has. */
async function expectAccessible(page: Page) {
  await page.evaluate(() => document.fonts.ready);
  const { violations } = await axeResults(page);
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
}

test.describe('deleting one’s own account (/account)', () => {
  test('from the account menu, confirmed by typing VERWIJDEREN: signed out, and the old password no longer works', async ({
    page,
  }) => {
    const user = newUser('Jorien Visser');
    await page.goto('/');
    await registerFromHeader(page, user);

    // The account menu leads to the account screen.
    await page.getByRole('button', { name: `Account van ${user.name}` }).click();
    await page.getByRole('menuitem', { name: 'Mijn account' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Mijn account' })).toBeVisible();
    await expect(page.getByText(user.email).first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Account verwijderen' })).toBeVisible();
    await expectAccessible(page);
    for (const theme of ['light', 'dark'] as const) {
      await page
        .context()
        .addCookies([{ name: 'aandenken-theme', value: theme, domain: 'localhost', path: '/' }]);
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Account verwijderen' })).toBeVisible();
      await expectAccessible(page);
    }

    // Without the confirmation nothing happens; the field says what to type.
    const field = page.getByLabel('Typ je e-mailadres of VERWIJDEREN om te bevestigen');
    await field.fill('verwijder maar');
    await page.getByRole('button', { name: 'Account definitief verwijderen' }).click();
    await expect(page.getByRole('alert')).toHaveText('Typ je e-mailadres of VERWIJDEREN om te bevestigen.');
    await expect(field).toHaveAttribute('aria-invalid', 'true');

    await field.fill('VERWIJDEREN');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/$/);
    await expectSignedOut(page);

    // The account is gone: signing in with it fails like any unknown address.
    await clickLogin(page);
    await fillLogin(page, user.email, user.password);
    await expect(page.getByText('Onjuist e-mailadres of wachtwoord.')).toBeVisible();
  });
});

test('on a phone the menu leads to the account screen', { tag: '@layout' }, async ({ page }) => {
  test.skip(
    (page.viewportSize()?.width ?? 1280) >= 768,
    'the desktop reaches it from the avatar menu (above)',
  );
  const user = newUser('Ruben de Jong');
  await page.goto('/');
  await registerFromHeader(page, user);
  await expect(async () => {
    if (!(await page.getByRole('dialog').isVisible()))
      await page.getByRole('button', { name: 'Menu openen' }).click();
    await expect(page.getByRole('dialog')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole('dialog').getByRole('link', { name: 'Mijn account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Mijn account' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account definitief verwijderen' })).toBeVisible();
});
