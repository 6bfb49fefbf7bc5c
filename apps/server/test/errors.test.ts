/**
 * Every refusal of the API is `{ code, message }` with a Dutch message: zod's validation issues (through
 * the Dutch locale set at start), and the framework's own 4xx answers (JSON, content type, size,
 * unknown route or method).
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';
import { auth, createMemorial, createUsers, type Users } from './memorial-fixtures.ts';

let t: TestContext;
let u: Users;
beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT_BYTES: '8192' });
  u = await createUsers(t);
});
afterAll(async () => t?.close());

/** Words that give an English message away (zod's and Fastify's defaults). */
const english =
  /\b(invalid|expected|received|required|must|body|cannot|not found|too (big|small)|unsupported|input|valid|url|exceeding|length)\b/i;

async function refusal(req: InjectOptions, status: number) {
  const res = await t.app.inject(req);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json() as { code: string; message: string; fields?: Record<string, string> };
  expect(body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  expect(body.message, 'message is Dutch').not.toMatch(english);
  for (const message of Object.values(body.fields ?? {}))
    expect(message, 'field message is Dutch').not.toMatch(english);
  return body;
}

const concept = (init: Omit<InjectOptions, 'method' | 'url'> = {}): InjectOptions => ({
  method: 'POST',
  url: '/core/memorial/concept',
  ...init,
  headers: { ...auth(u.owner.token), ...(init.headers ?? {}) },
});

describe('validation answers in Dutch, naming the field', () => {
  it('a missing required field, with the message the contract gives it', async () => {
    const body = await refusal(concept({ payload: { firstName: 'Piet' } }), 400);
    expect(body).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Controleer het veld achternaam: Achternaam is verplicht',
      fields: { lastName: 'Achternaam is verplicht' },
    });
  });

  it("a rule without the contract's own message gets zod's Dutch one (the locale set at start)", async () => {
    const body = await refusal(
      { method: 'POST', url: '/core/companies/request', payload: { extraInfo: 5 } },
      400,
    );
    expect(body.fields?.extraInfo).toBe('Ongeldige waarde: verwacht tekst, ontvangen een getal.');
    // Any schema of this process, whichever zod entry it comes from.
    const { z } = await import('zod');
    const mini = await import('zod/mini');
    expect(z.object({ a: z.string() }).safeParse({ a: 1 }).error?.issues[0]?.message).toBe(
      'Ongeldige waarde: verwacht tekst, ontvangen een getal.',
    );
    expect(mini.object({ a: mini.uuid() }).safeParse({}).error?.issues[0]?.message).toBe(
      'Dit veld is verplicht.',
    );
  });

  it('an unknown choice', async () => {
    const m = await createMemorial(t, u.owner);
    const body = await refusal(
      {
        method: 'PUT',
        url: '/core/memorial',
        headers: auth(u.owner.token),
        payload: { id: m.id, visibility: 'iedereen' },
      },
      400,
    );
    expect(body.message).toBe('Controleer het veld zichtbaarheid: Kies zichtbaar of besloten');
  });

  it('no body at all, and a JSON body that is no object', async () => {
    const missing = await refusal(concept(), 400);
    expect(missing.message).toBe('De inhoud ontbreekt of is geen JSON-object.');
    const array = await refusal(
      concept({ headers: { 'content-type': 'application/json' }, payload: '[1, 2]' }),
      400,
    );
    expect(array.message).toBe('De inhoud ontbreekt of is geen JSON-object.');
  });

  it('the access code: the Dutch messages of the contract, which the web form shows too', async () => {
    const { accessCodeSchema } = await import('@aandenken/contract');
    expect(accessCodeSchema.safeParse('').error?.issues[0]?.message).toBe('Vul de toegangscode in.');
    const cases: [unknown, string][] = [
      ['', 'Vul de toegangscode in.'],
      ['1234', 'De toegangscode bestaat uit 8 cijfers.'],
      ['abcdefgh', 'De toegangscode bestaat uit 8 cijfers.'],
      [12345678, 'Vul de toegangscode in als tekst van 8 cijfers.'],
    ];
    for (const [accessCode, message] of cases) {
      const body = await refusal(
        { method: 'POST', url: '/core/guest/token', payload: { accessCode }, remoteAddress: '10.9.0.1' },
        400,
      );
      expect(body).toEqual({
        code: 'VALIDATION_ERROR',
        message: `Controleer het veld toegangscode: ${message}`,
        fields: { accessCode: message },
      });
    }
    const none = await refusal(
      { method: 'POST', url: '/core/guest/token', payload: {}, remoteAddress: '10.9.0.1' },
      400,
    );
    expect(none.fields).toEqual({ accessCode: 'Vul de toegangscode in als tekst van 8 cijfers.' });
  });
});

describe("the framework's refusals in Dutch", () => {
  it('broken JSON', async () => {
    const body = await refusal(
      concept({ headers: { 'content-type': 'application/json' }, payload: '{"firstName": ' }),
      400,
    );
    expect(body).toEqual({ code: 'VALIDATION_ERROR', message: 'De inhoud is geen geldige JSON.' });
  });

  it('an empty body that says it is JSON', async () => {
    const body = await refusal(
      concept({ headers: { 'content-type': 'application/json' }, payload: '' }),
      400,
    );
    expect(body).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'De inhoud ontbreekt; stuur een JSON-object.',
    });
  });

  it('a content type the route does not read (415)', async () => {
    const body = await refusal(
      concept({ headers: { 'content-type': 'text/xml' }, payload: '<memorial/>' }),
      415,
    );
    expect(body).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Dit type inhoud wordt niet ondersteund.',
    });
  });

  it('a body over the limit (413)', async () => {
    const body = await refusal(
      concept({ payload: { firstName: 'Piet', lastName: 'x'.repeat(10_000) } }),
      413,
    );
    expect(body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'Het verzoek is te groot.' });
  });

  it('an unknown API route (404)', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const body = await refusal({ method, url: '/core/bestaat-niet' }, 404);
      expect(body).toEqual({ code: 'NOT_FOUND', message: 'Deze API-route bestaat niet.' });
    }
  });

  it('a known API route with another method (405, with Allow)', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/core/guest/token' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json()).toEqual({
      code: 'METHOD_NOT_ALLOWED',
      message: 'Deze API-route werkt niet met DELETE.',
    });
    const withParam = await refusal(
      { method: 'PATCH', url: '/core/memorial/0b6f6f7e-8a44-4c7e-9a43-2f3c1d3e4f50' },
      405,
    );
    expect(withParam.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('an address the router cannot read: undecodable (400) or a segment over its limit (414)', async () => {
    const bad = await refusal({ method: 'GET', url: '/core/memorial/%E0%A4%A' }, 400);
    expect(bad).toEqual({ code: 'VALIDATION_ERROR', message: 'Dit adres is ongeldig.' });
    const long = await refusal({ method: 'GET', url: `/core/memorial/${'a'.repeat(101)}` }, 414);
    expect(long).toEqual({ code: 'VALIDATION_ERROR', message: 'Dit adres is te lang.' });
  });
});
