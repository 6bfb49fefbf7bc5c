import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';
import { createMemorial, createUsers } from './memorial-fixtures.ts';

/** The built site as the prerendering build leaves it (apps/web/scripts/prerender.mjs). */
let t: TestContext;
let dist: string;
const page = (body: string) =>
  `<!doctype html><html lang="nl" class="dark"><head><meta name="theme-color" content="#0f1417" /><title>${body}</title></head><body><div id="root">${body}</div></body></html>`;

beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-dist-'));
  await fs.mkdir(path.join(dist, 'prijzen'));
  await fs.mkdir(path.join(dist, 'privacy'));
  await fs.mkdir(path.join(dist, 'voorwaarden'));
  await fs.mkdir(path.join(dist, 'assets'));
  await fs.writeFile(
    path.join(dist, 'index.html'),
    page(`<h1>Landing</h1>${'<p>Een plek waar herinneringen voortleven.</p>'.repeat(50)}`),
  );
  await fs.writeFile(path.join(dist, 'prijzen', 'index.html'), page('<h1>Prijzen</h1>'));
  await fs.writeFile(path.join(dist, 'privacy', 'index.html'), page('<h1>Privacyverklaring</h1>'));
  await fs.writeFile(path.join(dist, 'voorwaarden', 'index.html'), page('<h1>Algemene voorwaarden</h1>'));
  await fs.writeFile(path.join(dist, '404.html'), page('<h1>Pagina niet gevonden</h1>'));
  await fs.writeFile(path.join(dist, 'app.html'), page(''));
  await fs.writeFile(path.join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
  t = await createTestApp({ WEB_DIST_DIR: dist });
});
afterAll(async () => {
  await t?.close();
  await fs.rm(dist, { recursive: true, force: true });
});

describe('prerendered pages', () => {
  it('serves each prerendered page at its route, the bare shell for browser-rendered routes, 404.html otherwise', async () => {
    const landing = await t.app.inject({ url: '/' });
    expect(landing.statusCode).toBe(200);
    expect(landing.body).toContain('<h1>Landing</h1>');
    expect((await t.app.inject({ url: '/prijzen' })).body).toContain('<h1>Prijzen</h1>');
    expect((await t.app.inject({ url: '/prijzen/' })).body).toContain('<h1>Prijzen</h1>');
    // The privacy statement and the general terms: public pages of the route table.
    for (const [url, heading] of [
      ['/privacy', 'Privacyverklaring'],
      ['/voorwaarden', 'Algemene voorwaarden'],
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(`<h1>${heading}</h1>`);
    }
    // Without the server bundle a memorial the API does not show is still a 404 with the shell.
    const memorial = await t.app.inject({ url: '/memorial/6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01' });
    expect(memorial.statusCode).toBe(404);
    expect(memorial.body).toContain('<div id="root"></div>');
    expect(memorial.body).not.toContain('Pagina niet gevonden');
    expect(
      (await t.app.inject({ url: '/memorial/6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01/beheer' })).statusCode,
    ).toBe(200);
    const missing = await t.app.inject({ url: '/bestaat-niet' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Pagina niet gevonden');
    expect((await t.app.inject({ url: '/app.html' })).statusCode).toBe(404);
  });

  it('answers a memorial the API does not show with 404 and the shell: a private one exactly like a missing one', async () => {
    const users = await createUsers(t);
    const publicPage = await createMemorial(t, users.owner, { visibility: 'public' });
    const privatePage = await createMemorial(t, users.owner, { visibility: 'private' });
    const answer = async (id: string) => {
      const res = await t.app.inject({ url: `/memorial/${id}`, headers: { 'accept-encoding': 'gzip' } });
      const { date: _date, ...headers } = res.headers;
      return { status: res.statusCode, headers, body: res.rawPayload.toString('base64') };
    };
    const missing = await answer('00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(await answer(privatePage.id)).toEqual(missing);
    expect((await answer(publicPage.id)).status).toBe(200);
  });

  it('answers a form sent before the script ran with the page again, keeping what was typed out of the address', async () => {
    const post = (url: string, body: string) =>
      t.app.inject({
        method: 'POST',
        url,
        payload: body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const code = await post('/beslotenpagina', 'accessCode=+12345678+');
    expect(code.statusCode).toBe(303);
    expect(code.headers.location).toBe('/beslotenpagina#code=12345678');
    expect(code.headers['cache-control']).toBe('no-store');
    expect((await post('/beslotenpagina', 'accessCode=9330+7666')).headers.location).toBe(
      '/beslotenpagina#code=93307666',
    );
    const pagina = 'a6f1c1d2-0b1e-4c59-9e53-0e2f8f0d6b11';
    expect((await post(`/beslotenpagina?pagina=${pagina}`, 'accessCode=9330-7666')).headers.location).toBe(
      `/beslotenpagina?pagina=${pagina}#code=93307666`,
    );
    expect((await post('/beslotenpagina?pagina=x', 'accessCode=1234')).headers.location).toBe(
      '/beslotenpagina',
    );
    expect((await post('/beslotenpagina', 'accessCode=1234')).headers.location).toBe('/beslotenpagina');
    expect((await post('/beslotenpagina', '')).headers.location).toBe('/beslotenpagina');
    const contact = await post('/contact', 'name=An&email=an%40example.nl&message=Hallo');
    expect(contact.statusCode).toBe(303);
    expect(contact.headers.location).toBe('/contact');
    expect((await post('/bedrijf', 'companyName=Uitvaart+De+Linde')).headers.location).toBe('/bedrijf');
    expect((await post('/create-memorial', 'firstName=Jan&lastName=de+Vries')).headers.location).toBe(
      '/create-memorial?firstName=Jan&lastName=de+Vries',
    );
    // Any other page is not a form target.
    expect((await post('/prijzen', 'a=b')).statusCode).toBe(404);
  });

  it('sends the HTML compressed (Brotli, else gzip), never cached, same bytes once decompressed', async () => {
    const plain = await t.app.inject({ url: '/' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    const br = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gzip = await t.app.inject({ url: '/bestaat-niet', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.statusCode).toBe(404);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toContain('Pagina niet gevonden');
  });

  it('sends every page in the theme kept in the cookie: dark by default, light without the dark class', async () => {
    for (const url of ['/', '/prijzen', '/memorial/6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01', '/bestaat-niet']) {
      const dark = await t.app.inject({ url });
      expect(dark.body).toContain('<html lang="nl" class="dark">');
      expect(dark.headers.vary).toContain('cookie');
      const light = await t.app.inject({ url, headers: { cookie: 'iets=1; aandenken-theme=light' } });
      expect(light.statusCode).toBe(dark.statusCode);
      expect(light.body).toContain('<html lang="nl">');
      expect(light.body).not.toContain('class="dark"');
      expect(light.body).toContain('<meta name="theme-color" content="#f8f5f0" />');
      expect(light.body.replace('<html lang="nl">', '').replace('#f8f5f0', '#0f1417')).toBe(
        dark.body.replace('<html lang="nl" class="dark">', ''),
      );
      const chosenDark = await t.app.inject({ url, headers: { cookie: 'aandenken-theme=dark' } });
      expect(chosenDark.body).toBe(dark.body);
      const nonsense = await t.app.inject({ url, headers: { cookie: 'aandenken-theme=<script>' } });
      expect(nonsense.body).toBe(dark.body);
    }
    const br = await t.app.inject({
      url: '/',
      headers: { cookie: 'aandenken-theme=light', 'accept-encoding': 'br' },
    });
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).not.toContain('class="dark"');
  });
});
