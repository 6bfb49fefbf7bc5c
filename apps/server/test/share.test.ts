import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { addMember, auth, createMemorial, createUsers, type Users } from './memorial-fixtures.ts';
import { randomAddress } from './fixtures/content-matrix.ts';

/**
 * The front doors of a memorial: its readable address, the link previews (Open Graph, Twitter, canonical)
 * and share images in the server's HTML, robots.txt and the sitemap, and noindex on every page that is one
 * person's or one link's. With the web's real server bundle (built here with Vite) in a stand-in dist whose
 * shell carries the build's own description, as index.html does.
 */
const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const SHELL =
  '<!doctype html><html lang="nl"><head><meta name="description" content="De beschrijving van de build."><title>Aandenken</title></head><body><div id="root"></div></body></html>';
const ORIGIN = 'https://aandenken.test';

let t: TestContext;
let dist: string;
let users: Users;

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
/** The page's head: where the previews are, and where a private page's name must not be. */
const headOf = (html: string) => html.slice(0, html.indexOf('</head>'));
const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)">`).exec(html)?.[1];
const canonical = (html: string) => /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1];
const slugOf = async (id: string) =>
  (await t.db.query<{ slug: string }>('SELECT slug FROM memorials WHERE id = $1', [id])).rows[0]!.slug;
const update = (token: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/core/memorial', headers: auth(token), payload });

beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-share-dist-'));
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
  await fs.writeFile(path.join(dist, 'ssr', 'company-shell.html'), SHELL);
  await fs.writeFile(path.join(dist, 'index.html'), SHELL);
  await fs.mkdir(path.join(dist, 'prijzen'));
  await fs.writeFile(path.join(dist, 'prijzen', 'index.html'), SHELL);
  await fs.writeFile(path.join(dist, 'app.html'), SHELL);
  await fs.writeFile(path.join(dist, '404.html'), SHELL);
  t = await createTestApp({ WEB_DIST_DIR: dist, PUBLIC_URL: ORIGIN });
  users = await createUsers(t);
}, 180_000);
afterAll(async () => {
  await t?.close();
  if (dist) await fs.rm(dist, { recursive: true, force: true });
});

describe('the readable address', () => {
  it('is made from the names and years, without accents, unique with -2 on a collision', async () => {
    const first = await createMemorial(t, users.owner, { firstName: 'Zoë', lastName: 'van Ĳssel-Ståhl' });
    expect(await slugOf(first.id)).toBe('zoe-van-ijssel-stahl');
    expect(
      (await update(users.owner.token, { id: first.id, birthDate: '1948-03-02', deathDate: '2024-01-09' }))
        .statusCode,
    ).toBe(200);
    expect(await slugOf(first.id)).toBe('zoe-van-ijssel-stahl-1948-2024');

    const second = await createMemorial(t, users.otherOwner, {
      firstName: 'Zoë',
      lastName: 'van IJssel-Ståhl',
    });
    await update(users.otherOwner.token, { id: second.id, birthDate: '1948-05-05', deathDate: '2024-02-02' });
    expect(await slugOf(second.id)).toBe('zoe-van-ijssel-stahl-1948-2024-2');
    // The API gives it to everyone who may see the page, for its links.
    const read = await get(`/core/memorial/${second.id}`, auth(users.otherOwner.token));
    expect(read.json().slug).toBe('zoe-van-ijssel-stahl-1948-2024-2');
    // A change that leaves names and years as they were keeps the address, its -2 included.
    await update(users.otherOwner.token, { id: second.id, quote: 'Altijd vrolijk.' });
    expect(await slugOf(second.id)).toBe('zoe-van-ijssel-stahl-1948-2024-2');
  });

  it('serves the public page rendered at its readable address, and the id address still works', async () => {
    const { id } = await createMemorial(t, users.owner, {
      visibility: 'public',
      firstName: 'Johanna',
      lastName: 'de Vries',
    });
    await update(users.owner.token, { id, birthDate: '1948-03-02', deathDate: '2024-01-09' });
    const slug = await slugOf(id);
    expect(slug).toMatch(/^johanna-de-vries-1948-2024(-\d+)?$/);

    const res = await get(`/gedenkpagina/${slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Johanna de Vries</h1>');
    expect(res.body).toContain('<script type="application/json" id="ssr-data">');
    expect(canonical(res.body)).toBe(`${ORIGIN}/gedenkpagina/${slug}`);

    const byId = await get(`/memorial/${id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.body).toContain('Johanna de Vries</h1>');
    // One page, two addresses: search engines are told the readable one.
    expect(canonical(byId.body)).toBe(`${ORIGIN}/gedenkpagina/${slug}`);
  });

  it('redirects an old address with 301 after a change of names; the API finds it too', async () => {
    const { id } = await createMemorial(t, users.owner, {
      visibility: 'public',
      firstName: 'Gerrit',
      lastName: 'Hoekstra',
    });
    const before = await slugOf(id);
    await update(users.owner.token, { id, firstName: 'Gerard' });
    const after = await slugOf(id);
    expect(after).toMatch(/^gerard-hoekstra(-\d+)?$/);

    const old = await get(`/gedenkpagina/${before}`);
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe(`/gedenkpagina/${after}`);
    expect((await get(`/gedenkpagina/${after}`)).statusCode).toBe(200);
    expect((await get(`/core/memorial/by-slug/${before}`)).json()).toEqual({ id, slug: after });
    expect((await get(`/memorial/${id}`)).statusCode).toBe(200);

    // A new page with the old names does not take the address that was shared.
    const other = await createMemorial(t, users.otherOwner, { firstName: 'Gerrit', lastName: 'Hoekstra' });
    expect(await slugOf(other.id)).not.toBe(before);
    // The page that had it gets it back when its names go back.
    await update(users.owner.token, { id, firstName: 'Gerrit' });
    expect(await slugOf(id)).toBe(before);
    expect((await get(`/gedenkpagina/${after}`)).headers.location).toBe(`/gedenkpagina/${before}`);
  });

  it('gives nothing away about a private page: the same 404 as a missing address', async () => {
    const { id } = await createMemorial(t, users.owner, {
      visibility: 'private',
      firstName: 'Cornelia',
      lastName: 'Verborgen',
    });
    const slug = await slugOf(id);
    const res = await get(`/gedenkpagina/${slug}`);
    const missing = await get('/gedenkpagina/niemand-bekend-1900-1990');
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe(missing.body);
    expect(res.body).not.toContain('Cornelia');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    // The generic preview: Aandenken's own title, description and image; no name, no canonical.
    const head = headOf(res.body);
    expect(meta(head, 'og:title')).toBe('Aandenken');
    expect(meta(head, 'og:image')).toBe(`${ORIGIN}/deelbeeld/aandenken.png`);
    expect(meta(head, 'robots')).toBe('noindex');
    expect(canonical(head)).toBeUndefined();
    // Its old address does not redirect for a stranger either (that would tell its new name).
    await update(users.owner.token, { id, firstName: 'Cor' });
    const old = await get(`/gedenkpagina/${slug}`);
    expect(old.statusCode).toBe(404);
    expect(old.body).toBe(missing.body);

    // Those who may see it find it by its address in the API: a member, and by its old address too.
    expect((await get(`/core/memorial/by-slug/${slug}`, auth(users.owner.token))).json()).toEqual({
      id,
      slug: await slugOf(id),
    });
    expect((await get(`/core/memorial/by-slug/${slug}`)).statusCode).toBe(404);
    expect((await get(`/core/memorial/by-slug/${slug}`, auth(users.stranger.token))).statusCode).toBe(404);
    expect((await get('/core/memorial/by-slug/Niet%20Goed')).statusCode).toBe(404);
    // Its share image is not there for a stranger.
    expect((await get(`/deelbeeld/gedenkpagina/${id}.png`)).statusCode).toBe(404);
  });
});

describe('link previews', () => {
  it('a public page carries its name, years, words and share image in the HTML, without JavaScript', async () => {
    const { id } = await createMemorial(t, users.owner, {
      visibility: 'public',
      firstName: 'Hendrika',
      lastName: 'Bos',
    });
    await update(users.owner.token, {
      id,
      birthDate: '1931-07-14',
      deathDate: '2023-11-30',
      quote: 'Wie in het hart leeft, is niet dood.',
    });
    const slug = await slugOf(id);
    const res = await get(`/gedenkpagina/${slug}`);
    const head = headOf(res.body);
    expect(meta(head, 'og:title')).toBe('Hendrika Bos (1931 – 2023)');
    expect(meta(head, 'og:description')).toBe(
      '“Wie in het hart leeft, is niet dood.” Ter nagedachtenis aan Hendrika Bos. Lees de herinneringen, steek een kaarsje aan of deel een herinnering.',
    );
    expect(meta(head, 'description')).toBe(meta(head, 'og:description'));
    expect(head).not.toContain('De beschrijving van de build.');
    expect(meta(head, 'og:type')).toBe('profile');
    expect(meta(head, 'og:url')).toBe(`${ORIGIN}/gedenkpagina/${slug}`);
    expect(meta(head, 'og:image:width')).toBe('1200');
    expect(meta(head, 'og:image:height')).toBe('630');
    expect(meta(head, 'twitter:card')).toBe('summary_large_image');
    const image = meta(head, 'og:image')!;
    expect(image).toMatch(new RegExp(`^${ORIGIN}/deelbeeld/gedenkpagina/${id}\\.png\\?v=[\\w-]+$`));
    expect(meta(head, 'twitter:image')).toBe(image);

    // The share image: a PNG of 1200×630, with an ETag that answers 304 and a cache header.
    const png = await get(image.slice(ORIGIN.length));
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['cache-control']).toContain('max-age');
    const decoded = await sharp(png.rawPayload).metadata();
    expect([decoded.format, decoded.width, decoded.height]).toEqual(['png', 1200, 630]);
    const etag = String(png.headers.etag);
    expect((await get(`/deelbeeld/gedenkpagina/${id}.png`, { 'if-none-match': etag })).statusCode).toBe(304);

    // A new name is a new image: another version in the page's tags, another ETag.
    await update(users.owner.token, { id, lastName: 'Bos-de Wit' });
    const renamed = headOf((await get(`/gedenkpagina/${await slugOf(id)}`)).body);
    expect(meta(renamed, 'og:title')).toBe('Hendrika Bos-de Wit (1931 – 2023)');
    expect(meta(renamed, 'og:image')).not.toBe(image);
    const again = await get(`/deelbeeld/gedenkpagina/${id}.png`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(200);
    expect(again.headers.etag).not.toBe(etag);
  });

  it('a company page carries its own preview and share image', async () => {
    const team = (await issueUserToken(t, { email: 'team@aandenken.test', name: 'Team' })).token;
    const applied = await t.app.inject({
      method: 'POST',
      url: '/core/companies/request',
      remoteAddress: randomAddress(),
      payload: {
        companyType: 'FuneralDirector',
        firstName: 'Anna',
        lastName: 'Bos',
        companyName: 'Uitvaartzorg Lindehof',
        streetName: 'Slotlaan',
        houseNumber: '3',
        postalCode: '3701 AA',
        phoneNumber: '030 123 4567',
        email: `lindehof-${crypto.randomUUID().slice(0, 8)}@example.nl`,
      },
    });
    const approved = await t.app.inject({
      method: 'POST',
      url: `/core/team/applications/${applied.json().id as string}/approve`,
      headers: auth(team),
    });
    const slug = approved.json().company.slug as string;
    const head = headOf((await get(`/uitvaartondernemers/${slug}`)).body);
    expect(meta(head, 'og:title')).toMatch(/^Uitvaartzorg Lindehof, uitvaartondernemer/);
    expect(canonical(head)).toBe(`${ORIGIN}/uitvaartondernemers/${slug}`);
    expect(meta(head, 'robots')).toBeUndefined();
    expect(meta(head, 'twitter:card')).toBe('summary_large_image');
    const png = await get(meta(head, 'og:image')!.slice(ORIGIN.length));
    expect(png.headers['content-type']).toBe('image/png');
    const decoded = await sharp(png.rawPayload).metadata();
    expect([decoded.width, decoded.height]).toEqual([1200, 630]);

    // The directory is listed; a search in it is not.
    expect(meta(headOf((await get('/uitvaartondernemers')).body), 'robots')).toBeUndefined();
    expect(meta(headOf((await get('/uitvaartondernemers?q=zeist')).body), 'robots')).toBe('noindex');
  });

  it('the site’s own pages have Aandenken’s preview and their address; the generic image is 1200×630', async () => {
    const head = headOf((await get('/prijzen')).body);
    expect(meta(head, 'og:title')).toBe('Aandenken');
    expect(canonical(head)).toBe(`${ORIGIN}/prijzen`);
    expect(meta(head, 'robots')).toBeUndefined();
    const png = await get('/deelbeeld/aandenken.png');
    expect(png.headers['content-type']).toBe('image/png');
    const decoded = await sharp(png.rawPayload).metadata();
    expect([decoded.width, decoded.height]).toEqual([1200, 630]);
  });
});

describe('search engines', () => {
  it('robots.txt allows the site, keeps out the API, sign-in, manage, account and token pages, and names the sitemap', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const lines = res.body.split('\n');
    expect(lines).toContain('Allow: /');
    for (const path of [
      '/core/',
      '/realms/',
      '/account',
      '/memorial/*/beheer',
      '/g/',
      '/uitnodiging/',
      '/overnemen/',
    ])
      expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });

  it('a public page is listed only when its owner chose so; its noindex goes with that choice', async () => {
    const listed = await createMemorial(t, users.owner, {
      visibility: 'public',
      firstName: 'Wilhelmina',
      lastName: 'Gevonden',
    });
    const unlisted = await createMemorial(t, users.owner, {
      visibility: 'public',
      firstName: 'Theodora',
      lastName: 'Onvindbaar',
    });
    const madePrivate = await createMemorial(t, users.owner, {
      visibility: 'public',
      firstName: 'Bartholomeus',
      lastName: 'Besloten',
    });
    await addMember(t, listed.id, users.editor, 'editor');

    // The default: not listed, noindex.
    const first = await get(`/core/memorial/${listed.id}`);
    expect(first.json().searchEngines).toBe(false);
    expect(meta(headOf((await get(`/memorial/${listed.id}`)).body), 'robots')).toBe('noindex');

    // The family's choice: only the owner makes it.
    const byEditor = await update(users.editor.token, { id: listed.id, searchEngines: true });
    expect(byEditor.statusCode).toBe(403);
    expect(byEditor.json().message).toMatch(/eigenaar/);
    expect(
      (await update(users.owner.token, { id: listed.id, searchEngines: true })).json().searchEngines,
    ).toBe(true);
    expect((await update(users.owner.token, { id: madePrivate.id, searchEngines: true })).statusCode).toBe(
      200,
    );
    await update(users.owner.token, { id: madePrivate.id, visibility: 'private' });
    const bad = await update(users.owner.token, { id: listed.id, searchEngines: 'ja' });
    expect(bad.statusCode).toBe(400);

    expect(meta(headOf((await get(`/memorial/${listed.id}`)).body), 'robots')).toBeUndefined();
    const sitemap = await get('/sitemap.xml');
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers['content-type']).toContain('application/xml');
    expect(sitemap.body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(sitemap.body).toContain(`<loc>${ORIGIN}/</loc>`);
    expect(sitemap.body).toContain(`<loc>${ORIGIN}/prijzen</loc>`);
    expect(sitemap.body).toContain(`<loc>${ORIGIN}/gedenkpagina/${await slugOf(listed.id)}</loc>`);
    expect(sitemap.body).not.toContain(await slugOf(unlisted.id));
    expect(sitemap.body).not.toContain(await slugOf(madePrivate.id));
    // Only public, published, opted-in pages: nothing else of the memorials.
    const memorialLocs = sitemap.body.match(/<loc>[^<]*\/gedenkpagina\/[^<]*<\/loc>/g) ?? [];
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memorials
        WHERE search_engines AND visibility = 'public' AND status = 'active' AND deleted_at IS NULL`,
    );
    expect(memorialLocs).toHaveLength(rows[0]!.n);
  });

  it('token, manage and account pages say noindex, in the head and in a header', async () => {
    const { id } = await createMemorial(t, users.owner, { visibility: 'public' });
    for (const url of [
      '/g/abcdefghijklmnopqrstuv',
      '/uitnodiging/abcdefghijklmnop',
      '/overnemen/abcdefghijklmnop',
      '/meldingen/bevestigen',
      '/meldingen/afmelden',
      '/account',
      '/mijn-paginas',
      `/memorial/${id}/beheer`,
    ]) {
      const res = await get(url);
      expect(res.headers['x-robots-tag'], url).toBe('noindex');
      expect(meta(headOf(res.body), 'robots'), url).toBe('noindex');
    }
    // The site's own pages and a public page's are not marked so.
    expect((await get('/prijzen')).headers['x-robots-tag']).toBeUndefined();
  });
});
