import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { requireUser } from '../src/lib/auth.ts';
import { createAdapterFactory, sweepExpiredModels } from '../src/identity/adapter.ts';
import {
  Browser,
  REDIRECT_URI,
  authorizeUrl,
  endpoints,
  exchangeCode,
  followToCallback,
  openInteraction,
  pkce,
  refresh,
  registerThroughProvider,
  signInWithPassword,
} from './identity-flow.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({}, (app) => app.get('/whoami-test', async (req) => requireUser(req)));
});
afterAll(async () => t?.close());

const password = 'lang-genoeg-wachtwoord';

describe('discovery and keys', () => {
  it('publishes the realm with Keycloak-style endpoints, code flow only and PKCE S256', async () => {
    const res = await t.app.inject({ url: endpoints.discovery });
    expect(res.statusCode).toBe(200);
    const d = res.json();
    const issuer = 'http://localhost:8080/realms/aandenken';
    expect(d).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/protocol/openid-connect/auth`,
      token_endpoint: `${issuer}/protocol/openid-connect/token`,
      userinfo_endpoint: `${issuer}/protocol/openid-connect/userinfo`,
      jwks_uri: `${issuer}/protocol/openid-connect/certs`,
      end_session_endpoint: `${issuer}/protocol/openid-connect/logout`,
      revocation_endpoint: `${issuer}/protocol/openid-connect/revoke`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    });
    expect(d.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));

    const jwks = (await t.app.inject({ url: endpoints.certs })).json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0].d).toBeUndefined();
  });

  it('answers the realm address itself with a query string without a 500 (found by the fuzz suite)', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      for (const url of ['/realms/aandenken?client_id=', '/realms/aandenken?', '/realms/aandenken']) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      }
    }
  });

  it('answers odd addresses of its own screens with 4xx, never a 500 (found by the fuzz suite)', async () => {
    // A resource named like a property every object has.
    for (const file of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const res = await t.app.inject({ url: `/realms/aandenken/resources/${file}` });
      // The pages' not-found answer (503 'not built yet' where the web has not been built, as in unit tests).
      const notBuilt = res.statusCode === 503 && res.body.startsWith('De website is nog niet gebouwd');
      expect(notBuilt ? 404 : res.statusCode, `${file}: ${res.body}`).toBe(404);
    }
    // A link's token given twice arrives as a list, not as text.
    for (const action of ['reset-password', 'verify-email']) {
      const res = await t.app.inject({ url: `/realms/aandenken/login-actions/${action}?token=a&token=b` });
      expect(res.statusCode, `${action}: ${res.body}`).toBe(400);
      expect(res.body).toContain('Deze link werkt niet meer');
    }
  });

  it('has no development login', async () => {
    const browser = new Browser(t.app);
    const { page } = await openInteraction(browser, {
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<h1>Inloggen</h1>');
    expect(page.body).not.toMatch(/<script>|Sign-in|devInteractions/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });
});

describe('authorization code flow', () => {
  it('requires PKCE and refuses the plain method', async () => {
    const browser = new Browser(t.app);
    const without = await browser.get(authorizeUrl({}));
    expect(without.statusCode).toBe(303);
    const err = new URL(without.headers.location as string);
    expect(`${err.origin}${err.pathname}`).toBe(REDIRECT_URI);
    expect(err.searchParams.get('error')).toBe('invalid_request');
    expect(err.searchParams.get('error_description')).toMatch(/PKCE/);

    const plain = await browser.get(
      authorizeUrl({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }),
    );
    expect(new URL(plain.headers.location as string).searchParams.get('error')).toBe('invalid_request');

    const foreign = await browser.get(
      authorizeUrl({
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        redirect_uri: 'https://evil.example/cb',
      }),
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.body).toContain('Er ging iets mis');
  });

  it('registers, signs in and issues an API token the API accepts; the code works once', async () => {
    const { tokens } = await registerThroughProvider(t.app, {
      name: 'Els de Boer',
      email: 'els@example.nl',
      password,
    });
    const at = decodeJwt(tokens.access_token);
    const { rows } = await t.db.query<{ id: string }>(
      "SELECT id FROM accounts WHERE email = 'els@example.nl'",
    );
    expect(at).toMatchObject({
      iss: t.config.OIDC_AUTHORITY,
      aud: t.config.OIDC_AUDIENCE,
      sub: rows[0]!.id,
      email: 'els@example.nl',
      name: 'Els de Boer',
      client_id: 'web',
    });
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    expect(at.exp! - at.iat!).toBe(t.config.OIDC_ACCESS_TOKEN_TTL);
    expect(tokens.refresh_token).toBeTruthy();
    expect(decodeJwt(tokens.id_token)).toMatchObject({
      sub: rows[0]!.id,
      name: 'Els de Boer',
      email: 'els@example.nl',
      aud: 'web',
    });

    const me = await t.app.inject({
      url: '/whoami-test',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      kind: 'user',
      userId: rows[0]!.id,
      email: 'els@example.nl',
      name: 'Els de Boer',
    });

    // The test helper mints the same claims as the real provider.
    const minted = decodeJwt(
      (await issueUserToken(t, { email: 'els@example.nl', name: 'Els de Boer' })).token,
    );
    for (const claim of ['iss', 'aud', 'sub', 'email', 'name']) expect(minted[claim]).toEqual(at[claim]);

    // The product API takes it too: the signed-in person creates a memorial and becomes its owner.
    const concept = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/concept',
      headers: { authorization: `Bearer ${tokens.access_token}` },
      payload: { firstName: 'Johanna', lastName: 'de Boer' },
    });
    expect(concept.statusCode).toBe(201);
    const mine = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/query/partof',
      headers: { authorization: `Bearer ${tokens.access_token}` },
      payload: {},
    });
    expect(mine.json().items).toMatchObject([{ id: concept.json().id, firstName: 'Johanna', role: 'owner' }]);

    const info = await t.app.inject({
      url: endpoints.userinfo,
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(info.json()).toEqual({
      sub: rows[0]!.id,
      email: 'els@example.nl',
      email_verified: false,
      name: 'Els de Boer',
    });
  });

  it('accepts an authorization code once only', async () => {
    await registerThroughProvider(t.app, { name: 'Code', email: 'code@example.nl', password });
    const signIn = async () => {
      const browser = new Browser(t.app);
      const { verifier, challenge } = pkce();
      const { uidPath, csrf } = await openInteraction(browser, {
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const res = await browser.post(`${uidPath}/login`, { csrf, email: 'code@example.nl', password });
      return { verifier, code: (await followToCallback(browser, res)).searchParams.get('code')! };
    };

    const ok = await signIn();
    expect((await exchangeCode(t.app, ok.code, ok.verifier)).statusCode).toBe(200);
    const again = await exchangeCode(t.app, ok.code, ok.verifier);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('invalid_grant');
  });

  it('spends a code on an exchange with a wrong PKCE verifier: the right one is refused after it', async () => {
    await registerThroughProvider(t.app, { name: 'Pim', email: 'pim@example.nl', password });
    const browser = new Browser(t.app);
    const { verifier, challenge } = pkce();
    const { uidPath, csrf } = await openInteraction(browser, {
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const res = await browser.post(`${uidPath}/login`, { csrf, email: 'pim@example.nl', password });
    const code = (await followToCallback(browser, res)).searchParams.get('code')!;
    const { rows } = await t.db.query<{ grant_id: string }>(
      `SELECT grant_id FROM oidc_models WHERE model = 'AuthorizationCode' AND id = $1`,
      [code],
    );
    const grantId = rows[0]!.grant_id;
    expect(grantId).toBeTruthy();

    const wrong = await exchangeCode(t.app, code, pkce().verifier);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('invalid_grant');
    const right = await exchangeCode(t.app, code, verifier);
    expect(right.statusCode).toBe(400);
    expect(right.json().error).toBe('invalid_grant');
    // The code and its grant are gone, with everything issued under the grant.
    const { rows: left } = await t.db.query(
      `SELECT model FROM oidc_models WHERE id = $1 OR grant_id = $2 OR (model = 'Grant' AND id = $2)`,
      [code, grantId],
    );
    expect(left).toEqual([]);
  });

  it('leaves a code alone when a stranger’s guess at it matches no code', async () => {
    await registerThroughProvider(t.app, { name: 'Roos', email: 'roos@example.nl', password });
    const browser = new Browser(t.app);
    const { verifier, challenge } = pkce();
    const { uidPath, csrf } = await openInteraction(browser, {
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const res = await browser.post(`${uidPath}/login`, { csrf, email: 'roos@example.nl', password });
    const code = (await followToCallback(browser, res)).searchParams.get('code')!;
    const guess = await exchangeCode(t.app, `${code.slice(0, -2)}xx`, verifier);
    expect(guess.statusCode).toBe(400);
    expect(guess.json().error).toBe('invalid_grant');
    expect((await exchangeCode(t.app, code, verifier)).statusCode).toBe(200);
  });
});

describe('refresh tokens', () => {
  it('rotate, and a reused refresh token revokes the whole grant', async () => {
    await registerThroughProvider(t.app, { name: 'Rik', email: 'rik@example.nl', password });
    const { tokens } = await signInWithPassword(t.app, 'rik@example.nl', password);
    const first = await refresh(t.app, tokens.refresh_token);
    expect(first.statusCode, first.body).toBe(200);
    const rotated = first.json();
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(rotated.access_token)).toMatchObject({ aud: 'aandenken-api', email: 'rik@example.nl' });

    const reuse = await refresh(t.app, tokens.refresh_token);
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error).toBe('invalid_grant');
    // The legitimate, newer token died with the grant.
    const afterReuse = await refresh(t.app, rotated.refresh_token);
    expect(afterReuse.statusCode).toBe(400);
    expect(afterReuse.json().error).toBe('invalid_grant');
  });
});

describe('single use under concurrency', () => {
  // The provider checks `consumed` before it consumes; two simultaneous uses could both pass that check.
  // The adapter's consume is atomic: the loser of such a race is refused and the grant revoked.
  it('consumes a refresh token once; a second consume is refused and revokes the grant', async () => {
    const Adapter = createAdapterFactory(t.db);
    const tokens = new Adapter('RefreshToken');
    const grants = new Adapter('Grant');
    await grants.upsert('grant-1', { jti: 'grant-1', kind: 'Grant' }, 600);
    await tokens.upsert('rt-1', { jti: 'rt-1', kind: 'RefreshToken', grantId: 'grant-1' }, 600);
    await tokens.upsert('rt-other', { jti: 'rt-other', kind: 'RefreshToken', grantId: 'grant-1' }, 600);

    const results = await Promise.allSettled([tokens.consume('rt-1'), tokens.consume('rt-1')]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ error: 'invalid_grant' });
    expect(await tokens.find('rt-other')).toBeUndefined();
    expect(await grants.find('grant-1')).toBeUndefined();
  });

  it('keeps expired rows out of reach and finds sessions by uid', async () => {
    const Adapter = createAdapterFactory(t.db);
    const sessions = new Adapter('Session');
    await sessions.upsert('s-1', { jti: 's-1', kind: 'Session', uid: 'uid-1' }, 600);
    expect(await sessions.findByUid('uid-1')).toMatchObject({ jti: 's-1' });
    await t.db.query("UPDATE oidc_models SET expires_at = now() - interval '1 second' WHERE id = 's-1'");
    expect(await sessions.find('s-1')).toBeUndefined();
    expect(await sweepExpiredModels(t.db)).toBeGreaterThanOrEqual(1);
  });
});

describe('logout', () => {
  it('ends the session: refresh tokens stop working and the next sign-in asks for the password again', async () => {
    await registerThroughProvider(t.app, { name: 'Lot', email: 'lot@example.nl', password });
    const { browser, tokens } = await signInWithPassword(t.app, 'lot@example.nl', password);

    // While the session lives, a silent (prompt=none) request gets a code without a screen.
    const silent = await browser.get(
      authorizeUrl({ code_challenge: pkce().challenge, code_challenge_method: 'S256', prompt: 'none' }),
    );
    expect(new URL(silent.headers.location as string).searchParams.get('code')).toBeTruthy();

    const logout = await browser.get(
      `${endpoints.logout}?${new URLSearchParams({
        id_token_hint: tokens.id_token,
        post_logout_redirect_uri: 'http://localhost:8080/auth/logout-callback',
        state: 'abc',
      })}`,
    );
    expect(logout.statusCode).toBe(200);
    expect(logout.headers['cache-control']).toContain('no-store');
    expect(logout.body).toContain('Je wordt uitgelogd');
    expect(logout.body).toContain('data-auto-submit');
    const action = /action="([^"]+)"/.exec(logout.body)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(logout.body)![1]!;
    const confirm = await browser.post(action.replace(/&amp;/g, '&'), { xsrf, logout: 'yes' });
    expect(confirm.statusCode).toBe(303);
    expect(confirm.headers.location).toBe('http://localhost:8080/auth/logout-callback?state=abc');

    const refreshed = await refresh(t.app, tokens.refresh_token);
    expect(refreshed.statusCode).toBe(400);
    const after = await browser.get(
      authorizeUrl({ code_challenge: pkce().challenge, code_challenge_method: 'S256', prompt: 'none' }),
    );
    expect(new URL(after.headers.location as string).searchParams.get('error')).toBe('login_required');
  });
});
