import { expect, test } from '../support/test.ts';

test.describe('/beslotenpagina', () => {
  test('before the script has run the form cannot be sent; a code in the link is picked up once it runs', async ({
    browser,
  }) => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const page = await noScript.newPage();
    await page.goto('/beslotenpagina');
    await expect(page.getByRole('button', { name: 'Ga naar pagina' })).toBeDisabled();
    await expect(page.getByLabel(/^Toegangscode\*?$/)).not.toBeEditable();
    await noScript.close();

    // With the script, the code from the fragment is filled in and sent, and leaves the address bar.
    const page2 = await browser.newPage();
    await page2.goto('/beslotenpagina#code=12345678');
    await expect(page2.getByText('Er is geen pagina gevonden met deze code', { exact: false })).toBeVisible();
    await expect(page2).toHaveURL(/\/beslotenpagina$/);
    await page2.close();
  });

  test('the form with its texts, and validation under the field', async ({ page }) => {
    const logged: string[] = [];
    page.on('console', (m) => logged.push(m.text()));
    await page.goto('/beslotenpagina');
    await expect(page.getByRole('heading', { level: 1, name: 'Ga naar de besloten pagina' })).toBeVisible();
    await expect(page.getByText(/code van 8 cijfers .* per e-mail of op een kaartje/)).toBeVisible();
    const field = page.getByLabel(/^Toegangscode\*?$/);
    await expect(field).toHaveAttribute('placeholder', '12345678');
    await expect(field).toHaveAttribute('inputmode', 'numeric');
    await expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    await expect(page.getByRole('heading', { name: 'Hulp nodig?' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Neem contact met ons op' })).toHaveAttribute(
      'href',
      '/contact',
    );

    const submit = page.getByRole('button', { name: 'Ga naar pagina' });
    await submit.click();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription('Code is required');
    await expect(field).toBeFocused();

    // After the first submit, the message follows every change.
    await field.fill('1234');
    await expect(field).toHaveAccessibleDescription('Code must be an 8-digit number');
    await field.fill('1234abcd');
    await expect(page.getByText('Code must be an 8-digit number')).toBeVisible();
    await field.fill('87654321');
    await expect(field).toHaveAttribute('aria-invalid', 'false');
    await expect(page.getByText('Code must be an 8-digit number')).toHaveCount(0);
    expect(logged.join('\n')).not.toContain('87654321');
  });

  test('a well-formed code without a page gets the server’s “no page found”, and is never logged', async ({
    page,
  }) => {
    const logged: string[] = [];
    page.on('console', (m) => logged.push(m.text()));
    await page.goto('/beslotenpagina');
    const field = page.getByLabel(/^Toegangscode\*?$/);
    await field.fill('20242024');
    const answer = page.waitForResponse(
      (r) => r.url().endsWith('/core/guest/token') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Ga naar pagina' }).click();
    const res = await answer;
    expect([400, 404]).toContain(res.status());
    expect(JSON.parse(res.request().postData() ?? '{}')).toEqual({ accessCode: '20242024' });
    await expect(field).toHaveAccessibleDescription(
      'Er is geen pagina gevonden met deze code. Controleer de code en probeer het opnieuw.',
    );
    await expect(page).toHaveURL('/beslotenpagina');
    await expect(field).toHaveValue('20242024');
    expect(await page.evaluate(() => localStorage.getItem('aandenken-guest-token'))).toBeNull();
    expect(logged.join('\n')).not.toContain('20242024');
  });

  test('too many attempts and a lost connection get their own Dutch messages', async ({ page }) => {
    await page.goto('/beslotenpagina');
    const field = page.getByLabel(/^Toegangscode\*?$/);
    await field.fill('11112222');
    // The rate limit answer the server gives (429 RATE_LIMITED), without hammering it for real.
    await page.route('**/core/guest/token', (route) =>
      route.fulfill({ status: 429, json: { code: 'RATE_LIMITED', message: 'Te veel verzoeken.' } }),
    );
    await page.getByRole('button', { name: 'Ga naar pagina' }).click();
    await expect(field).toHaveAccessibleDescription(
      'Te veel pogingen. Wacht even en probeer het later opnieuw.',
    );
    await page.unroute('**/core/guest/token');
    await page.route('**/core/guest/token', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Ga naar pagina' }).click();
    await expect(field).toHaveAccessibleDescription(/geen verbinding met de server/);
  });

  test('a valid code stores the guest token and opens the memorial page', async ({ page }) => {
    const memorialId = '4b0c7a52-8a53-4c57-a2a4-0d6b7cfb7d11';
    await page.route('**/core/guest/token', (route) =>
      route.fulfill({ status: 200, json: { token: 'guest-token-abc', memorialId } }),
    );
    await page.goto('/beslotenpagina');
    await page.getByLabel(/^Toegangscode\*?$/).fill('12345678');
    await page.getByRole('button', { name: 'Ga naar pagina' }).click();
    await expect(page).toHaveURL(`/memorial/${memorialId}`);
    expect(await page.evaluate(() => localStorage.getItem('aandenken-guest-token'))).toBe('guest-token-abc');
  });
});
