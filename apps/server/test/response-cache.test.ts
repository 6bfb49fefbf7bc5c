import zlib from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast, eventually, guestToken, member } from './fixtures/content.ts';
import { createMemorial } from './memorial-fixtures.ts';

/**
 * The response cache for shared reads (GET /core/memorial/{id}, the first page of its wall): byte-identical
 * answers, ETag/304, and every change, whoever makes it, invalidating at once.
 */
let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;
/** A public and a private memorial made through the memorial service (real access codes). */
let m: { publicId: string; privateId: string };
/** A second app on the same database with the cache off: what an uncached answer looks like. */
let uncached: FastifyInstance;
/** A second app on the same database with its own cache: another process behind the load balancer. */
let other: FastifyInstance;

const appOn = async (env: Record<string, string>) => {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: t.dataDir,
    SMTP_URL: t.smtp.url,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: t.config.PUBLIC_URL,
    RATE_LIMIT_MAX: '10000',
    ...env,
  });
  const app = await buildApp({ config, db: t.db });
  await app.ready();
  return app;
};

beforeAll(async () => {
  t = await createTestApp();
  c = await cast(t, 'cache');
  const owner = { token: c.owner.token, userId: c.owner.userId, email: 'owner-cache@example.nl' };
  m = {
    publicId: (await createMemorial(t, owner, { visibility: 'public', firstName: 'Piet' })).id,
    privateId: (await createMemorial(t, owner, { visibility: 'private' })).id,
  };
  for (const id of [m.publicId, m.privateId]) await member(t, id, c.contributor, 'contributor');
  // The owner opens the page before editing it, as in the app (this also loads the access-code keys,
  // which PUT /core/memorial otherwise loads inside its transaction).
  expect((await getMemorial(m.publicId, c.owner.headers)).statusCode).toBe(200);
  uncached = await appOn({ RESPONSE_CACHE_MB: '0' });
  other = await appOn({});
});
afterAll(async () => {
  await uncached?.close();
  await other?.close();
  await t?.close();
});

type Headers = Record<string, string> | undefined;
const getMemorial = (id: string, headers?: Headers, app: FastifyInstance = t.app) =>
  app.inject({ url: `/core/memorial/${id}`, headers });
const wall = (
  id: string,
  extra: Record<string, unknown> = {},
  headers?: Headers,
  app: FastifyInstance = t.app,
) =>
  app.inject({
    method: 'POST',
    url: '/core/memories/query-memorial',
    headers,
    payload: { memorialId: id, ...extra },
  });
const post = (url: string, headers: Headers, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as object });
const put = (url: string, headers: Headers, payload: unknown) =>
  t.app.inject({ method: 'PUT', url, headers, payload: payload as object });

async function publishMemory(memorialId: string, text: string) {
  const draft = await post('/core/memories/concept', c.owner.headers, {
    memorialId,
    yearLabel: 'Zomer 1990',
    text,
  });
  expect(draft.statusCode).toBe(201);
  const res = await post('/core/memories/publish', c.owner.headers, { id: draft.json().id });
  expect(res.statusCode).toBe(200);
  return res.json().id as string;
}

/** Reads twice: the second read must come from the cache (the first too, when `fresh` is false and it was warm). */
async function missThenHit(read: () => Promise<LightMyRequestResponse>, fresh = false) {
  const first = await read();
  const second = await read();
  expect(first.statusCode).toBe(200);
  expect(first.headers['x-cache']).toMatch(fresh ? /^miss$/ : /^(miss|hit)$/);
  expect(second.headers['x-cache']).toBe('hit');
  return { first, second };
}

describe('GET /core/memorial/{id} for anonymous visitors', () => {
  it('answers from the cache with exactly the bytes the handler produces', async () => {
    await publishMemory(m.publicId, 'Een eerste herinnering.');
    const { first, second } = await missThenHit(() => getMemorial(m.publicId), true);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['cache-control']).toBe('no-cache');

    const plain = await getMemorial(m.publicId, undefined, uncached);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['x-cache']).toBeUndefined();
    expect(plain.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(first.json()).toMatchObject({ id: m.publicId, role: 'visitor', accessCode: null });
  });

  it('answers 304 to a matching If-None-Match and 200 with the body otherwise', async () => {
    const { second } = await missThenHit(() => getMemorial(m.publicId));
    const etag = second.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);

    const notModified = await getMemorial(m.publicId, { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    expect(notModified.headers.etag).toBe(etag);

    const alsoWithList = await getMemorial(m.publicId, {
      'if-none-match': `"other", ${etag.replace(/^W\//, '')}`,
    });
    expect(alsoWithList.statusCode).toBe(304);

    const stale = await getMemorial(m.publicId, { 'if-none-match': 'W/"something-else"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(second.rawPayload)).toBe(true);
  });

  it('sends the same bytes compressed when the client accepts it', async () => {
    await publishMemory(m.publicId, 'x'.repeat(2000)); // the wall page must pass the compression threshold
    const plain = await wall(m.publicId);
    const br = await wall(m.publicId, {}, { 'accept-encoding': 'gzip, br' });
    const gzip = await wall(m.publicId, {}, { 'accept-encoding': 'gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(zlib.gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
  });

  it('is invalidated at once when the details are edited', async () => {
    await missThenHit(() => getMemorial(m.publicId));
    const before = (await getMemorial(m.publicId)).headers.etag;
    const res = await put('/core/memorial', c.owner.headers, { id: m.publicId, firstName: 'Pieter' });
    expect(res.statusCode).toBe(200);

    const after = await getMemorial(m.publicId);
    expect(after.headers['x-cache']).toBe('miss');
    expect(after.json().firstName).toBe('Pieter');
    expect(after.headers.etag).not.toBe(before);
    // The old ETag no longer matches: the browser gets the new details.
    expect((await getMemorial(m.publicId, { 'if-none-match': before as string })).statusCode).toBe(200);
  });

  it('is invalidated at once when someone lights a candle (a counter on the page)', async () => {
    const { second } = await missThenHit(() => getMemorial(m.publicId));
    const candles = second.json().counts.candles as number;
    const lit = await post(`/core/candles/${m.publicId}`, undefined, {
      kind: 'candle',
      name: 'Een bezoeker',
    });
    expect(lit.statusCode).toBe(201);
    const after = await getMemorial(m.publicId);
    expect(after.json().counts.candles).toBe(candles + 1);
  });

  it('never serves a private memorial to anonymous callers, also not from before the change', async () => {
    await missThenHit(() => getMemorial(m.publicId));
    await missThenHit(() => wall(m.publicId));
    const res = await put('/core/memorial', c.owner.headers, { id: m.publicId, visibility: 'private' });
    expect(res.statusCode).toBe(200);
    try {
      expect((await getMemorial(m.publicId)).statusCode).toBe(404);
      expect((await getMemorial(m.publicId)).statusCode).toBe(404);
      expect((await wall(m.publicId)).statusCode).toBe(404);
      // Members still see it (never through the cache).
      const owner = await getMemorial(m.publicId, c.owner.headers);
      expect(owner.statusCode).toBe(200);
      expect(owner.headers['x-cache']).toBeUndefined();
      // A private memorial is never cached in the first place.
      expect((await getMemorial(m.privateId)).statusCode).toBe(404);
      const again = await getMemorial(m.privateId);
      expect(again.statusCode).toBe(404);
      expect(again.headers['x-cache']).not.toBe('hit');
    } finally {
      expect(
        (await put('/core/memorial', c.owner.headers, { id: m.publicId, visibility: 'public' })).statusCode,
      ).toBe(200);
    }
    expect((await getMemorial(m.publicId)).statusCode).toBe(200);
  });

  it('never caches or serves cached answers to signed-in users or guest-token holders', async () => {
    await missThenHit(() => getMemorial(m.publicId));
    const owner = await getMemorial(m.publicId, c.owner.headers);
    expect(owner.headers['x-cache']).toBeUndefined();
    expect(owner.json().role).toBe('owner');
    expect(owner.json().accessCode).toEqual(expect.any(String));
    const guest = await guestToken(t, m.publicId, 'Gast');
    const asGuest = await getMemorial(m.publicId, guest.headers);
    expect(asGuest.headers['x-cache']).toBeUndefined();
    expect(asGuest.json().role).toBe('guest');
    // The anonymous answer is untouched by them.
    const anon = await getMemorial(m.publicId);
    expect(anon.headers['x-cache']).toBe('hit');
    expect(anon.json()).toMatchObject({ role: 'visitor', accessCode: null });
  });
});

describe('the first page of the wall for anonymous visitors', () => {
  it('is cached byte-identically and shows a newly published memory at once', async () => {
    const { first, second } = await missThenHit(() => wall(m.publicId, { limit: 30 }), true);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    const plain = await wall(m.publicId, { limit: 30 }, undefined, uncached);
    expect(plain.rawPayload.equals(first.rawPayload)).toBe(true);

    const id = await publishMemory(m.publicId, 'Net gepubliceerd.');
    const after = await wall(m.publicId, { limit: 30 });
    expect(after.headers['x-cache']).toBe('miss');
    expect(after.json().items[0].id).toBe(id);
  });

  it('keeps pages of different sizes apart and never caches later pages or members-only views', async () => {
    await publishMemory(m.publicId, 'Nog een.');
    const small = await missThenHit(() => wall(m.publicId, { limit: 1 }));
    expect(small.second.json().items).toHaveLength(1);
    const big = await wall(m.publicId, { limit: 50 });
    expect(big.json().items.length).toBeGreaterThan(1);

    const cursor = small.first.json().nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const next = await wall(m.publicId, { limit: 1, cursor });
    expect(next.statusCode).toBe(200);
    expect(next.headers['x-cache']).toBeUndefined();

    const members = await post('/core/memories/concept', c.contributor.headers, {
      memorialId: m.publicId,
      yearLabel: '2001',
      text: 'Alleen voor leden.',
      membersOnly: true,
    });
    await post('/core/memories/publish', c.contributor.headers, { id: members.json().id });
    const asMember = await wall(m.publicId, { limit: 50 }, c.contributor.headers);
    expect(asMember.headers['x-cache']).toBeUndefined();
    expect(asMember.json().items.map((m: { id: string }) => m.id)).toContain(members.json().id);
    const anon = await wall(m.publicId, { limit: 50 });
    expect(anon.json().items.map((m: { id: string }) => m.id)).not.toContain(members.json().id);
  });

  it('is invalidated when a memory is edited, hidden or deleted', async () => {
    const id = await publishMemory(m.publicId, 'Wordt gewijzigd.');
    await missThenHit(() => wall(m.publicId));
    expect((await put('/core/memories', c.owner.headers, { id, text: 'Is gewijzigd.' })).statusCode).toBe(
      200,
    );
    expect((await wall(m.publicId)).json().items.find((m: { id: string }) => m.id === id).text).toBe(
      'Is gewijzigd.',
    );

    await missThenHit(() => wall(m.publicId));
    expect((await put('/core/memories/status', c.owner.headers, { id, status: 'rejected' })).statusCode).toBe(
      200,
    );
    expect((await wall(m.publicId)).json().items.map((m: { id: string }) => m.id)).not.toContain(id);

    expect(
      (await t.app.inject({ method: 'DELETE', url: `/core/memories/${id}`, headers: c.owner.headers }))
        .statusCode,
    ).toBe(200);
    expect((await wall(m.publicId)).statusCode).toBe(200);
  });
});

describe('changes made elsewhere', () => {
  it('a change written by another process (or a background job) reaches this cache through NOTIFY', async () => {
    await missThenHit(() => getMemorial(m.publicId, undefined, other));
    await missThenHit(() => wall(m.publicId, {}, undefined, other));
    // Written by the first app: the second learns it only from the database's notification.
    const res = await put('/core/memorial', c.owner.headers, {
      id: m.publicId,
      quote: 'Voor altijd in ons hart.',
    });
    expect(res.statusCode).toBe(200);
    await eventually(
      async () =>
        (await getMemorial(m.publicId, undefined, other)).json().quote === 'Voor altijd in ons hart.',
      5000,
    );

    const id = await publishMemory(m.publicId, 'Via een ander proces.');
    await eventually(
      async () => (await wall(m.publicId, {}, undefined, other)).json().items[0]?.id === id,
      5000,
    );
  });

  it('a change straight in the database (no request at all) invalidates too', async () => {
    await missThenHit(() => getMemorial(m.publicId));
    await t.db.query(`UPDATE memorials SET death_place = 'Zwolle' WHERE id = $1`, [m.publicId]);
    await eventually(async () => (await getMemorial(m.publicId)).json().deathPlace === 'Zwolle', 5000);

    // An author renaming themselves changes the names shown on the wall.
    await publishMemory(m.publicId, 'Van Olga.');
    await missThenHit(() => wall(m.publicId));
    await t.db.query(`UPDATE users SET name = 'Olga Hernoemd' WHERE id = $1`, [c.owner.userId]);
    await eventually(
      async () => (await wall(m.publicId)).json().items[0].author.name === 'Olga Hernoemd',
      5000,
    );
  });
});

describe('over HTTP: cached reads answered before the framework', () => {
  it('serves the same bytes and headers as the framework path, 304s, and follows changes', async () => {
    const base = await other.listen({ port: 0, host: '127.0.0.1' });
    const url = `${base}/core/memorial/${m.publicId}`;
    const viaFramework = await getMemorial(m.publicId, undefined, other);
    expect(viaFramework.statusCode).toBe(200);

    const hit = await fetch(url);
    expect(hit.status).toBe(200);
    expect(hit.headers.get('x-cache')).toBe('hit');
    expect(
      Buffer.from(await hit.arrayBuffer()).equals(
        (await getMemorial(m.publicId, undefined, other)).rawPayload,
      ),
    ).toBe(true);
    for (const name of [
      'content-security-policy',
      'x-content-type-options',
      'referrer-policy',
      'etag',
      'content-type',
      'cache-control',
    ]) {
      expect(hit.headers.get(name)).toBe(String(viaFramework.headers[name]));
    }

    const notModified = await fetch(url, { headers: { 'if-none-match': hit.headers.get('etag')! } });
    expect(notModified.status).toBe(304);
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(viaFramework.rawPayload.length));
    const brotli = await fetch(url, { headers: { 'accept-encoding': 'br' } });
    expect(await brotli.json()).toEqual(viaFramework.json());

    // Signed in: never from the cache.
    const owner = await fetch(url, { headers: c.owner.headers });
    expect(owner.headers.get('x-cache')).toBeNull();
    expect(((await owner.json()) as { role: string }).role).toBe('owner');

    // A change through this very server: the next read is fresh.
    const edit = await fetch(`${base}/core/memorial`, {
      method: 'PUT',
      headers: { ...c.owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ id: m.publicId, birthPlace: 'Kampen' }),
    });
    expect(edit.status).toBe(200);
    const fresh = await fetch(url);
    expect(fresh.headers.get('x-cache')).toBe('miss');
    expect(((await fresh.json()) as { birthPlace: string }).birthPlace).toBe('Kampen');
    expect((await fetch(url)).headers.get('x-cache')).toBe('hit');
  });
});
