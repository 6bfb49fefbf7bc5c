import { expect, test } from '../support/test.ts';

test('the built site is served with the app shell and security headers', async ({ page }) => {
  const res = await page.goto('/');
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toContain("object-src 'none'");
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('unknown paths answer 404', async ({ request }) => {
  expect((await request.get('/bestaat-niet')).status()).toBe(404);
  const api = await request.get('/core/bestaat-niet');
  expect(api.status()).toBe(404);
  expect(await api.json()).toMatchObject({ code: 'NOT_FOUND' });
});
