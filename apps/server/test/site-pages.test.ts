import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { routes } from '@aandenken/contract';
import { createTestApp, type TestContext } from './helpers.ts';
import { createMemorial, createUsers } from './memorial-fixtures.ts';

/** The built site as the prerendering build leaves it (apps/web/scripts/prerender.mjs). */
let t: TestContext;
let dist: string;
const page = (body: string) =>
  `<!doctype html><html lang="nl" class="dark"><head><meta name="theme-color" content="#0f1417" /><title>${body}</title></head><body><div id="root">${body}</div></body></html>`;

const webPublic = path.resolve(import.meta.dirname, '../../web/public');
const HOME_SCREEN_FILES = [
  'favicon.ico',
  'apple-touch-icon.png',
  'icon-192.png',
  'icon-512.png',
  'icon-maskable-512.png',
  'manifest.webmanifest',
];

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
  // The icons and the manifest as the build copies them from apps/web/public.
  for (const file of HOME_SCREEN_FILES) await fs.copyFile(path.join(webPublic, file), path.join(dist, file));
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

describe('icons and the web app manifest', () => {
  /** A PNG the way a browser gets it: its type, and sharp's full decode of its bytes. */
  const pngAt = async (url: string) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode, url).toBe(200);
    expect(res.headers['content-type'], url).toBe('image/png');
    expect(res.headers['cache-control'], url).toBe('public, max-age=3600');
    const { info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    return { info, body: res.rawPayload };
  };

  it('serves a real favicon.ico: an icon directory of PNG images at 16, 32 and 48 pixels', async () => {
    const res = await t.app.inject({ url: '/favicon.ico' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/(vnd\.microsoft\.icon|x-icon)$/);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const ico = res.rawPayload;
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const sizes: number[] = [];
    for (let i = 0; i < ico.readUInt16LE(4); i++) {
      const entry = 6 + 16 * i;
      const [size, length, offset] = [
        ico.readUInt8(entry),
        ico.readUInt32LE(entry + 8),
        ico.readUInt32LE(entry + 12),
      ];
      expect(offset + length).toBeLessThanOrEqual(ico.length);
      const image = await sharp(ico.subarray(offset, offset + length)).metadata();
      expect([image.format, image.width, image.height]).toEqual(['png', size, size]);
      sizes.push(size);
    }
    expect(sizes).toEqual([16, 32, 48]);
  });

  it('serves the manifest: Dutch, starting at Mijn Pagina’s, in the site’s colours, with every icon it names', async () => {
    const res = await t.app.inject({ url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json\b/);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const manifest = res.json<{
      icons: Array<{ src: string; sizes: string; type: string; purpose: string }>;
      [key: string]: unknown;
    }>();
    expect(manifest).toMatchObject({
      name: 'Aandenken',
      short_name: 'Aandenken',
      lang: 'nl',
      start_url: routes.myPages,
      scope: '/',
      display: 'standalone',
      background_color: '#0f1417',
      theme_color: '#0f1417',
    });
    expect(manifest.description).toMatch(/herinneringen/);
    // What Chrome asks of an installable app: a 192 and a 512 px icon; Android's mask wants a maskable one.
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    for (const icon of manifest.icons) {
      expect(icon.type).toBe('image/png');
      const { info, body } = await pngAt(icon.src);
      expect(`${info.width}x${info.height}`).toBe(icon.sizes);
      // The maskable one is a full tile (the mask cuts its shape); the others keep the favicon's round corners.
      const corner = await sharp(body)
        .ensureAlpha()
        .extract({ left: 0, top: 0, width: 1, height: 1 })
        .raw()
        .toBuffer();
      expect(corner[3], icon.src).toBe(icon.purpose === 'maskable' ? 255 : 0);
    }
  });

  it('serves apple-touch-icon.png at 180 pixels, opaque; an icon that does not exist is still a 404', async () => {
    const { info, body } = await pngAt('/apple-touch-icon.png');
    expect([info.width, info.height]).toEqual([180, 180]);
    expect((await sharp(body).stats()).isOpaque).toBe(true);
    for (const url of ['/apple-touch-icon-precomposed.png', '/icon-64.png', '/favicon.png']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
    }
  });
});
