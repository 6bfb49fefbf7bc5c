import { expect, type Page } from '@playwright/test';

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

let counter = 0;
/** A person nobody registered yet (unique per run and test). */
export function newUser(name = 'Sanne Bakker'): TestUser {
  counter++;
  const tag = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return { name, email: `sanne.${tag}@example.nl`, password: 'een-veilig-wachtwoord' };
}

const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1280) < 768;

/**
 * On a phone the account controls live in the side menu. A tap that lands before the page's script has
 * run does nothing (as for a person), so the tap is repeated until the menu is open.
 */
async function openMenu(page: Page) {
  if (!isPhone(page)) return;
  await expect(async () => {
    if (!(await page.getByRole('dialog').isVisible())) {
      await page.getByRole('button', { name: 'Menu openen' }).click();
    }
    await expect(page.getByRole('dialog')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}
/**
 * On a desktop screen the account menu (a Radix menu whose code loads when the button is first pointed at). A
 * click that lands before the page's script has run, or while the header is being swapped for the signed-in
 * one, does nothing (as for a person): it is repeated until the menu is open.
 */
async function openAccountMenu(page: Page, user: Pick<TestUser, 'name'>) {
  const trigger = page.getByRole('button', { name: `Account van ${user.name}` });
  await expect(async () => {
    // Only a closed trigger is clicked again: a click on one whose menu is still on its way would close it.
    if ((await trigger.getAttribute('aria-expanded')) !== 'true') await trigger.click();
    await expect(page.locator('[role="menu"][data-state="open"]')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}
async function closeMenu(page: Page) {
  if (isPhone(page)) await page.getByRole('button', { name: 'Menu sluiten' }).click();
}

/** The header's sign-in button (in the menu sheet on a phone), not a page's own 'Inloggen'. */
const headerLogin = (page: Page) =>
  (isPhone(page) ? page.getByRole('dialog') : page.getByRole('banner')).getByRole('button', {
    name: 'Inloggen',
    exact: true,
  });

export async function clickLogin(page: Page) {
  await openMenu(page);
  await headerLogin(page).click();
}

/** The header shows the person's real name and e-mail address. */
export async function expectSignedIn(page: Page, user: Pick<TestUser, 'name' | 'email'>) {
  if (isPhone(page)) {
    await openMenu(page);
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText(user.email)).toBeVisible();
    await expect(dialog.getByText(user.name, { exact: true })).toBeVisible();
    await expect(dialog.getByRole('link', { name: "Mijn Pagina's" })).toBeVisible();
    await closeMenu(page);
    return;
  }
  await expect(page.getByRole('link', { name: "Mijn Pagina's" })).toBeVisible();
  await openAccountMenu(page, user);
  const menu = page.getByRole('menu');
  await expect(menu.getByText(user.email)).toBeVisible();
  await expect(menu.getByText(user.name, { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
}

export async function expectSignedOut(page: Page) {
  await openMenu(page);
  await expect(headerLogin(page)).toBeVisible();
  await closeMenu(page);
}

export async function logOut(page: Page, user: Pick<TestUser, 'name'>) {
  if (isPhone(page)) {
    await openMenu(page);
    await page.getByRole('dialog').getByRole('button', { name: 'Uitloggen' }).click();
  } else {
    await openAccountMenu(page, user);
    await page.getByRole('menuitem', { name: 'Uitloggen' }).click();
  }
}

/** On the provider's registration screen (reached through the create flow or 'Account aanmaken'). */
export async function fillRegistration(page: Page, user: TestUser) {
  await expect(page.getByRole('heading', { name: 'Account aanmaken' })).toBeVisible();
  await page.getByLabel('Je naam').fill(user.name);
  await page.getByLabel('E-mailadres').fill(user.email);
  await page.getByLabel('Wachtwoord', { exact: true }).fill(user.password);
  await page.getByLabel('Herhaal wachtwoord').fill(user.password);
  await page.getByRole('button', { name: 'Account aanmaken' }).click();
}

export async function fillLogin(page: Page, email: string, password: string) {
  await expect(page.getByRole('heading', { name: 'Inloggen' })).toBeVisible();
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByLabel('Wachtwoord').fill(password);
  await page.getByRole('button', { name: 'Inloggen', exact: true }).click();
}

/** Registers through the header's Inloggen button and the provider's 'Account aanmaken' link. */
export async function registerFromHeader(page: Page, user: TestUser) {
  await clickLogin(page);
  await page.getByRole('link', { name: 'Account aanmaken' }).click();
  await fillRegistration(page, user);
  await expect(page.getByText('Je bent ingelogd', { exact: true })).toBeVisible();
}

/** What oidc-client-ts keeps in session storage for the signed-in user. */
export async function storedUser(
  page: Page,
): Promise<{ access_token: string; expires_at: number; refresh_token?: string } | null> {
  return page.evaluate(() => {
    const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'));
    return key ? JSON.parse(sessionStorage.getItem(key)!) : null;
  });
}
