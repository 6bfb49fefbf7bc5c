import { expect, test } from '../support/test.ts';
import { CoreApi } from '../support/app-api.ts';
import { createMemorialAsNewOwner, readAccessCode } from '../support/app-memorial.ts';
import { waitForMail } from '../support/mailbox.ts';

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
    await expect(field).toHaveAttribute('placeholder', '1234 5678');
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
    await expect(field).toHaveAccessibleDescription('Vul de toegangscode in.');
    await expect(field).toBeFocused();

    // After the first submit, the message follows every change.
    await field.fill('1234');
    await expect(field).toHaveAccessibleDescription('De toegangscode bestaat uit 8 cijfers.');
    await field.fill('1234abcd');
    await expect(page.getByText('De toegangscode bestaat uit 8 cijfers.')).toBeVisible();
    await field.fill('87654321');
    await expect(field).toHaveAttribute('aria-invalid', 'false');
    await expect(page.getByText('De toegangscode bestaat uit 8 cijfers.')).toHaveCount(0);
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
    await expect(field).toHaveValue('2024 2024');
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

  test('the code typed as the card prints it, with a space, or pasted from a mail, opens the page', async ({
    page,
    browser,
  }) => {
    const { id } = await createMemorialAsNewOwner(page, 'Bertha', `Kuiper ${Date.now().toString(36)}`);
    await (await CoreApi.as(page)).update(id, { status: 'active', visibility: 'private' });
    const code = await readAccessCode(page, id);
    const printed = `${code.slice(0, 4)} ${code.slice(4)}`;

    for (const way of ['typed', 'pasted'] as const) {
      const context = await browser.newContext({
        extraHTTPHeaders: { 'x-forwarded-for': `192.0.2.${way === 'typed' ? 211 : 212}` },
      });
      const visitor = await context.newPage();
      await visitor.goto('/beslotenpagina');
      const field = visitor.getByRole('textbox', { name: 'Toegangscode' });
      await expect(field).toBeEditable();
      if (way === 'typed') {
        await field.pressSequentially(printed);
      } else {
        await field.focus();
        // What a mail program puts on the clipboard when a line of the mail is copied.
        await field.evaluate((input, text) => {
          const data = new DataTransfer();
          data.setData('text/plain', text);
          input.dispatchEvent(
            new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
          );
        }, `Toegangscode: ${printed}`);
      }
      await expect(field).toHaveValue(printed);
      const answer = visitor.waitForResponse((r) => r.url().endsWith('/core/guest/token'));
      await visitor.getByRole('button', { name: 'Ga naar pagina' }).click();
      expect((await answer).status()).toBe(200);
      await expect(visitor).toHaveURL(`/memorial/${id}`);
      await expect(visitor.getByText('Je bezoekt deze pagina als gast.')).toBeVisible();
      await context.close();
    }
  });

  // Last in this file, and this file near the end of the run: it leaves the e2e server over its global budget
  // (100 wrong codes an hour, support/serve.ts), so every later code entry is asked for a proof of work first
  // (which the form solves by itself; only an exact status check would notice).
  test('over the global budget of wrong codes, the form solves a proof of work itself and the right code opens the page', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const lastName = `Visser ${Date.now().toString(36)}`;
    const { id } = await createMemorialAsNewOwner(page, 'Aaltje', lastName);
    await (await CoreApi.as(page)).update(id, { status: 'active', visibility: 'private' });
    const code = await readAccessCode(page, id);

    // 100 wrong codes, each from an address of its own (so no address reaches its own limit).
    const run = Date.now() % 200;
    for (let i = 0; i < 100; i++) {
      const res = await page.request.post('/core/guest/token', {
        headers: { 'x-forwarded-for': `203.0.${113 + Math.floor(i / 250)}.${(run + i) % 250}` },
        data: { accessCode: `9${String(Date.now() + i).slice(-7)}` },
      });
      expect([404, 429]).toContain(res.status());
    }

    const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '192.0.2.201' } });
    const visitor = await context.newPage();
    const origin = new URL(page.url()).origin;
    const requested: string[] = [];
    visitor.on('request', (r) => requested.push(r.url()));
    const workers: string[] = [];
    visitor.on('worker', (w) => workers.push(w.url()));
    const answers: { status: number; body: { code?: string; challenge?: unknown }; sent: unknown }[] = [];
    visitor.on('response', async (r) => {
      if (r.url().endsWith('/core/guest/token')) {
        answers.push({
          status: r.status(),
          body: (await r.json()) as { code?: string },
          sent: JSON.parse(r.request().postData() ?? '{}'),
        });
      }
    });
    await visitor.goto('/beslotenpagina');
    await visitor.getByRole('textbox', { name: 'Toegangscode' }).fill(code);
    await visitor.getByRole('button', { name: 'Ga naar pagina' }).click();
    await expect(visitor).toHaveURL(`/memorial/${id}`);
    await expect(visitor.getByText('Je bezoekt deze pagina als gast.')).toBeVisible();

    // First asked for a challenge (not refused), then the same code with the solution.
    await expect.poll(() => answers.length).toBeGreaterThanOrEqual(2);
    expect(answers[0]).toMatchObject({
      status: 429,
      body: { code: 'CHALLENGE_REQUIRED', challenge: expect.any(Object) },
      sent: { accessCode: code },
    });
    expect(answers.at(-1)).toMatchObject({
      status: 200,
      sent: { accessCode: code, pow: expect.any(String) },
    });
    // Solved in a worker from our own bundle; nothing asked of any other site.
    expect(workers.length).toBeGreaterThanOrEqual(1);
    for (const url of [...workers, ...requested]) expect(url.startsWith(origin), url).toBe(true);
    await context.close();

    // The team is told.
    const mail = await waitForMail((m) => m.subject.startsWith('Veel onjuiste toegangscodes: bezoekers'));
    expect(mail.to).toContain('team@aandenken.test');
  });
});
