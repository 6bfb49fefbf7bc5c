import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleMemorialIds, EXAMPLES_SYSTEM_USER_ID } from '@aandenken/contract';
import { loadConfig } from '../src/config.ts';
import { exampleMemorials } from '../src/modules/examples/content.ts';
import { seedExamples } from '../src/modules/examples/seed.ts';
import { form, jpeg } from './fixtures/content.ts';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';

let t: TestContext;
const log = { info: () => {}, warn: () => {} };
const johanna = exampleMemorials.find((e) => e.key === 'johanna')!;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });

describe('SEED_EXAMPLES', () => {
  it('is on by default and can be switched off', () => {
    expect(loadConfig({}).SEED_EXAMPLES).toBe(true);
    expect(loadConfig({ SEED_EXAMPLES: 'false' }).SEED_EXAMPLES).toBe(false);
    expect(() => loadConfig({ SEED_EXAMPLES: 'nee' })).toThrow(/SEED_EXAMPLES/);
  });
});

describe('seedExamples', () => {
  // Rendering and storing some twenty photos takes a while on a busy machine.
  it(
    'creates the three public example memorials with biography, memories, candles and photos',
    { timeout: 300_000 },
    async () => {
      const result = await seedExamples({ ...t.app.deps, log });
      expect(result.created.sort()).toEqual(Object.values(exampleMemorialIds).sort());

      for (const example of exampleMemorials) {
        // Anyone may read it without signing in.
        const res = await get(`/core/memorial/${example.id}`);
        expect(res.statusCode).toBe(200);
        const m = res.json();
        expect(m).toMatchObject({
          firstName: example.firstName,
          lastName: example.lastName,
          birthDate: example.birthDate,
          deathDate: example.deathDate,
          deathPlace: example.deathPlace,
          quote: example.quote,
          status: 'active',
          visibility: 'public',
          role: 'visitor',
          accessCode: null,
        });
        expect(m.counts.memories).toBe(example.memories.length);
        expect(m.counts.media).toBe(example.gallery.length);
        expect(m.counts.candles).toBe(example.candles.length);
        expect(example.memories.length).toBeGreaterThanOrEqual(6);
        expect(example.memories.length).toBeLessThanOrEqual(12);

        const bio = (await get(`/core/memorial/biography/${example.id}`)).json();
        expect(bio.html).toContain('<h2>');
        expect(bio.html).not.toMatch(/<script|style=|on\w+=/i);

        // The gallery: the first photo is the cover, in the order of the content, with captions.
        const gallery = (await get(`/core/memorial-media/all/${example.id}`)).json().items;
        expect(gallery.map((g: { caption: string }) => g.caption)).toEqual(
          example.gallery.map((g) => g.caption),
        );
        expect(m.coverMediaId).toBe(gallery[0].id);

        // The wall: newest first, with the authors' names, loves and photos.
        const wall = (
          await post('/core/memories/query-memorial', { memorialId: example.id, limit: 50 })
        ).json();
        const sorted = [...example.memories].sort((a, b) => a.daysAgo - b.daysAgo);
        expect(wall.items.map((w: { author: { name: string } }) => w.author.name)).toEqual(
          sorted.map((s) => s.author),
        );
        expect(wall.items[0].lovedBy.count).toBe(sorted[0]!.lovedBy.length);
        expect(wall.items[0].lovedBy.initials.length).toBeGreaterThan(0);
        const withPhotos = wall.items.filter((w: { media: unknown[] }) => w.media.length > 0).length;
        expect(withPhotos).toBe(example.memories.filter((e) => e.photos?.length).length);

        const candles = (await post('/core/candles/query', { memorialId: example.id, limit: 5 })).json();
        expect(candles.counts.total).toBe(example.candles.length);
        expect(candles.counts.flower).toBe(example.candles.filter((c) => c.kind === 'flower').length);
        expect(candles.items[0].name).toBe(
          [...example.candles].sort((a, b) => a.hoursAgo - b.hoursAgo)[0]!.name,
        );
      }
    },
  );

  it('serves the photos as real images through the media pipeline', async () => {
    const gallery = (await get(`/core/memorial-media/all/${johanna.id}`)).json().items;
    const url = new URL(gallery[0].url);
    const bytes = await get(url.pathname + url.search);
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/webp');
    const meta = await sharp(bytes.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(1280);
    expect(meta.exif).toBeUndefined();
  });

  it('is owned by the system user and nobody else can manage it', async () => {
    const { rows } = await t.db.query<{ user_id: string; role: string }>(
      'SELECT user_id, role FROM memorial_members WHERE memorial_id = $1',
      [johanna.id],
    );
    expect(rows).toEqual([{ user_id: EXAMPLES_SYSTEM_USER_ID, role: 'owner' }]);
    const stranger = await issueUserToken(t, { email: 'vreemde-voorbeeld@example.nl' });
    const res = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial',
      payload: { id: johanna.id, quote: 'Overgenomen' },
      headers: { authorization: `Bearer ${stranger.token}` },
    });
    expect(res.statusCode).toBe(403);
  });

  it('is idempotent: a second start changes nothing', async () => {
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM memories')).rows[0]!.n;
    const media = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM media')).rows[0]!.n;
    const result = await seedExamples({ ...t.app.deps, log });
    expect(result.created).toEqual([]);
    expect(result.skipped).toHaveLength(3);
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM memories')).rows[0]!.n).toBe(
      before,
    );
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM media')).rows[0]!.n).toBe(media);
  });

  it('makes an example again when an earlier start stopped halfway', { timeout: 180_000 }, async () => {
    await t.db.query(`UPDATE memorials SET status = 'concept' WHERE id = $1`, [johanna.id]);
    await t.db.query(`DELETE FROM memories WHERE memorial_id = $1 AND year_label = '2023'`, [johanna.id]);
    const result = await seedExamples({ ...t.app.deps, log });
    expect(result.created).toEqual([johanna.id]);
    const m = (await get(`/core/memorial/${johanna.id}`)).json();
    expect(m.status).toBe('active');
    expect(m.counts.memories).toBe(johanna.memories.length);
    expect(m.counts.media).toBe(johanna.gallery.length);
  });
});

describe('PUT /core/memorial coverMediaId', () => {
  it('sets a photo of the own gallery as cover, clears it with null, and refuses other media', async () => {
    const owner = await issueUserToken(t, { email: 'eigenaar-omslag@example.nl', name: 'Eigenaar' });
    const headers = { authorization: `Bearer ${owner.token}` };
    const created = await post('/core/memorial/concept', { firstName: 'Anna', lastName: 'Omslag' }, headers);
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const foreign = (await get(`/core/memorial-media/all/${johanna.id}`)).json().items[1].id as string;

    const refused = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial',
      payload: { id, coverMediaId: foreign },
      headers,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.coverMediaId).toBeDefined();
    expect((await get(`/core/memorial/${id}`, headers)).json().coverMediaId).toBeNull();

    const body = await form({ memorialId: id }, { data: await jpeg(), type: 'image/jpeg', name: 'foto.jpg' });
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/core/memorial-media',
      payload: body.payload,
      headers: { ...headers, ...body.headers },
    });
    expect(uploaded.statusCode).toBe(201);
    const own = uploaded.json().id as string;

    const set = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial',
      payload: { id, coverMediaId: own },
      headers,
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().coverMediaId).toBe(own);
    const cleared = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial',
      payload: { id, coverMediaId: null },
      headers,
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().coverMediaId).toBeNull();
  });
});
