import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';
import { loadConfig, ConfigError } from '../src/config.ts';

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
