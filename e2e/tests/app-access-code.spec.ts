import { expect, test } from '../support/test.ts';
import { ACCESS_CODE_FAILURES_PER_MINUTE } from '@aandenken/contract';

test('a wrong code is told under the field, and after too many wrong codes the visitor is asked to wait', async ({
  page,
}) => {
  // An address of its own (the e2e server trusts X-Forwarded-For), so other tests' wrong codes do not count
  // here and this test's limit does not reach them.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `198.51.100.${1 + Math.floor(Math.random() * 250)}` });
  await page.goto('/beslotenpagina');
  const field = page.getByRole('textbox', { name: 'Toegangscode' });
  const submit = page.getByRole('button', { name: 'Ga naar pagina' });

  // Codes no page has (the generator never makes these in a test database: 10^8 possibilities).
  const wrong = Array.from(
    { length: ACCESS_CODE_FAILURES_PER_MINUTE },
    (_, i) => `9${String(Date.now() + i).slice(-7)}`,
  );
  for (const code of wrong) {
    await field.fill(code);
    const answer = page.waitForResponse((r) => r.url().endsWith('/core/guest/token'));
    await submit.click();
    expect((await answer).status()).toBe(404);
    await expect(field).toHaveAccessibleDescription(
      'Er is geen pagina gevonden met deze code. Controleer de code en probeer het opnieuw.',
    );
    await expect(field).toHaveAttribute('aria-invalid', 'true');
  }

  // The sixth wrong code within a minute: the server limits this address.
  await field.fill('98765432');
  const limited = page.waitForResponse((r) => r.url().endsWith('/core/guest/token'));
  await submit.click();
  expect((await limited).status()).toBe(429);
  await expect(field).toHaveAccessibleDescription(
    'Te veel pogingen. Wacht even en probeer het later opnieuw.',
  );
  await expect(page).toHaveURL('/beslotenpagina');
});
