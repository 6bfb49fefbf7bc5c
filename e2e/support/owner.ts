import { createHash, randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { newUser, storedUser, type TestUser } from './identity.ts';
import { ownServer } from './server.ts';

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/**
 * Registers a new person with the real provider over HTTP (the authorization code flow with PKCE, the
 * registration form posted as a browser would) and leaves them signed in on `page` as the web app keeps a
 * session: the tokens in session storage under oidc-client-ts's key, the provider's cookie in the context.
 * For tests that are not about signing up: the screens themselves are covered by the identity specs.
 */
export async function signInNewPerson(page: Page, user: TestUser = newUser()): Promise<TestUser> {
  const { origin } = ownServer();
  const realm = `${origin}/realms/aandenken`;
  const redirectUri = `${origin}/auth/callback`;
  const verifier = base64url(randomBytes(32));
  const challenge = base64url(createHash('sha256').update(verifier).digest());
  const query = new URLSearchParams({
    client_id: 'web',
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid profile email',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: base64url(randomBytes(16)),
  });
  const request = page.request;
  const form = await request.get(`${realm}/protocol/openid-connect/registrations?${query}`);
  expect(form.status(), 'registration screen').toBe(200);
  const html = await form.text();
  const action = /<form method="post" action="([^"]*\/register)"/.exec(html)?.[1];
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  expect(action && csrf, 'registration form with its csrf field').toBeTruthy();

  // The provider answers with redirects that end at the app's callback, carrying the code.
  let res = await request.post(new URL(action!.replaceAll('&amp;', '&'), origin).href, {
    form: {
      csrf: csrf!,
      name: user.name,
      email: user.email,
      password: user.password,
      passwordRepeat: user.password,
    },
    maxRedirects: 0,
  });
  for (let hops = 0; hops < 10 && res.status() >= 300 && res.status() < 400; hops++) {
    const location = new URL(res.headers().location ?? '', res.url()).href;
    if (location.startsWith(redirectUri)) break;
    res = await request.get(location, { maxRedirects: 0 });
  }
  const callback = new URL(res.headers().location ?? '', res.url());
  const code = callback.searchParams.get('code');
  expect(code, `the provider's answer ends at the callback (${res.status()} ${res.url()})`).toBeTruthy();

  const tokenRes = await request.post(`${realm}/protocol/openid-connect/token`, {
    form: {
      grant_type: 'authorization_code',
      client_id: 'web',
      code: code!,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    },
  });
  expect(tokenRes.status(), 'token exchange').toBe(200);
  const tokens = (await tokenRes.json()) as {
    access_token: string;
    id_token: string;
    refresh_token?: string;
    token_type: string;
    scope: string;
    expires_in: number;
  };
  const claims = JSON.parse(Buffer.from(tokens.id_token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  // What oidc-client-ts stores after its own callback (protocol claims left out of the profile).
  for (const claim of ['nonce', 'at_hash', 'iat', 'nbf', 'exp', 'aud', 'iss', 'c_hash', 'azp', 'auth_time'])
    delete claims[claim];
  const stored = JSON.stringify({
    id_token: tokens.id_token,
    session_state: null,
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    token_type: tokens.token_type,
    scope: tokens.scope,
    profile: claims,
    expires_at: Math.floor(Date.now() / 1000) + tokens.expires_in,
  });
  // Session storage belongs to the tab: set once, before the app's first script on this origin.
  await page.addInitScript(
    ({ key, value }) => {
      if (!window.sessionStorage.getItem(key)) window.sessionStorage.setItem(key, value);
    },
    { key: `oidc.user:${realm}:web`, value: stored },
  );
  return user;
}

/** A new owner (registered over HTTP) and their concept memorial made through the API; opens its page. */
let owners = Math.floor(Math.random() * 50_000);
/** An address from the benchmarking range (RFC 2544), a new one per call. */
const nextOwnerAddress = () => {
  owners++;
  return `198.18.${(owners >> 8) % 256}.${owners % 256}`;
};

export async function createMemorialAsNewOwner(
  page: Page,
  firstName: string,
  lastName: string,
  owner: TestUser = newUser('Marieke Jansen'),
) {
  await signInNewPerson(page, owner);
  await page.goto('/');
  const token = (await storedUser(page))?.access_token ?? '';
  const res = await page.request.post('/core/memorial/concept', {
    // Each made from an address of its own: the whole suite runs from one address, and making memorials is
    // limited per address (30 an hour), which the suite's many owners would reach.
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': nextOwnerAddress() },
    data: { firstName, lastName },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/memorial/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: `${firstName} ${lastName}` })).toBeVisible();
  return { id, owner };
}
