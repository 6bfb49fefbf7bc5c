import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryPageSchema } from '@aandenken/contract';
import { mediaUrlSigner } from '../src/lib/media/url-signer.ts';
import { mediaRepository } from '../src/modules/media/repository.ts';
import { memoriesRepository } from '../src/modules/memories/repository.ts';
import { memoryService } from '../src/modules/memories/service.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import {
  eventually,
  form,
  guestToken,
  jpeg,
  memorial,
  member,
  person,
  type Person,
} from './fixtures/content.ts';

/**
 * The wall's read model (migration 093, `memoryService.wall`): each memory keeps its card, the memory as
 * shown to someone with no stake in it on an open page. A card must never show anything stale, and never
 * stand in for what a particular caller sees differently.
 */

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

type Headers = Record<string, string> | undefined;
const post = (url: string, headers: Headers, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as object });
const put = (url: string, headers: Headers, payload: unknown) =>
  t.app.inject({ method: 'PUT', url, headers, payload: payload as object });
const get = (url: string, headers?: Headers) => t.app.inject({ url, headers });
const del = (url: string, headers?: Headers) => t.app.inject({ method: 'DELETE', url, headers });

type Item = { id: string; [k: string]: unknown };

async function wall(memorialId: string, headers?: Headers): Promise<Item[]> {
  const res = await post('/core/memories/query-memorial', headers, { memorialId, limit: 50 });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  // Assembled from text: it must still be exactly what the schema allows.
  expect(JSON.parse(JSON.stringify(memoryPageSchema.parse(body)))).toEqual(body);
  return body.items;
}

/** Each memory on the wall is exactly what reading it alone (built field by field, no card) answers. */
async function expectWallAsRead(memorialId: string, headers?: Headers) {
  const items = await wall(memorialId, headers);
  for (const item of items) {
    const alone = await get(`/core/memories/${item.id}`, headers);
    expect(alone.statusCode).toBe(200);
    expect(item).toEqual(alone.json());
  }
  return items;
}

const cards = async (memorialId: string) =>
  (
    await t.db.query<{ id: string; card: string | null; card_version: string }>(
      'SELECT id, card, card_version FROM memories WHERE memorial_id = $1 ORDER BY created_at',
      [memorialId],
    )
  ).rows;

async function published(who: Person | { headers: Record<string, string> }, memorialId: string, extra = {}) {
  const res = await post('/core/memories/concept', who.headers, {
    memorialId,
    yearLabel: '1985',
    text: 'Samen aan zee.',
    ...extra,
  });
  expect(res.statusCode).toBe(201);
  const pub = await post('/core/memories/publish', who.headers, { id: res.json().id });
  expect(pub.statusCode).toBe(200);
  return pub.json() as Item;
}

async function photo(who: { headers: Record<string, string> }, memoryId: string) {
  const body = await form({ memoryId }, { data: await jpeg(), type: 'image/jpeg' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/core/memory/medias',
    payload: body.payload,
    headers: { ...who.headers, ...body.headers },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string };
}

/** The background job makes the other variants; wait until it is done, so nothing changes under a test. */
const settled = () =>
  eventually(async () => {
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE status IN ('queued', 'running')`,
    );
    return rows[0]!.n === 0 ? true : null;
  });

describe('memory cards', () => {
  it('are made on the first read, then answer alone: one statement, the same answer as without them', async () => {
    const owner = await person(t, 'cards-owner@example.nl', 'Wil Kaart');
    const id = await memorial(t, owner, { visibility: 'public' });
    const a = await published(owner, id);
    await photo(owner, a.id);
    await published(owner, id, { text: 'Met "aanhalingstekens", een ë en een emoji 🌷.' });
    await settled();

    expect((await cards(id)).every((r) => r.card === null)).toBe(true);
    await expectWallAsRead(id);
    const kept = await cards(id);
    expect(kept.every((r) => r.card !== null)).toBe(true);

    // Signed in (so past the response cache), with no stake in any memory: every card fits.
    const visitor = await person(t, 'cards-visitor@example.nl', 'Vera Bezoeker');
    await wall(id, visitor.headers); // a first request of a new account records it
    const before = t.db.statementCount;
    const again = await wall(id, visitor.headers);
    expect(t.db.statementCount - before).toBe(1);
    expect(again.map((m) => JSON.stringify(m))).toEqual(kept.map((r) => r.card).reverse());
  });

  it('show every change at once: text, privacy, loves, photos and their variants, captions, the author’s name', async () => {
    const owner = await person(t, 'cards-change@example.nl', 'Els Wijzig');
    const id = await memorial(t, owner, { visibility: 'public' });
    const fan = await person(t, 'cards-fan@example.nl', 'Piet Fan');
    await member(t, id, fan, 'guest');
    const m = await published(owner, id);
    const other = await published(owner, id, { yearLabel: '1990' });
    await settled();
    await expectWallAsRead(id); // cards made

    const card = async () => (await cards(id)).find((r) => r.id === m.id)!;
    const shown = async () => (await wall(id)).find((x) => x.id === m.id)!;
    const change = async (what: () => Promise<unknown>, check: (item: Item) => void) => {
      const version = (await card()).card_version;
      await what();
      expect((await card()).card_version, String(what)).not.toBe(version);
      check(await shown());
      await expectWallAsRead(id);
      expect((await card()).card).not.toBeNull(); // made again
    };

    await change(
      async () =>
        expect((await put('/core/memories', owner.headers, { id: m.id, text: 'Nieuw.' })).statusCode).toBe(
          200,
        ),
      (item) => expect(item.text).toBe('Nieuw.'),
    );
    await change(
      async () => expect((await post(`/core/memories/${m.id}/love`, fan.headers, {})).statusCode).toBe(200),
      (item) => expect(item.lovedBy).toEqual({ count: 1, byMe: false, initials: ['PF'] }),
    );
    await change(
      () => t.db.query('UPDATE memory_loves SET name = $2 WHERE memory_id = $1', [m.id, 'Zus Zon']),
      (item) => expect(item.lovedBy).toEqual({ count: 1, byMe: false, initials: ['ZZ'] }),
    );
    await change(
      async () => expect((await del(`/core/memories/${m.id}/love`, fan.headers)).statusCode).toBe(200),
      (item) => expect(item.lovedBy).toEqual({ count: 0, byMe: false, initials: [] }),
    );
    let mediaId = '';
    await change(
      async () => {
        mediaId = (await photo(owner, m.id)).id;
        await settled();
      },
      (item) => expect((item.media as Item[]).map((x) => x.id)).toEqual([mediaId]),
    );
    await change(
      () => t.db.query('UPDATE media SET caption = $2 WHERE id = $1', [mediaId, 'Op het strand']),
      (item) => expect((item.media as { caption: string }[])[0]!.caption).toBe('Op het strand'),
    );
    const variantNames = async () =>
      (
        await t.db.query<{ name: string }>(
          'SELECT name FROM media_variants WHERE media_id = $1 ORDER BY name',
          [mediaId],
        )
      ).rows.map((r) => r.name);
    const dropped = (await variantNames()).find((n) => n.endsWith('.jpg'))!;
    await change(
      () => t.db.query('DELETE FROM media_variants WHERE media_id = $1 AND name = $2', [mediaId, dropped]),
      (item) => {
        const names = (item.media as { variants: { name: string }[] }[])[0]!.variants.map((v) => v.name);
        expect(names).not.toContain(dropped);
        expect(names.length).toBeGreaterThan(0);
      },
    );
    await change(
      async () => expect((await del(`/core/memory/medias/${mediaId}`, owner.headers)).statusCode).toBe(200),
      (item) => expect(item.media).toEqual([]),
    );
    await change(
      () => t.db.query('UPDATE users SET name = $2 WHERE id = $1', [owner.userId, 'Els Anders']),
      (item) => expect(item.author).toEqual({ kind: 'user', name: 'Els Anders', isYou: false }),
    );
    // Members only: gone for visitors at once (and the other memory's card was never touched).
    const otherVersion = (await cards(id)).find((r) => r.id === other.id)!.card_version;
    expect(
      (await put('/core/memories/privacy', owner.headers, { id: m.id, membersOnly: true })).statusCode,
    ).toBe(200);
    expect((await wall(id)).map((x) => x.id)).toEqual([other.id]);
    expect((await cards(id)).find((r) => r.id === other.id)!.card_version).toBe(otherVersion);
    const forFan = await expectWallAsRead(id, fan.headers);
    expect(forFan.find((x) => x.id === m.id)!.membersOnly).toBe(true);
  });

  it('are made into what each caller sees: author, editor, own love, signed links; own photos read in full', async () => {
    const owner = await person(t, 'cards-own@example.nl', 'Olga Eigen');
    const id = await memorial(t, owner, { visibility: 'public' });
    const writer = await person(t, 'cards-writer@example.nl', 'Wim Schrijver');
    const fan = await person(t, 'cards-lover@example.nl', 'Lies Mooi');
    const helper = await person(t, 'cards-helper@example.nl', 'Henk Hulp');
    await member(t, id, writer, 'contributor');
    await member(t, id, fan, 'guest');
    await member(t, id, helper, 'editor');
    const m = await published(writer, id);
    // An editor adds a photo to someone else's memory, then is an editor no longer.
    const helperPhoto = await photo(helper, m.id);
    await member(t, id, helper, 'contributor');
    expect((await post(`/core/memories/${m.id}/love`, fan.headers, {})).statusCode).toBe(200);
    await settled();
    await expectWallAsRead(id); // cards made
    expect((await cards(id)).every((r) => r.card !== null)).toBe(true);

    const mine = async (headers: Headers) =>
      (await expectWallAsRead(id, headers)).find((x) => x.id === m.id)!;
    const statements = async (headers: Headers) => {
      await wall(id, headers);
      const before = t.db.statementCount;
      await wall(id, headers);
      return t.db.statementCount - before;
    };
    expect((await mine(writer.headers)).author).toMatchObject({ isYou: true });
    expect((await mine(writer.headers)).canEdit).toBe(true);
    expect((await mine(owner.headers)).canDelete).toBe(true);
    expect((await mine(fan.headers)).lovedBy).toMatchObject({ count: 1, byMe: true });
    // Made for them from the card: still one statement.
    for (const who of [writer, owner, fan]) expect(await statements(who.headers)).toBe(1);
    // The card does not say who uploaded a photo: a memory with the caller's own is read in full.
    const forHelper = await mine(helper.headers);
    expect(forHelper.canEdit).toBe(false);
    expect((forHelper.media as { id: string; ownUpload: boolean }[])[0]).toMatchObject({
      id: helperPhoto.id,
      ownUpload: true,
    });
    expect(await statements(helper.headers)).toBe(2);
    const anonymous = await mine(undefined);
    expect(anonymous).toMatchObject({ canEdit: false, lovedBy: { byMe: false }, author: { isYou: false } });
    expect((anonymous.media as { ownUpload: boolean; url: string }[])[0]).toMatchObject({ ownUpload: false });

    // A private page: every photo link is signed for the caller, never the card's open one.
    await t.db.query(`UPDATE memorials SET visibility = 'private' WHERE id = $1`, [id]);
    const guest = await guestToken(t, id, 'Gast');
    const signed = (await mine(guest.headers)).media as {
      url: string;
      srcSet: { webp: string; jpeg: string };
      variants: { url: string }[];
      urlsExpireAt: string | null;
    }[];
    expect(signed[0]!.url).toContain('sig=');
    expect(signed[0]!.srcSet.webp).toContain('sig=');
    expect(signed[0]!.variants.every((v) => v.url.includes('sig='))).toBe(true);
    expect(signed[0]!.urlsExpireAt).not.toBeNull();
    // One for the wall; the other checks the guest's token against the memorial's current access code.
    expect(await statements(guest.headers)).toBe(2);
    // …and each link opens the photo.
    const link = await get(signed[0]!.url.replace(t.config.API_URL, ''));
    expect(link.statusCode).toBe(200);
  });

  it('are kept only when made from the memory as it still is, and name the address their links use', async () => {
    const owner = await person(t, 'cards-race@example.nl', 'Rik Race');
    const id = await memorial(t, owner, { visibility: 'public' });
    const m = await published(owner, id);
    await photo(owner, m.id);
    await settled();
    const repo = memoriesRepository(t.db);
    const viewer = { userId: null, guestTokenId: null };

    // Read, then the memory changes, then the card made from the read arrives: it is not kept.
    const [row] = await repo.wallRows([m.id], viewer);
    await t.db.query('UPDATE memories SET body = $2 WHERE id = $1', [m.id, 'Intussen gewijzigd.']);
    await repo.storeCards('test-key', [{ id: m.id, card: '{"stale":true}', version: row!.card_version }]);
    expect((await cards(id))[0]!.card).toBeNull();

    // Made from the memory as it is: kept, and a second one for the same version does not replace it.
    const [fresh] = await repo.wallRows([m.id], viewer);
    await repo.storeCards('test-key', [{ id: m.id, card: '{"first":true}', version: fresh!.card_version }]);
    await repo.storeCards('test-key', [{ id: m.id, card: '{"second":true}', version: fresh!.card_version }]);
    expect((await cards(id))[0]!.card).toBe('{"first":true}');
    // Keeping a card is no change: the version stays.
    expect((await cards(id))[0]!.card_version).toBe(fresh!.card_version);

    // A card in another format (here: another API address in its links) is not used, but made anew.
    const anonymous = { kind: 'anonymous' } as const;
    const elsewhere = memoryService({
      db: t.db,
      signer: mediaUrlSigner({ db: t.db, apiUrl: 'https://elders.example' }),
    });
    const page = JSON.parse(
      JSON.stringify(await elsewhere.wall(anonymous, { memorialId: id, limit: 10, cursor: undefined })),
    ) as { items: { text: string; media: { url: string }[] }[] };
    expect(page.items[0]!.text).toBe('Intussen gewijzigd.');
    expect(page.items[0]!.media[0]!.url).toMatch(/^https:\/\/elders\.example\/core\/media\//);
    expect((await cards(id))[0]!.card).toContain('https://elders.example/core/media/');
    // And the app's own address gets its own card again.
    const ours = await expectWallAsRead(id);
    expect((ours[0]!.media as { url: string }[])[0]!.url).toContain(`${t.config.API_URL}/core/media/`);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'a photo finished while its memory is deleted: the two wait for each other in one order, never deadlock',
    async () => {
      const owner = await person(t, 'cards-lock@example.nl', 'Lot Slot');
      const id = await memorial(t, owner, { visibility: 'public' });
      const m = await published(owner, id);
      const mediaId = (await photo(owner, m.id)).id;
      await settled();
      // The delete holds the memory's lock (as `DELETE FROM memories` takes it before its photos'); the
      // background job then stores a variant and the photo's status, which changes the memory too.
      let locked!: () => void;
      const lockTaken = new Promise<void>((r) => (locked = r));
      let release!: () => void;
      const go = new Promise<void>((r) => (release = r));
      const deleting = t.db.transaction(async (tx) => {
        await tx.query('SELECT 1 FROM memories WHERE id = $1 FOR UPDATE', [m.id]);
        locked();
        await go;
        await tx.query('DELETE FROM memories WHERE id = $1', [m.id]);
      });
      await lockTaken;
      const job = mediaRepository(t.db).finishProcessing(mediaId, 'ready', [
        {
          name: 'w2048.jpg',
          contentType: 'image/jpeg',
          width: 2048,
          height: 1536,
          sizeBytes: 1,
          sha256: '0'.repeat(64),
          storageKey: `${mediaId}/w2048.jpg`,
        },
      ]);
      const jobSettled = job.then(
        () => null,
        (err: { code?: string }) => err.code,
      );
      await new Promise((r) => setTimeout(r, 300)); // the job is now waiting for a lock
      release();
      await deleting; // a deadlock would abort one of the two (40P01)
      // The photo went with its memory: the job learns so as it does now (23503), and cleans up.
      expect(await jobSettled).toBe('23503');
      expect((await t.db.query('SELECT 1 FROM media WHERE id = $1', [mediaId])).rows).toEqual([]);
    },
  );
});
