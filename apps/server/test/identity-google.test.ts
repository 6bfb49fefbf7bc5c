import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createTestApp, type TestContext } from './helpers.ts';
import { startGoogleStandIn } from './identity-google-stand-in.ts';
import {
  Browser,
  exchangeCode,
  followToCallback,
  openInteraction,
  pkce,
  refresh,
  registerThroughProvider,
} from './identity-flow.ts';

let t: TestContext;
let google: Awaited<ReturnType<typeof startGoogleStandIn>>;
beforeAll(async () => {
  google = await startGoogleStandIn({
    clientId: 'aandenken-test',
    clientSecret: 'geheim-voor-de-test',
    redirectUris: ['http://localhost:8080/realms/aandenken/broker/google/endpoint'],
  });
  t = await createTestApp({
    GOOGLE_CLIENT_ID: 'aandenken-test',
    GOOGLE_CLIENT_SECRET: 'geheim-voor-de-test',
    GOOGLE_ISSUER: google.issuer,
  });
});
afterAll(async () => {
  await t?.close();
  await google?.close();
});

/** The person's side at "Google": a separate browser over real HTTP, choosing an account on its screen. */
async function atGoogle(authorizeUrl: string, user: { email: string; name: string; unverified?: boolean }) {
  const cookies = new Map<string, string>();
  const go = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair!.indexOf('=');
      cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    return res;
  };
  let res = await go(authorizeUrl);
  const screen = new URL(res.headers.get('location')!, google.issuer).href;
  expect(screen, screen).toMatch(/\/interaction\//);
  expect(await (await go(screen)).text()).toContain('Kies een Google-account');
  res = await go(screen, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email: user.email,
      name: user.name,
      ...(user.unverified ? { unverified: '1' } : {}),
    }),
  });
  for (let i = 0; i < 5; i++) {
    const location = new URL(res.headers.get('location')!, google.issuer).href;
    if (location.startsWith('http://localhost:8080/')) return location;
    res = await go(location);
  }
  throw new Error('Google stand-in did not redirect back');
}

async function signInWithGoogle(
  user: { email: string; name: string; unverified?: boolean },
  viaButton = false,
) {
  const browser = new Browser(t.app);
  const { verifier, challenge } = pkce();
  const { uidPath, page, csrf } = await openInteraction(browser, {
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(viaButton ? {} : { kc_idp_hint: 'google' }),
  });
  let toGoogle;
  if (viaButton) {
    toGoogle = await browser.post(`${uidPath}/google`, { csrf });
  } else {
    // With kc_idp_hint the interaction page itself forwarded to Google.
    toGoogle = page;
  }
  expect(toGoogle.statusCode).toBe(303);
  const googleAuthorize = toGoogle.headers.location as string;
  expect(googleAuthorize.startsWith(`${google.issuer}/auth?`)).toBe(true);
  expect(new URL(googleAuthorize).searchParams.get('code_challenge_method')).toBe('S256');

  const back = await atGoogle(googleAuthorize, user);
  const broker = await browser.get(back);
  expect(broker.statusCode).toBe(303);
  const done = await browser.get(broker.headers.location as string);
  return { browser, done, verifier, uidPath, back };
}

describe('sign-in with Google (a local stand-in provider)', () => {
  it('offers the Google button on the screens and to the site', async () => {
    const browser = new Browser(t.app);
    const { uidPath, page } = await openInteraction(browser, {
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    expect(page.body).toContain('Inloggen met Google');
    expect(page.body).toContain(`action="${uidPath}/google"`);
    expect((await browser.get(`${uidPath}?scherm=registreren`)).body).toContain('Inloggen met Google');
    expect((await t.app.inject({ url: '/core/account/sign-in-methods' })).json()).toEqual({ google: true });
  });

  it('creates a verified account for a new Google user and issues API tokens', async () => {
    const { browser, done, verifier } = await signInWithGoogle({
      email: 'fleur@gmail.test',
      name: 'Fleur Jansen',
    });
    expect(done.statusCode).toBe(303);
    const callback = await followToCallback(browser, done);
    const tokens = (await exchangeCode(t.app, callback.searchParams.get('code')!, verifier)).json();
    const { rows } = await t.db.query<{
      id: string;
      name: string;
      email_verified: boolean;
      google_sub: string;
      password_hash: string | null;
    }>(
      "SELECT id, name, email_verified, google_sub, password_hash FROM accounts WHERE email = 'fleur@gmail.test'",
    );
    expect(rows[0]).toMatchObject({
      name: 'Fleur Jansen',
      email_verified: true,
      google_sub: google.subOf('fleur@gmail.test'),
      password_hash: null,
    });
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      sub: rows[0]!.id,
      email: 'fleur@gmail.test',
      name: 'Fleur Jansen',
      aud: 'aandenken-api',
    });

    // Again (through the button this time): the same account.
    const second = await signInWithGoogle({ email: 'fleur@gmail.test', name: 'Fleur J.' }, true);
    const cb2 = await followToCallback(second.browser, second.done);
    const tokens2 = (await exchangeCode(t.app, cb2.searchParams.get('code')!, second.verifier)).json();
    expect(decodeJwt(tokens2.access_token).sub).toBe(rows[0]!.id);
  });

  it('links to an existing account with the same e-mail; an unverified password and its sign-ins are dropped', async () => {
    const { tokens: early } = await registerThroughProvider(t.app, {
      name: 'Gijs',
      email: 'gijs@gmail.test',
      password: 'lang-genoeg-wachtwoord',
    });
    const before = await t.db.query<{ id: string }>(
      "SELECT id FROM accounts WHERE email = 'gijs@gmail.test'",
    );
    const { browser, done, verifier } = await signInWithGoogle({ email: 'GIJS@gmail.test', name: 'Gijs' });
    const callback = await followToCallback(browser, done);
    const tokens = (await exchangeCode(t.app, callback.searchParams.get('code')!, verifier)).json();
    expect(decodeJwt(tokens.access_token).sub).toBe(before.rows[0]!.id);
    const { rows } = await t.db.query(
      "SELECT email_verified, password_hash, google_sub IS NOT NULL AS linked FROM accounts WHERE email = 'gijs@gmail.test'",
    );
    expect(rows[0]).toEqual({ email_verified: true, password_hash: null, linked: true });
    // Whoever registered the address first (perhaps not its owner) is signed out too.
    expect((await refresh(t.app, early.refresh_token)).json().error).toBe('invalid_grant');
  });

  it('refuses a Google account without a verified e-mail, and a replayed answer', async () => {
    const { done } = await signInWithGoogle({ email: 'onbevestigd@gmail.test', name: 'X', unverified: true });
    expect(done.statusCode).toBe(400);
    expect(done.body).toContain('Je Google-account heeft geen bevestigd e-mailadres');
    const { rows } = await t.db.query("SELECT 1 FROM accounts WHERE email = 'onbevestigd@gmail.test'");
    expect(rows).toHaveLength(0);

    const ok = await signInWithGoogle({ email: 'hanna@gmail.test', name: 'Hanna' });
    expect(ok.done.statusCode).toBe(303);
    const replay = await ok.browser.get(ok.back);
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('Deze pagina is verlopen');
    // Another browser cannot finish someone else's Google sign-in.
    const stranger = new Browser(t.app);
    const state = new URL(ok.back).searchParams.get('state')!;
    const res = await stranger.get(`${ok.uidPath}/google/done?state=${state}`);
    expect(res.statusCode).toBe(400);
  });
});
