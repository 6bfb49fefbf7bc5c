import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { auth } from './memorial-fixtures.ts';
import { randomAddress } from './fixtures/content-matrix.ts';

/**
 * The directory and the company pages rendered at request time (src/modules/site/company-ssr.ts) with the
 * web's real server bundle (built here with Vite as the web build does) in a stand-in dist.
 */
const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const SHELL =
  '<!doctype html><html lang="nl"><head><title>Aandenken</title></head><body><div id="root"></div></body></html>';
const NOT_FOUND = SHELL.replace('<div id="root"></div>', '<div id="root">Oeps! Pagina niet gevonden</div>');

let t: TestContext;
let dist: string;
let team: string;
let company: { id: string; token: string; slug: string };

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
  await fs.writeFile(path.join(dist, 'ssr', 'company-shell.html'), SHELL);
  await fs.writeFile(path.join(dist, 'index.html'), SHELL);
  await fs.writeFile(path.join(dist, 'app.html'), SHELL);
  await fs.writeFile(path.join(dist, '404.html'), NOT_FOUND);
  t = await createTestApp({ WEB_DIST_DIR: dist });
  team = (await issueUserToken(t, { email: 'team@aandenken.test', name: 'Team' })).token;

  const email = `partner-${crypto.randomUUID().slice(0, 8)}@example.nl`;
  const applied = await t.app.inject({
    method: 'POST',
    url: '/core/companies/request',
    remoteAddress: randomAddress(),
    payload: {
      companyType: 'FuneralDirector',
      firstName: 'Anna',
      lastName: 'Bos',
      companyName: 'Uitvaartzorg Heuvelrug',
      streetName: 'Slotlaan',
      houseNumber: '3',
      postalCode: '3701 AA',
      phoneNumber: '030 123 4567',
      email,
    },
  });
  const id = applied.json().id as string;
  const approved = await t.app.inject({
    method: 'POST',
    url: `/core/team/applications/${id}/approve`,
    headers: auth(team),
  });
  const { token } = await issueUserToken(t, { email });
  await t.app.inject({ url: '/core/account/roles', headers: auth(token) });
  company = { id, token, slug: approved.json().company.slug };
  const saved = await t.app.inject({
    method: 'PUT',
    url: `/core/companies/${id}/profile`,
    headers: auth(token),
    payload: {
      name: 'Uitvaartzorg Heuvelrug',
      companyType: 'FuneralDirector',
      streetName: 'Slotlaan',
      houseNumber: '3',
      postalCode: '3701 AA',
      city: 'Zeist',
      phoneNumber: '030 123 4567',
      email: 'info@heuvelrug.nl',
      description: 'Met zorg & aandacht <sinds 1990>.',
      prices: [{ name: 'Basis', amountCents: 395000 }],
      workArea: { municipalities: ['Zeist', 'De Bilt'], postcodeRanges: [{ from: 3700, to: 3709 }] },
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}, 180_000);
afterAll(async () => {
  await t?.close();
  if (dist) await fs.rm(dist, { recursive: true, force: true });
});

describe('server-rendered company pages', () => {
  it('renders an active company’s page with its profile, prices and work area', async () => {
    const res = await t.app.inject({ url: `/uitvaartondernemers/${company.slug}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.body;
    expect(html).toContain('<title>Uitvaartzorg Heuvelrug · Uitvaartondernemers · Aandenken</title>');
    expect(html).toContain('Uitvaartzorg Heuvelrug</h1>');
    expect(html).toMatch(/€\s3\.950,00/);
    expect(html).toContain('De Bilt');
    expect(html).toContain('3700 – 3709');
    // Text is escaped, never markup; the data block carries the same answer for hydration.
    expect(html).toContain('Met zorg &amp; aandacht &lt;sinds 1990&gt;.');
    expect(html).toMatch(/<script type="application\/json" id="ssr-data">/);
  });

  it('renders the directory for a place name and for a postcode, and its empty state', async () => {
    const byPlace = await t.app.inject({ url: '/uitvaartondernemers?q=Den+Dolder' });
    expect(byPlace.statusCode).toBe(200);
    expect(byPlace.body).toContain(`href="/uitvaartondernemers/${company.slug}"`);
    expect(byPlace.body).toContain('in de gemeente Zeist');
    const byPostcode = await t.app.inject({ url: '/uitvaartondernemers?q=3705%20AB' });
    expect(byPostcode.body).toContain(`href="/uitvaartondernemers/${company.slug}"`);
    const none = await t.app.inject({ url: '/uitvaartondernemers?q=Maastricht' });
    expect(none.statusCode).toBe(200);
    expect(none.body).toContain('Er zijn (nog) geen partners die in de gemeente Maastricht werken.');
    expect(none.body).not.toContain(`href="/uitvaartondernemers/${company.slug}"`);
    const form = await t.app.inject({ url: '/uitvaartondernemers' });
    const tag = /<form[^>]*>/.exec(form.body)?.[0] ?? '';
    expect(tag).toContain('method="get"');
    expect(tag).toContain('action="/uitvaartondernemers"');
    expect(form.body).toMatch(/<input[^>]*name="q"/);
  });

  it('shows a change at the next load, and a suspended or unknown company is the 404 page', async () => {
    const first = await t.app.inject({ url: `/uitvaartondernemers/${company.slug}` });
    expect(first.body).not.toContain('Compleet');
    const profile = (
      await t.app.inject({ url: `/core/companies/${company.id}/profile`, headers: auth(company.token) })
    ).json();
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/core/companies/${company.id}/profile`,
      headers: auth(company.token),
      payload: {
        ...profile,
        id: undefined,
        slug: undefined,
        state: undefined,
        logo: undefined,
        updatedAt: undefined,
        prices: [...profile.prices, { name: 'Compleet', amountCents: 695000 }],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await t.app.inject({ url: `/uitvaartondernemers/${company.slug}` })).body).toContain('Compleet');

    await t.app.inject({
      method: 'POST',
      url: `/core/team/companies/${company.id}/suspend`,
      headers: auth(team),
    });
    const gone = await t.app.inject({ url: `/uitvaartondernemers/${company.slug}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toContain('Oeps! Pagina niet gevonden');
    expect((await t.app.inject({ url: '/uitvaartondernemers?q=Zeist' })).body).not.toContain(company.slug);
    const unknown = await t.app.inject({ url: '/uitvaartondernemers/bestaat-niet' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('Oeps! Pagina niet gevonden');
  });
});
