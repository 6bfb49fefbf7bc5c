import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

const base = '/realms/aandenken';
export const endpoints = {
  auth: `${base}/protocol/openid-connect/auth`,
  registrations: `${base}/protocol/openid-connect/registrations`,
  token: `${base}/protocol/openid-connect/token`,
  userinfo: `${base}/protocol/openid-connect/userinfo`,
  revoke: `${base}/protocol/openid-connect/revoke`,
  logout: `${base}/protocol/openid-connect/logout`,
  certs: `${base}/protocol/openid-connect/certs`,
  discovery: `${base}/.well-known/openid-configuration`,
};
export const REDIRECT_URI = 'http://localhost:8080/auth/callback';

interface Cookie {
  name: string;
  value: string;
  path: string;
}

/** A browser's cookie jar, enough for the provider: names, values and paths. */
export class CookieJar {
  private cookies: Cookie[] = [];

  store(res: LightMyRequestResponse) {
    const header = res.headers['set-cookie'];
    const lines = Array.isArray(header) ? header : header ? [header] : [];
    for (const line of lines) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const path = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attrs.some((a) => /^expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path));
      if (!expired) this.cookies.push({ name, value, path });
    }
  }

  /** A cookie the site itself set (the theme, say). */
  set(name: string, value: string, path = '/') {
    this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path));
    this.cookies.push({ name, value, path });
  }

  header(url: string): string {
    const pathname = url.split('?')[0]!;
    return this.cookies
      .filter(
        (c) =>
          pathname === c.path ||
          pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) ||
          c.path === '/',
      )
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }
}

/** Acts as a browser against the in-process app: follows nothing by itself, keeps cookies. */
export class Browser {
  readonly jar = new CookieJar();
  private readonly app: FastifyInstance;
  /** remoteAddress: the client address the server sees (each Browser one person on one network). */
  private readonly remoteAddress?: string;
  constructor(app: FastifyInstance, remoteAddress?: string) {
    this.app = app;
    if (remoteAddress !== undefined) this.remoteAddress = remoteAddress;
  }

  async request(method: 'GET' | 'POST', url: string, form?: Record<string, string>) {
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    const res = await this.app.inject({
      method,
      url: path,
      headers: {
        cookie: this.jar.header(path),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      payload: form ? new URLSearchParams(form).toString() : undefined,
      ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}),
    });
    this.jar.store(res);
    return res;
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, form: Record<string, string>) => this.request('POST', url, form);
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export function authorizeUrl(params: Record<string, string>, endpoint = endpoints.auth) {
  return `${endpoint}?${new URLSearchParams({
    client_id: 'web',
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid profile email',
    state: randomBytes(8).toString('hex'),
    ...params,
  })}`;
}

export const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** Starts an authorization request and returns the interaction page. */
export async function openInteraction(
  browser: Browser,
  params: Record<string, string>,
  endpoint = endpoints.auth,
) {
  let res = await browser.get(authorizeUrl(params, endpoint));
  if (endpoint === endpoints.registrations) {
    expect(res.statusCode).toBe(303);
    res = await browser.get(res.headers.location as string);
  }
  expect(res.statusCode).toBe(303);
  const interactionUrl = res.headers.location as string;
  expect(interactionUrl).toMatch(/\/realms\/aandenken\/interaction\/[\w-]+$/);
  const uidPath = interactionUrl.replace(/^https?:\/\/[^/]+/, '');
  const page = await browser.get(uidPath);
  return { uidPath, page, csrf: csrfOf(page.body) };
}

/** Follows the provider's redirects after a finished interaction to the client's redirect URI. */
export async function followToCallback(browser: Browser, res: LightMyRequestResponse) {
  let current = res;
  for (let i = 0; i < 5 && current.statusCode >= 300 && current.statusCode < 400; i++) {
    const location = current.headers.location as string;
    if (location.startsWith(REDIRECT_URI)) return new URL(location);
    current = await browser.get(location);
  }
  throw new Error(`no redirect to the client: ${current.statusCode} ${current.body.slice(0, 300)}`);
}

export async function exchangeCode(app: FastifyInstance, code: string, verifier: string) {
  return app.inject({
    method: 'POST',
    url: endpoints.token,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: 'web',
      code_verifier: verifier,
    }).toString(),
  });
}

export async function refresh(app: FastifyInstance, refreshToken: string) {
  return app.inject({
    method: 'POST',
    url: endpoints.token,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: 'web',
    }).toString(),
  });
}

export interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
  token_type: string;
}

/** The whole authorization code flow with PKCE through the login screen; returns the browser and tokens. */
export async function signInWithPassword(
  app: FastifyInstance,
  email: string,
  password: string,
  browser = new Browser(app),
) {
  const { verifier, challenge } = pkce();
  const { uidPath, csrf } = await openInteraction(browser, {
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const res = await browser.post(`${uidPath}/login`, { csrf, email, password });
  expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
  const callback = await followToCallback(browser, res);
  const tokenRes = await exchangeCode(app, callback.searchParams.get('code')!, verifier);
  expect(tokenRes.statusCode, tokenRes.body).toBe(200);
  return { browser, tokens: tokenRes.json() as Tokens };
}

/** Registers through the registrations endpoint and returns the browser and tokens. */
export async function registerThroughProvider(
  app: FastifyInstance,
  user: { name: string; email: string; password: string },
  browser = new Browser(app),
  /** The site path to return to (the web client's `aandenken_return`). */
  returnPath?: string,
) {
  const { verifier, challenge } = pkce();
  const { uidPath, csrf, page } = await openInteraction(
    browser,
    {
      code_challenge: challenge,
      code_challenge_method: 'S256',
      login_hint: user.email,
      ...(returnPath !== undefined ? { aandenken_return: returnPath } : {}),
    },
    endpoints.registrations,
  );
  expect(page.body).toContain('Account aanmaken');
  const res = await browser.post(`${uidPath}/register`, {
    csrf,
    name: user.name,
    email: user.email,
    password: user.password,
    passwordRepeat: user.password,
  });
  expect(res.statusCode, res.body.slice(0, 800)).toBe(303);
  const callback = await followToCallback(browser, res);
  const tokenRes = await exchangeCode(app, callback.searchParams.get('code')!, verifier);
  expect(tokenRes.statusCode, tokenRes.body).toBe(200);
  return { browser, tokens: tokenRes.json() as Tokens };
}

/**
 * Follows a mailed verification link as the mailbox's holder in a browser not signed in to the account:
 * the link opens a form that asks for the account's password; its 'Kies een nieuw wachtwoord' form is sent
 * with `password` (which ends every sign-in from before).
 */
export async function verifyWithPassword(
  app: FastifyInstance,
  link: string,
  password: string,
  browser = new Browser(app),
) {
  const page = await browser.get(link);
  expect(page.statusCode, page.body.slice(0, 500)).toBe(200);
  expect(page.body).toContain('<h1>Bevestig je e-mailadres</h1>');
  return browser.post(`${base}/login-actions/verify-email`, {
    token: new URL(link, 'http://localhost').searchParams.get('token')!,
    csrf: csrfOf(page.body),
    stap: 'nieuw',
    password,
    passwordRepeat: password,
  });
}
