import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';
import { auth, createMemorial, createUsers, type Users } from './memorial-fixtures.ts';
import { genericPreview, withPreview } from '../src/modules/site/preview.ts';
import { withPagePreloads } from '../src/modules/site/memorial-ssr.ts';
import { CANDLE_RATE_LIMIT } from '@aandenken/contract';

/**
 * The public memorial page rendered at request time (src/modules/site/memorial-ssr.ts) with the web's real
 * server bundle (apps/web/src/app/prerender.tsx, built here with Vite as the web build does) in a stand-in
 * dist whose shell is small.
 */
const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const SHELL =
  '<!doctype html><html lang="nl"><head><title>Aandenken</title></head><body><div id="root"></div></body></html>';

let t: TestContext;
let dist: string;
let users: Users;
let publicId: string;
let privateId: string;
let conceptId: string;
let archivedId: string;

const page = (id: string) => t.app.inject({ url: `/memorial/${id}` });
/** The shell as the server sends it: with Aandenken's own preview and noindex (share.test.ts). */
const servedShell = () => withPreview(SHELL, genericPreview(t.config.PUBLIC_URL, { noindex: true }));
const dataBlock = (html: string) => {
  const json = /<script type="application\/json" id="ssr-data">([^<]*)<\/script>/.exec(html)?.[1];
  return json ? (JSON.parse(json) as { memorialId: string; queries: Array<[unknown[], unknown]> }) : null;
};

beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-ssr-dist-'));
  const { build } = await import('vite');
  await build({
    configFile: path.join(webRoot, 'vite.config.ts'),
    root: webRoot,
    logLevel: 'warn',
    build: {
      ssr: path.join(webRoot, 'src/app/prerender.tsx'),
      outDir: path.join(dist, 'ssr'),
      emptyOutDir: true,
      copyPublicDir: false,
      minify: false,
    },
    ssr: { noExternal: true },
  });
  await fs.writeFile(path.join(dist, 'ssr', 'memorial-shell.html'), SHELL);
  await fs.writeFile(path.join(dist, 'index.html'), SHELL);
  await fs.writeFile(path.join(dist, 'app.html'), SHELL);
  t = await createTestApp({ WEB_DIST_DIR: dist });
  users = await createUsers(t);
  publicId = (
    await createMemorial(t, users.owner, { visibility: 'public', firstName: 'Hendrika', lastName: 'Bos' })
  ).id;
  privateId = (
    await createMemorial(t, users.owner, { visibility: 'private', firstName: 'Geheim', lastName: 'Persoon' })
  ).id;
  conceptId = (
    await createMemorial(t, users.owner, {
      status: 'concept',
      visibility: 'public',
      firstName: 'Nog',
      lastName: 'Concept',
    })
  ).id;
  archivedId = (
    await createMemorial(t, users.owner, {
      status: 'archived',
      visibility: 'public',
      firstName: 'Al',
      lastName: 'Gearchiveerd',
    })
  ).id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  if (dist) await fs.rm(dist, { recursive: true, force: true });
});

describe('the public memorial page rendered on the server', () => {
  it('contains the name in an h1, the title in the head and the data as a non-executable JSON block', async () => {
    const res = await page(publicId);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toMatch(/<h1 id="memorial-name"[^>]*>Hendrika Bos<\/h1>/);
    expect(res.body).toContain('<head><title>Hendrika Bos · Aandenken</title>');
    // The only script is the data block (the CSP allows no inline executable script).
    expect(res.body.match(/<script[^>]*>/g)).toEqual(['<script type="application/json" id="ssr-data">']);
    const data = dataBlock(res.body)!;
    expect(data.memorialId).toBe(publicId);
    expect(data.queries.map(([key]) => key.at(-1))).toEqual([
      'detail',
      'gallery',
      'biography',
      'wall',
      'candles',
    ]);
    expect(data.queries[0]![1]).toMatchObject({ id: publicId, firstName: 'Hendrika', role: 'visitor' });
  });

  it('escapes what visitors write, so nothing in the data block can end it', async () => {
    const candle = await t.app.inject({
      method: 'POST',
      url: `/core/candles/${publicId}`,
      payload: { kind: 'candle', name: "Bezoeker $' $&", message: '</script><script>alert(1)</script>' },
    });
    expect(candle.statusCode).toBe(201);
    const res = await page(publicId);
    const block = /<script type="application\/json" id="ssr-data">([^<]*)<\/script>/.exec(res.body)?.[1];
    expect(block).toBeDefined();
    expect(block).not.toContain('<');
    const stored = (candle.json() as { message: string }).message;
    expect(stored).toContain('<');
    expect(JSON.stringify(dataBlock(res.body))).toContain(JSON.stringify(stored));
    expect(res.body.match(/<script[^>]*>/g)).toHaveLength(1);
    // `$'` and `$&` stay text (a replacement string would have expanded them).
    expect(res.body).toContain('Bezoeker $&#x27; $&amp;');
    expect(res.body.match(/<html/g)).toHaveLength(1);
  });

  it('answers a private, concept, archived, missing or malformed memorial with 404 and exactly the shell, byte for byte', async () => {
    const unknown = await page('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe(servedShell());
    const answer = (res: Awaited<ReturnType<typeof page>>) => ({
      status: res.statusCode,
      headers: Object.fromEntries(
        Object.entries(res.headers).filter(([name]) => !['date', 'x-request-id'].includes(name)),
      ),
      body: res.rawPayload.toString('base64'),
    });
    for (const id of [privateId, conceptId, archivedId, 'niet-een-id', privateId.toUpperCase()]) {
      expect(answer(await page(id))).toEqual(answer(unknown));
    }
    // Also when the caller is the owner: the page is rendered only as an anonymous visitor sees it (the
    // browser asks the API with its token and shows the page to whoever may see it).
    const owner = await t.app.inject({ url: `/memorial/${privateId}`, headers: auth(users.owner.token) });
    expect(answer(owner)).toEqual(answer(unknown));
    // Compressed the same way too.
    const gz = (url: string) => t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(answer(await gz(`/memorial/${privateId}`))).toEqual(
      answer(await gz('/memorial/00000000-0000-4000-8000-000000000000')),
    );
    // The public page itself is a 200.
    expect((await page(publicId)).statusCode).toBe(200);
  });

  it('does not serve the server bundle itself', async () => {
    for (const file of ['/ssr/prerender.js', '/ssr/memorial-shell.html']) {
      const res = await t.app.inject({ url: file });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('renderMemorial');
    }
  });

  it('is computed once per memorial version and shows a change at the next request', async () => {
    const first = await page(publicId);
    const again = await page(publicId);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);

    // A new candle (anonymous, through the API) is on the next load.
    await t.app.inject({
      method: 'POST',
      url: `/core/candles/${publicId}`,
      payload: { kind: 'flower', name: 'Marijke', message: 'Een roos voor Hendrika.' },
    });
    expect((await page(publicId)).body).toContain('Een roos voor Hendrika.');

    // An edit by the owner.
    const edit = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial',
      headers: auth(users.owner.token),
      payload: { id: publicId, lastName: 'Bos-de Wit' },
    });
    expect(edit.statusCode).toBe(200);
    expect((await page(publicId)).body).toMatch(/<h1 id="memorial-name"[^>]*>Hendrika Bos-de Wit<\/h1>/);

    // Made private: from then on the shell, like a page that does not exist.
    const hide = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial',
      headers: auth(users.owner.token),
      payload: { id: publicId, visibility: 'private' },
    });
    expect(hide.statusCode).toBe(200);
    expect((await page(publicId)).body).toBe(servedShell());
  });

  it('compresses the rendered page for browsers that ask for it', async () => {
    const other = (
      await createMemorial(t, users.owner, { visibility: 'public', firstName: 'Klaas', lastName: 'Smit' })
    ).id;
    const br = await t.app.inject({ url: `/memorial/${other}`, headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    const { brotliDecompressSync } = await import('node:zlib');
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('>Klaas Smit</h1>');
  });
});

describe('the candle form without the page’s script', () => {
  let memorialId: string;
  const form = (fields: Record<string, string>, o: { ip?: string; headers?: Record<string, string> } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/memorial/${memorialId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...o.headers },
      payload: new URLSearchParams(fields).toString(),
      remoteAddress: o.ip ?? '198.51.100.1',
    });
  const candles = async () =>
    (
      await t.db.query<{ name: string; kind: string; message: string | null }>(
        'SELECT name, kind, message FROM candles WHERE memorial_id = $1 ORDER BY created_at, id',
        [memorialId],
      )
    ).rows;

  beforeAll(async () => {
    memorialId = (
      await createMemorial(t, users.owner, { visibility: 'public', firstName: 'Willem', lastName: 'Dekker' })
    ).id;
  });

  it('is a real form in the page: it posts to the page, its fields can be typed in before the script', async () => {
    const html = (await page(memorialId)).body;
    const form = /<form[^>]*id="kaarsje-aansteken"[^>]*>[\s\S]*?<\/form>/.exec(html)?.[0];
    expect(form).toBeDefined();
    expect(form).toMatch(/^<form[^>]*method="post"/);
    expect(form).toMatch(/^<form[^>]*action="#kaarsjesformulier"/);
    expect(form).toContain('<input type="hidden" name="formulier" value="kaarsje"/>');
    const name = /<input id="candle-name"[^>]*>/.exec(form!)?.[0];
    expect(name).toContain('name="name"');
    const message = /<textarea id="candle-message"[^>]*>/.exec(form!)?.[0];
    expect(message).toContain('name="message"');
    for (const field of [name!, message!]) expect(field).not.toMatch(/readonly/i);
    expect(form).toMatch(/<input type="radio" id="candle-kind-candle"[^>]*checked=""/);
    // The confirmations the server's answer lands on.
    expect(html).toContain('id="kaarsje-brandt"');
    expect(html).toContain('id="bloem-ligt"');
  });

  it('lights a candle or lays a flower and sends the visitor back to the page at its confirmation', async () => {
    const lit = await form({ formulier: 'kaarsje', kind: 'candle', name: ' Anna ', message: 'Rust zacht.' });
    expect(lit.statusCode).toBe(303);
    expect(lit.headers.location).toBe(`/memorial/${memorialId}#kaarsje-brandt`);
    expect(lit.headers['cache-control']).toBe('no-store');
    const laid = await form({ formulier: 'kaarsje', kind: 'flower', name: 'Bram', message: '' });
    expect(laid.headers.location).toBe(`/memorial/${memorialId}#bloem-ligt`);
    expect(await candles()).toEqual([
      { name: 'Anna', kind: 'candle', message: 'Rust zacht.' },
      { name: 'Bram', kind: 'flower', message: null },
    ]);
  });

  it('lights one candle for a form sent twice in a row (a double tap)', async () => {
    const before = (await candles()).length;
    const fields = { formulier: 'kaarsje', kind: 'candle', name: 'Dubbel', message: 'Twee keer getikt.' };
    const [a, b] = [await form(fields, { ip: '198.51.100.2' }), await form(fields, { ip: '198.51.100.2' })];
    expect([a.statusCode, b.statusCode]).toEqual([303, 303]);
    expect((await candles()).length).toBe(before + 1);
  });

  it('answers bad input with the page, the Dutch reason at the form and what was typed, and lights nothing', async () => {
    const before = await candles();
    const res = await form({ formulier: 'kaarsje', kind: 'flower', name: '  ', message: 'Tekst <b>vet</b>' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toMatch(/<div id="candle-form-error"[^>]*><p>[^<]*Naam is verplicht/);
    expect(res.body).toMatch(/<input value=" {2}" autofocus="" aria-invalid="true"[^>]*id="candle-name"/);
    expect(res.body).toContain('>Tekst &lt;b&gt;vet&lt;/b&gt;</textarea>');
    expect(res.body).toMatch(/<input checked="" type="radio" id="candle-kind-flower"/);
    expect(res.body).not.toMatch(/<input checked="" type="radio" id="candle-kind-candle"/);
    // Still the one data block and no inline script.
    expect(res.body.match(/<script[^>]*>/g)).toEqual(['<script type="application/json" id="ssr-data">']);
    expect(await candles()).toEqual(before);
    // The rendered page itself stays as it was for the next visitor.
    expect((await page(memorialId)).body).not.toContain('Naam is verplicht');
  });

  it('keeps to the candle route’s rate limit per visitor, with a Dutch reason', async () => {
    const before = (await candles()).length;
    for (let i = 0; i < CANDLE_RATE_LIMIT.max; i++) {
      const ok = await form({ formulier: 'kaarsje', name: `Veel ${i}` }, { ip: '198.51.100.3' });
      expect(ok.statusCode).toBe(303);
    }
    const refused = await form({ formulier: 'kaarsje', name: 'Eén te veel' }, { ip: '198.51.100.3' });
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toMatch(/<div id="candle-form-error"[^>]*><p>Te veel verzoeken\./);
    expect(refused.body).toMatch(/<input value="Eén te veel"/);
    expect((await candles()).length).toBe(before + CANDLE_RATE_LIMIT.max);
  });

  it('lights nothing for another of the page’s forms, another site’s page, or a page not public', async () => {
    const before = (await candles()).length;
    const other = await form({ name: 'Geen kaarsje' });
    expect(other.statusCode).toBe(303);
    expect(other.headers.location).toBe(`/memorial/${memorialId}`);
    const crossSite = await form(
      { formulier: 'kaarsje', name: 'Van elders' },
      { headers: { 'sec-fetch-site': 'cross-site' } },
    );
    expect(crossSite.statusCode).toBe(303);
    expect((await candles()).length).toBe(before);
    const hidden = await t.app.inject({
      method: 'POST',
      url: `/memorial/${privateId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'formulier=kaarsje&name=Geheim',
    });
    expect(hidden.statusCode).toBe(303);
    expect(hidden.headers.location).toBe(`/memorial/${privateId}`);
    const { rows } = await t.db.query('SELECT 1 FROM candles WHERE memorial_id = $1', [privateId]);
    expect(rows).toEqual([]);
  });

  it('answers the readable address the same way', async () => {
    const { rows } = await t.db.query<{ slug: string | null }>('SELECT slug FROM memorials WHERE id = $1', [
      memorialId,
    ]);
    const slug = rows[0]!.slug;
    expect(slug).toBeTruthy();
    const res = await t.app.inject({
      method: 'POST',
      url: `/gedenkpagina/${slug}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'formulier=kaarsje&kind=candle&name=Via+het+adres',
      remoteAddress: '198.51.100.4',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/gedenkpagina/${slug}#kaarsje-brandt`);
    expect((await candles()).map((c) => c.name)).toContain('Via het adres');
  });
});

describe('the memorial page’s one preload list', () => {
  it('names the entry’s chunks and the page’s chunk with all it imports, each once, scripts only', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-preloads-'));
    try {
      await fs.mkdir(path.join(dir, '.vite'));
      await fs.writeFile(
        path.join(dir, '.vite/manifest.json'),
        JSON.stringify({
          'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_react.js'] },
          '_react.js': { file: 'assets/react.js' },
          'src/page.tsx': {
            file: 'assets/page.js',
            imports: ['_react.js', '_a.js'],
            css: ['assets/page.css'],
          },
          '_a.js': { file: 'assets/a.js', imports: ['_b.js', '_react.js'] },
          '_b.js': { file: 'assets/b.js', imports: ['_a.js'] },
          'src/other.tsx': { file: 'assets/other.js' },
        }),
      );
      const shell =
        '<head><script src="/boot.js" data-app="/assets/index-1.js" data-preload="/assets/react.js" defer></script></head>';
      const html = withPagePreloads(shell, dir, 'src/page.tsx');
      const list = /data-preload="([^"]*)"/.exec(html)![1]!.split(' ');
      expect(list).toEqual(['/assets/react.js', '/assets/page.js', '/assets/a.js', '/assets/b.js']);
      expect(html).toContain('data-app="/assets/index-1.js"');
      // No manifest (a build without one): the shell as it is.
      expect(withPagePreloads(shell, path.join(dir, 'missing'), 'src/page.tsx')).toBe(shell);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
