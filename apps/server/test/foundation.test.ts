import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';
import { loadConfig, ConfigError, publicUrlNotice } from '../src/config.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('foundation', () => {
  it('answers /healthz when the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('serves an OpenAPI document generated from the schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/core/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/core/companies/request'].post.requestBody).toBeDefined();
    const docs = await t.app.inject({ method: 'GET', url: '/core/docs' });
    expect([200, 302]).toContain(docs.statusCode);
  });

  it('answers unknown /core paths with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/core/bestaat-niet' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain('frame-ancestors');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('refuses a body over the limit with 413 and a JSON error', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/contact',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2_000_000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers malformed JSON with a 400, never a stack trace', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/contact',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: expect.any(String), message: expect.any(String) });
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('refuses an unsupported content type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/contact',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'x',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('config', () => {
  it('stops with a readable list of every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'abc', PUBLIC_URL: 'geen-url', ADMIN_EMAILS: 'a@b.nl,kapot' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ PORT: 'abc', PUBLIC_URL: 'geen-url' });
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT/);
      expect((err as Error).message).toMatch(/PUBLIC_URL/);
    }
  });

  it('has safe defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.OIDC_AUTHORITY).toBe('http://localhost:8080/realms/aandenken');
    expect(publicUrlNotice(c)).toBeNull();
  });

  it('without PUBLIC_URL, the public address is where the server listens: only PORT changed is enough', () => {
    for (const env of [
      { PORT: '3000' },
      { PORT: '3000', PUBLIC_URL: '' },
      { PORT: '3000', HOST: '127.0.0.1' },
    ]) {
      const c = loadConfig(env);
      expect(c.PUBLIC_URL).toBe('http://localhost:3000');
      expect(c.APP_URL).toBe('http://localhost:3000');
      expect(c.API_URL).toBe('http://localhost:3000');
      expect(c.OIDC_AUTHORITY).toBe('http://localhost:3000/realms/aandenken');
      expect(c.embeddedIdentity).toBe(true);
      expect(publicUrlNotice(c)).toBeNull();
    }
    expect(loadConfig({ PORT: '3000', HOST: '192.168.1.20' }).PUBLIC_URL).toBe('http://192.168.1.20:3000');
    expect(loadConfig({ HOST: 'fd00::20' }).PUBLIC_URL).toBe('http://[fd00::20]:8080');
    // Set, it wins.
    expect(loadConfig({ PORT: '3000', PUBLIC_URL: 'https://aandenken.nl/' }).PUBLIC_URL).toBe(
      'https://aandenken.nl',
    );
  });

  it('says at start when PUBLIC_URL points elsewhere than where the server listens', () => {
    // The newcomer's mistake: a PUBLIC_URL on this machine, on another port.
    const local = publicUrlNotice(loadConfig({ PORT: '3000', PUBLIC_URL: 'http://localhost:8080' }));
    expect(local).toEqual({
      level: 'warn',
      line: "PUBLIC_URL is http://localhost:8080, maar de server luistert op poort 3000: inloggen, links in mails en foto's gaan naar een adres waar hij niet te bereiken is. Laat PUBLIC_URL weg (dan is het http://localhost:3000) of zet het op het adres waarop bezoekers de site openen.",
    });
    // On this machine, the right port, but the server does not listen on the loopback address.
    expect(
      publicUrlNotice(loadConfig({ HOST: '192.168.1.20', PUBLIC_URL: 'http://127.0.0.1:8080' }))?.level,
    ).toBe('warn');
    // Behind a proxy: said, calmly, since it is usually right.
    expect(publicUrlNotice(loadConfig({ PUBLIC_URL: 'https://aandenken.nl' }))).toEqual({
      level: 'info',
      line: "PUBLIC_URL is https://aandenken.nl; de server luistert op poort 8080. Dat klopt als een proxy aandenken.nl hierheen doorstuurt; zo niet, dan werken inloggen, links in mails en foto's niet.",
    });
    expect(
      publicUrlNotice(loadConfig({ HOST: '127.0.0.1', PUBLIC_URL: 'http://aandenken.nl:8080' }))?.line,
    ).toContain('de server luistert op 127.0.0.1, poort 8080');
    // Agreeing: nothing to say.
    expect(publicUrlNotice(loadConfig({ PORT: '3000', PUBLIC_URL: 'http://localhost:3000' }))).toBeNull();
    expect(publicUrlNotice(loadConfig({ PORT: '80', PUBLIC_URL: 'http://aandenken.test' }))).toBeNull();
    expect(publicUrlNotice(loadConfig({ PUBLIC_URL: 'http://mijn-server.lan:8080' }))).toBeNull();
  });
});

describe('rate limit', () => {
  it('limits the API but never pages and static files', async () => {
    const limited = await createTestApp({ RATE_LIMIT_MAX: '3' });
    try {
      for (let i = 0; i < 5; i++) {
        const page = await limited.app.inject({ method: 'GET', url: '/assets/x.js' });
        expect(page.statusCode).not.toBe(429);
      }
      const codes = [];
      for (let i = 0; i < 4; i++)
        codes.push((await limited.app.inject({ method: 'GET', url: '/core/openapi.json' })).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
