/**
 * The HTTP layer on a real socket: slow clients are cut off (headers and body each have a deadline,
 * short here), and every answer carries a Permissions-Policy, the identity provider's pages included.
 * The request log never holds a secret from a URL.
 */
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { form, jpeg, memorial, person } from './fixtures/content.ts';
import type { LightMyRequestResponse } from 'fastify';
import {
  Browser,
  REDIRECT_URI,
  csrfOf,
  endpoints,
  exchangeCode,
  followToCallback,
  openInteraction,
  pkce,
  registerThroughProvider,
} from './identity-flow.ts';

let t: TestContext;
let port: number;

beforeAll(async () => {
  t = await createTestApp({
    REQUEST_TIMEOUT_MS: '1500',
    HEADERS_TIMEOUT_MS: '600',
    KEEP_ALIVE_TIMEOUT_MS: '1000',
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => t?.close());

/** Sends `head` at once, then `drip` one byte every `everyMs`; resolves what came back and when it closed. */
function slowClient(head: string, drip: string, everyMs: number) {
  const started = Date.now();
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  let raw = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (raw += d));
  socket.write(head);
  let i = 0;
  const timer = setInterval(() => {
    if (i < drip.length && socket.writable) socket.write(drip[i++]!);
  }, everyMs);
  return new Promise<{ raw: string; afterMs: number }>((resolve) => {
    const done = () => {
      clearInterval(timer);
      resolve({ raw, afterMs: Date.now() - started });
    };
    socket.once('close', done);
    setTimeout(() => {
      socket.destroy();
    }, 10_000);
  });
}

describe('slow clients', () => {
  it('cuts off a body sent one byte at a time with 408 once the request timeout has passed', async () => {
    const body = JSON.stringify({
      name: 'Jan',
      email: 'jan@example.nl',
      subject: 'general',
      message: 'x'.repeat(200),
    });
    const head =
      'POST /core/contact HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const res = await slowClient(head, body, 100);
    expect(res.afterMs).toBeLessThan(5000);
    expect(res.raw).toMatch(/^HTTP\/1\.1 408 /);
    const json = JSON.parse(res.raw.slice(res.raw.indexOf('{')));
    expect(json).toEqual({ code: 'REQUEST_TIMEOUT', message: expect.stringContaining('te langzaam') });
  });

  it('cuts off headers sent one byte at a time once the headers timeout has passed', async () => {
    const res = await slowClient(
      'GET /healthz HTTP/1.1\r\n',
      'host: 127.0.0.1\r\nx-langzaam: ' + 'a'.repeat(200),
      100,
    );
    expect(res.afterMs).toBeLessThan(4000);
    expect(res.raw).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('still serves a client that sends at a normal pace, and keeps its connection open', async () => {
    const body = '{}';
    const res = await slowClient(
      'GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n' +
        'POST /core/memorial/query HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
        `content-length: ${body.length}\r\n\r\n${body}`,
      '',
      100,
    );
    // Both answered on the one connection, which only the keep-alive timeout closes.
    expect(res.raw.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    expect(res.raw.toLowerCase()).not.toContain('connection: close');
    expect(res.afterMs).toBeGreaterThanOrEqual(900);
  });
});

describe('slow bodies', () => {
  // The whole request may take a minute here (large uploads); a small body and an upload's rate less.
  let slow: TestContext;
  let slowPort: number;
  beforeAll(async () => {
    slow = await createTestApp({
      REQUEST_TIMEOUT_MS: '60000',
      BODY_TIMEOUT_MS: '700',
      UPLOAD_MIN_BYTES_PER_SECOND: '4000',
      UPLOAD_RATE_WINDOW_MS: '300',
    });
    await slow.app.listen({ host: '127.0.0.1', port: 0 });
    slowPort = (slow.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => slow?.close());

  /** Sends `head`, then one chunk every `everyMs`; resolves what came back once the server closed or answered. */
  function send(head: string, chunks: Buffer[], everyMs: number) {
    const socket = net.connect(slowPort, '127.0.0.1');
    socket.on('error', () => {});
    let raw = '';
    let closed = false;
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (raw += d));
    socket.write(head);
    let i = 0;
    const timer = setInterval(() => {
      if (i < chunks.length && socket.writable) socket.write(chunks[i++]!);
    }, everyMs);
    return new Promise<{ raw: string; closed: boolean }>((resolve) => {
      const done = () => {
        clearInterval(timer);
        resolve({ raw, closed });
        socket.destroy();
      };
      socket.once('close', () => {
        closed = true;
        done();
      });
      // Without a deadline the server would wait for the whole body: give up long before that.
      setTimeout(done, 15_000);
      // An answer that keeps the connection open (keep-alive): done at the answer's end.
      socket.on('data', () => {
        if (!/connection: close/i.test(raw) && /\r\n\r\n[\s\S]*\}$/.test(raw)) done();
      });
    });
  }
  const bytes = (text: string) => [...Buffer.from(text)].map((b) => Buffer.from([b]));
  const answer = (raw: string) =>
    JSON.parse(raw.slice(raw.indexOf('{'))) as { code: string; message: string };

  it('ends a small body that trickles in with 408 after BODY_TIMEOUT_MS, long before the request timeout', async () => {
    const body = JSON.stringify({
      name: 'Jan',
      email: 'jan@example.nl',
      subject: 'general',
      message: 'x'.repeat(1000),
    });
    const head =
      'POST /core/contact HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    // One byte every 100 ms: the body would take 100 s; the request timeout is 60 s, the body's 0.7 s.
    const res = await send(head, bytes(body), 100);
    expect(res.raw).toMatch(/^HTTP\/1\.1 408 /);
    expect(res.raw.toLowerCase()).toContain('connection: close');
    expect(answer(res.raw)).toEqual({
      code: 'REQUEST_TIMEOUT',
      message: expect.stringContaining('te langzaam'),
    });
    expect(res.closed).toBe(true);
  });

  async function uploadRequest() {
    const owner = await person(slow, `traag-${crypto.randomUUID().slice(0, 8)}@example.nl`, 'Traag');
    const memorialId = await memorial(slow, owner);
    const body = await form(
      { memorialId },
      { data: await jpeg(1600, 1200), type: 'image/jpeg', name: 'foto.jpg' },
    );
    const head =
      `POST /core/memorial-media HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: ${owner.headers.authorization}\r\n` +
      `content-type: ${body.headers['content-type']}\r\ncontent-length: ${body.payload.length}\r\n\r\n`;
    return { head, payload: body.payload, memorialId };
  }

  it('cuts off an upload that brings less than UPLOAD_MIN_BYTES_PER_SECOND, with 408', async () => {
    const { head, payload, memorialId } = await uploadRequest();
    // 20 bytes a second against a minimum of 4000: the first window after the grace one ends it.
    const res = await send(head, bytes(payload.toString('latin1')).slice(0, 2000), 50);
    expect(res.raw).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer(res.raw)).toEqual({
      code: 'REQUEST_TIMEOUT',
      message: expect.stringContaining('te langzaam'),
    });
    expect(res.closed).toBe(true);
    const { rows } = await slow.db.query('SELECT 1 FROM media WHERE memorial_id = $1', [memorialId]);
    expect(rows).toHaveLength(0);
  });

  it('lets an upload at a good rate through, however many windows it spans', async () => {
    const { head, payload, memorialId } = await uploadRequest();
    // 1 KB every 50 ms (20 KB a second): several windows of 0.3 s, each well above the minimum.
    const chunks: Buffer[] = [];
    for (let at = 0; at < payload.length; at += 1024) chunks.push(payload.subarray(at, at + 1024));
    expect(chunks.length).toBeGreaterThan(8);
    const res = await send(head, chunks, 50);
    expect(res.raw, res.raw).toMatch(/^HTTP\/1\.1 201 /);
    const { rows } = await slow.db.query('SELECT 1 FROM media WHERE memorial_id = $1', [memorialId]);
    expect(rows).toHaveLength(1);
  });
});

describe('Permissions-Policy', () => {
  it('is on every answer: API, errors, pages, documents and the identity provider', async () => {
    // On a real socket: the identity provider writes some answers past the framework.
    const urls = [
      '/healthz',
      '/core/openapi.json',
      '/core/bestaat-niet',
      '/',
      endpoints.discovery,
      endpoints.certs,
    ];
    for (const url of urls) {
      const res = await fetch(`http://127.0.0.1:${port}${url}`);
      const policy = String(res.headers.get('permissions-policy'));
      expect(policy, url).toContain('camera=()');
      expect(policy, url).toContain('microphone=()');
      expect(policy, url).toContain('geolocation=()');
      expect(policy, url).toContain('payment=()');
    }
    const { page } = await openInteraction(new Browser(t.app), {
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    expect(page.statusCode).toBe(200);
    expect(String(page.headers['permissions-policy'])).toContain('camera=()');
  });
});

type Headers = Record<string, string | string[] | number | undefined>;

/** The security headers every answer carries (lib/response-cache-plugin.ts); HSTS only on https. */
function expectSecurityHeaders(label: string, headers: Headers, https = false) {
  const csp = String(headers['content-security-policy']);
  expect(csp, label).toContain("default-src 'self'");
  expect(csp, label).toContain("script-src 'self'");
  expect(csp, label).toContain("object-src 'none'");
  expect(csp, label).toMatch(/frame-ancestors 'self'/);
  expect(csp, label).toMatch(/form-action 'self'/);
  expect(headers['x-content-type-options'], label).toBe('nosniff');
  expect(headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options'], label).toBe('SAMEORIGIN');
  expect(String(headers['permissions-policy']), label).toContain('camera=()');
  if (https) expect(String(headers['strict-transport-security']), label).toContain('max-age=');
  else expect(headers['strict-transport-security'], label).toBeUndefined();
}
const noStore = (res: LightMyRequestResponse) => String(res.headers['cache-control']);

describe('security headers on the identity provider’s own answers', () => {
  it('are on discovery, keys, token, userinfo, authorization, interaction, logout and error answers', async () => {
    const app = t.app;
    const password = 'lang-genoeg-wachtwoord';
    await registerThroughProvider(app, { name: 'Kop', email: 'kop@example.nl', password });

    // On a real socket too: what the server factory sets.
    for (const url of [endpoints.discovery, endpoints.certs]) {
      const res = await fetch(`http://127.0.0.1:${port}${url}`);
      expect(res.status, url).toBe(200);
      expectSecurityHeaders(url, Object.fromEntries(res.headers));
    }
    const discovery = await app.inject({ url: endpoints.discovery });
    expect(discovery.statusCode).toBe(200);
    expectSecurityHeaders('discovery', discovery.headers);
    const certs = await app.inject({ url: endpoints.certs });
    expectSecurityHeaders('jwks', certs.headers);

    // The authorization endpoint's redirect, the login screen, and the redirect after signing in.
    const browser = new Browser(app);
    const { verifier, challenge } = pkce();
    const authorize = await browser.get(
      `${endpoints.auth}?${new URLSearchParams({
        client_id: 'web',
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'openid profile email',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      })}`,
    );
    expect(authorize.statusCode).toBe(303);
    expectSecurityHeaders('authorization', authorize.headers);
    const uidPath = (authorize.headers.location as string).replace(/^https?:\/\/[^/]+/, '');
    const login = await browser.get(uidPath);
    expectSecurityHeaders('login screen', login.headers);
    const signedIn = await browser.post(`${uidPath}/login`, {
      csrf: csrfOf(login.body),
      email: 'kop@example.nl',
      password,
    });
    expect(signedIn.statusCode).toBe(303);
    expectSecurityHeaders('interaction finished', signedIn.headers);
    const resume = await browser.get(signedIn.headers.location as string);
    expectSecurityHeaders('authorization resumed', resume.headers);
    const code = (await followToCallback(browser, resume)).searchParams.get('code')!;

    // Token answers, refused and issued: never stored.
    const refused = await exchangeCode(app, 'geen-code', verifier);
    expect(refused.statusCode).toBe(400);
    expectSecurityHeaders('token refused', refused.headers);
    expect(noStore(refused)).toContain('no-store');
    const issued = await exchangeCode(app, code, verifier);
    expect(issued.statusCode).toBe(200);
    expectSecurityHeaders('token issued', issued.headers);
    expect(noStore(issued)).toContain('no-store');
    const tokens = issued.json() as { access_token: string; id_token: string };

    // Userinfo: for the API's JWT (our route) and for anything else (the provider's).
    for (const [label, bearer, status] of [
      ['userinfo', tokens.access_token, 200],
      ['userinfo refused', 'geen-token', 401],
    ] as const) {
      const res = await app.inject({
        url: endpoints.userinfo,
        headers: { authorization: `Bearer ${bearer}` },
      });
      expect(res.statusCode, label).toBe(status);
      expectSecurityHeaders(label, res.headers);
      expect(noStore(res), label).toContain('no-store');
    }

    // The logout confirmation, and the page after it.
    const logout = await browser.get(endpoints.logout);
    expect(logout.statusCode).toBe(200);
    expect(logout.body).toContain('Wil je uitloggen?');
    expectSecurityHeaders('logout confirmation', logout.headers);
    const action = /action="([^"]+)"/.exec(logout.body)![1]!.replace(/&amp;/g, '&');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(logout.body)![1]!;
    const confirmed = await browser.post(action, { xsrf, logout: 'yes' });
    expect(confirmed.statusCode).toBe(303);
    expectSecurityHeaders('logout confirmed', confirmed.headers);
    const loggedOut = await browser.get(confirmed.headers.location as string);
    expect(loggedOut.body).toContain('Je bent uitgelogd');
    expectSecurityHeaders('logged out', loggedOut.headers);

    // The provider's error page.
    const error = await browser.get(
      `${endpoints.auth}?${new URLSearchParams({ client_id: 'web', redirect_uri: 'https://evil.example/cb', response_type: 'code', scope: 'openid' })}`,
    );
    expect(error.statusCode).toBe(400);
    expect(error.body).toContain('Er ging iets mis');
    expectSecurityHeaders('error page', error.headers);
  });

  it('include Strict-Transport-Security on the provider’s answers when the site is on https', async () => {
    const secure = await createTestApp({ PUBLIC_URL: 'https://aandenken.test' });
    try {
      for (const url of [endpoints.discovery, endpoints.certs, endpoints.logout]) {
        const res = await secure.app.inject({ url });
        expect(res.statusCode, url).toBe(200);
        expectSecurityHeaders(url, res.headers, true);
      }
      const token = await exchangeCode(secure.app, 'geen-code', pkce().verifier);
      expect(token.statusCode).toBe(400);
      expectSecurityHeaders('token', token.headers, true);
    } finally {
      await secure.close();
    }
  });

  it('let the client’s origins frame the provider (silent renewal) and receive its forms, no others', async () => {
    const split = await createTestApp({ APP_URL: 'http://app.localhost:5173' });
    try {
      const res = await split.app.inject({ url: endpoints.logout });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(/frame-ancestors 'self'[^;]* http:\/\/app\.localhost:5173/);
      expect(csp).toMatch(/form-action 'self'[^;]* http:\/\/app\.localhost:5173/);
      expect(csp).not.toContain('evil');
      // The site's own pages stay framed by this origin alone.
      const site = await split.app.inject({ url: '/healthz' });
      expect(String(site.headers['content-security-policy'])).toMatch(/frame-ancestors 'self'(;|$)/);
    } finally {
      await split.close();
    }
  });
});

describe('request log', () => {
  it('masks reset and verification tokens, id_token_hint, codes, states and invite codes', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    // The app's own logger configuration, writing to a stream this test reads.
    const logged = await buildApp({
      config: { ...t.config, LOG_LEVEL: 'info' },
      db: t.db,
      logStream: stream,
    });
    await logged.ready();
    const linkIn = (text: string) => /(http:\/\/\S+)/.exec(text)![1]!.replace(t.config.PUBLIC_URL, '');
    try {
      const email = 'logboek@example.nl';
      const { tokens } = await registerThroughProvider(logged, {
        name: 'Lot',
        email,
        password: 'lang-genoeg-wachtwoord',
      });
      const verifyMail = await t.smtp.waitFor(
        (m) => m.to.includes(email) && m.subject.startsWith('Bevestig'),
      );
      const verifyLink = linkIn(verifyMail.text);
      await logged.inject({ url: verifyLink });

      const browser = new Browser(logged);
      const { uidPath, csrf } = await openInteraction(browser, {
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      });
      await browser.post(`${uidPath}/forgot`, { csrf, email });
      const resetMail = await t.smtp.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Nieuw'));
      const resetLink = linkIn(resetMail.text);
      expect(csrfOf((await browser.get(resetLink)).body)).not.toBe('');

      const logout = `${endpoints.logout}?${new URLSearchParams({
        id_token_hint: tokens.id_token,
        post_logout_redirect_uri: 'http://localhost:8080/auth/logout-callback',
      })}`;
      await logged.inject({ url: logout });
      await logged.inject({ url: '/auth/callback?code=geheime-code-123&state=geheime-staat-456' });
      await logged.inject({ url: '/uitnodiging/GeheimeUitnodiging1' });
      await logged.inject({ url: '/core/guest-invite/invite-code/GeheimeUitnodiging2' });

      const all = lines.join('');
      const secrets = [
        new URL(verifyLink, 'http://x').searchParams.get('token')!,
        new URL(resetLink, 'http://x').searchParams.get('token')!,
        tokens.id_token,
        tokens.id_token.split('.')[2]!,
        'geheime-code-123',
        'geheime-staat-456',
        'GeheimeUitnodiging1',
        'GeheimeUitnodiging2',
      ];
      for (const secret of secrets) {
        expect(secret.length).toBeGreaterThan(10);
        expect(all).not.toContain(secret);
      }
      // The requests themselves are still in the log, with a marker where the secret was.
      expect(all).toContain('/login-actions/verify-email?token=[verborgen]');
      expect(all).toContain('/login-actions/reset-password?token=[verborgen]');
      expect(all).toContain(
        '/protocol/openid-connect/logout?id_token_hint=[verborgen]&post_logout_redirect_uri=',
      );
      expect(all).toContain('/auth/callback?code=[verborgen]&state=[verborgen]');
      expect(all).toContain('/uitnodiging/[verborgen]');
      expect(all).toContain('/guest-invite/invite-code/[verborgen]');
    } finally {
      await logged.close();
    }
  });
});
