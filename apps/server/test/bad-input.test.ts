/**
 * Bad input gets a 4xx with `{ code, message }` in Dutch and changes nothing, never a 5xx: NUL
 * characters (PostgreSQL text cannot hold them) and broken multipart bodies, whoever sends them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast, form, jpeg } from './fixtures/content.ts';

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;

beforeAll(async () => {
  t = await createTestApp();
  c = await cast(t, 'bad-input');
});
afterAll(async () => t?.close());

const count = async (table: string) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;

async function refused(req: InjectOptions, status = 400) {
  const res = await t.app.inject(req);
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { code: string; message: string };
  expect(body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  return body;
}

describe('a NUL character in the input', () => {
  it('is refused with 400 and a Dutch message in the contact form, the search, a quote, the biography and an invite name', async () => {
    const before = {
      contact: await count('contact_messages'),
      invites: await count('guest_invites'),
      memorial: (await t.db.query('SELECT quote, biography_html FROM memorials WHERE id = $1', [c.privateId]))
        .rows[0],
    };
    const nul = 'Jan\u0000Jansen';
    const calls: InjectOptions[] = [
      {
        method: 'POST',
        url: '/core/contact',
        payload: {
          name: nul,
          email: 'jan@example.nl',
          subject: 'general',
          message: 'Hallo daar, een vraag.',
        },
      },
      { method: 'POST', url: '/core/memorial/query', payload: { search: nul } },
      {
        method: 'PUT',
        url: '/core/memorial',
        headers: c.owner.headers,
        payload: { id: c.privateId, quote: nul },
      },
      {
        method: 'PUT',
        url: '/core/memorial/biography',
        headers: c.owner.headers,
        payload: { memorialId: c.privateId, html: `<p>${nul}</p>` },
      },
      {
        method: 'POST',
        url: `/core/guest-invite/${c.privateId}`,
        headers: c.owner.headers,
        payload: { email: 'nieuw@example.nl', role: 'guest', name: nul },
      },
      // In a key, a query string and an address too.
      { method: 'POST', url: '/core/memorial/query', payload: { ['zoek\u0000']: 'x' } },
      { method: 'POST', url: '/core/memorial/query?search=a%00b', payload: {} },
      { method: 'GET', url: '/core/guest-invite/invite-code/abc%00def' },
    ];
    for (const req of calls) {
      const body = await refused(req);
      expect(body.code, String(req.url)).toBe('VALIDATION_ERROR');
      expect(body.message, String(req.url)).toMatch(/ongeldig teken/);
    }
    expect(await count('contact_messages')).toBe(before.contact);
    expect(await count('guest_invites')).toBe(before.invites);
    expect(
      (await t.db.query('SELECT quote, biography_html FROM memorials WHERE id = $1', [c.privateId])).rows[0],
    ).toEqual(before.memorial);
  });

  it('is refused in a multipart field of an upload', async () => {
    const body = await form(
      { memorialId: c.privateId, caption: 'Aan\u0000zee' },
      { data: await jpeg(), type: 'image/jpeg', name: 'foto.jpg' },
    );
    const res = await refused({
      method: 'POST',
      url: '/core/memorial-media',
      payload: body.payload,
      headers: { ...c.owner.headers, ...body.headers },
    });
    expect(res.message).toMatch(/ongeldig teken/);
  });
});

describe('a broken multipart body', () => {
  const uploads = ['/core/memorial-media', '/core/memory/medias'];

  it('without a boundary gets 400, signed in or not (anonymous: 401)', async () => {
    for (const url of uploads) {
      const req = { method: 'POST' as const, url, headers: { 'content-type': 'multipart/form-data' } };
      const res = await refused({
        ...req,
        payload: 'geen grens',
        headers: { ...req.headers, ...c.owner.headers },
      });
      expect(res.message).toMatch(/upload|formulier/i);
      await refused({ ...req, payload: 'geen grens' }, 401);
    }
  });

  it('cut off halfway gets 400 and leaves no file behind', async () => {
    for (const url of uploads) {
      const body = await form(
        { memorialId: c.privateId, memoryId: c.privateId },
        { data: await jpeg(), type: 'image/jpeg', name: 'foto.jpg' },
        url === '/core/memory/medias', // the file first: cut off before the id comes
      );
      const cut = body.payload.subarray(0, body.payload.length - 100);
      const res = await refused({
        method: 'POST',
        url,
        payload: cut,
        headers: { ...c.owner.headers, ...body.headers },
      });
      expect(res.message).toMatch(/upload|formulier/i);
      // Headers only, the parts cut off before the first one ends.
      const headOnly = body.payload.subarray(0, 60);
      await refused({
        method: 'POST',
        url,
        payload: headOnly,
        headers: { ...c.owner.headers, ...body.headers },
      });
    }
    const tmp = await fs.readdir(path.join(t.dataDir, 'tmp')).catch(() => [] as string[]);
    expect(tmp.filter((n) => n.startsWith('upload-'))).toEqual([]);
  });
});

describe('a multipart part without a name', () => {
  it('gets 400 in Dutch, whether it is a field or a file, before or after the id (found by the fuzz suite)', async () => {
    const boundary = 'zondernaam';
    const part = (disposition: string, data: string, type?: string) =>
      `--${boundary}\r\nContent-Disposition: ${disposition}${type ? `\r\nContent-Type: ${type}` : ''}\r\n\r\n${data}\r\n`;
    for (const [url, idField] of [
      ['/core/memorial-media', 'memorialId'],
      ['/core/memory/medias', 'memoryId'],
    ] as const) {
      const id = part(`form-data; name="${idField}"`, c.privateId);
      for (const nameless of [
        part('form-data', 'x'),
        part('form-data; filename="foto.jpg"', 'x', 'image/jpeg'),
        part('attachment', 'x'),
      ]) {
        for (const parts of [nameless, id + nameless, nameless + id]) {
          const res = await refused({
            method: 'POST',
            url,
            payload: `${parts}--${boundary}--\r\n`,
            headers: { ...c.owner.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
          });
          // A part that is no form-data at all is skipped by the parser: then the file is missing.
          expect(res.message).toMatch(nameless.includes('attachment') ? /Kies een foto/ : /veldnaam/);
        }
      }
    }
  });
});
