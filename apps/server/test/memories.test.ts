import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_TEXT_MAX, memoryPageSchema } from '@aandenken/contract';
import { mediaUrlSigner } from '../src/lib/media/url-signer.ts';
import { mediaRepository } from '../src/modules/media/repository.ts';
import { memoriesRepository } from '../src/modules/memories/repository.ts';
import { memoryService } from '../src/modules/memories/service.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import {
  cast,
  eventually,
  form,
  guestToken,
  jpeg,
  memorial,
  member,
  person,
  type Person,
} from './fixtures/content.ts';

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;

beforeAll(async () => {
  t = await createTestApp();
  c = await cast(t, 'mem');
});
afterAll(async () => t?.close());

type Headers = Record<string, string> | undefined;
const post = (url: string, headers: Headers, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as object });
const put = (url: string, headers: Headers, payload: unknown) =>
  t.app.inject({ method: 'PUT', url, headers, payload: payload as object });
const get = (url: string, headers?: Headers) => t.app.inject({ url, headers });
const del = (url: string, headers?: Headers) => t.app.inject({ method: 'DELETE', url, headers });

async function concept(headers: Headers, memorialId: string, extra: Record<string, unknown> = {}) {
  const res = await post('/core/memories/concept', headers, {
    memorialId,
    yearLabel: 'Zomer 1990',
    text: 'Samen aan zee.',
    ...extra,
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}
async function published(who: Person, memorialId: string, extra: Record<string, unknown> = {}) {
  const m = await concept(who.headers, memorialId, extra);
  const res = await post('/core/memories/publish', who.headers, { id: m.id });
  expect(res.statusCode).toBe(200);
  expect(res.json().status).toBe('published');
  return res.json();
}
const wallIds = async (memorialId: string, headers?: Headers) => {
  const res = await post('/core/memories/query-memorial', headers, { memorialId, limit: 50 });
  expect(res.statusCode).toBe(200);
  return res.json().items.map((m: { id: string }) => m.id) as string[];
};

describe('POST /core/memories/concept', () => {
  it('creates a draft that only its author sees', async () => {
    const m = await concept(c.contributor.headers, c.privateId, {
      text: '  Opa leerde me vissen.\r\nIn 1987.  ',
    });
    expect(m).toMatchObject({
      memorialId: c.privateId,
      yearLabel: 'Zomer 1990',
      text: 'Opa leerde me vissen.\nIn 1987.',
      status: 'concept',
      membersOnly: false,
      author: { kind: 'user', name: 'Carla Bijdrager', isYou: true },
      media: [],
      lovedBy: { count: 0, byMe: false, initials: [] },
      canEdit: true,
      canDelete: true,
      publishedAt: null,
    });
    expect((await get(`/core/memories/${m.id}`, c.contributor.headers)).statusCode).toBe(200);
    for (const h of [c.owner.headers, c.editor.headers, c.guest.headers, c.stranger.headers, undefined]) {
      const res = await get(`/core/memories/${m.id}`, h);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('MEMORY_NOT_FOUND');
    }
    expect(await wallIds(c.privateId, c.owner.headers)).not.toContain(m.id);
  });

  it('lets guests write (an invited guest, or a guest token with a name), not visitors or strangers', async () => {
    const invited = await concept(c.guest.headers, c.privateId);
    expect(invited.author).toEqual({ kind: 'user', name: 'Gijs Gast', isYou: true });

    const token = await guestToken(t, c.privateId);
    const nameless = await post('/core/memories/concept', token.headers, {
      memorialId: c.privateId,
      yearLabel: '1987',
      text: 'Hoi',
    });
    expect(nameless.statusCode).toBe(400);
    expect(nameless.json().fields).toEqual({ authorName: 'Vul je naam in' });
    const byToken = await concept(token.headers, c.privateId, { authorName: 'Tante Jet' });
    expect(byToken.author).toEqual({ kind: 'guest', name: 'Tante Jet', isYou: true });
    // A guest token of another memorial sees nothing here.
    const other = await guestToken(t, c.publicId, 'Buurman');
    expect(
      (
        await post('/core/memories/concept', other.headers, {
          memorialId: c.privateId,
          yearLabel: '1987',
          text: 'x',
        })
      ).statusCode,
    ).toBe(404);

    expect(
      (
        await post('/core/memories/concept', undefined, {
          memorialId: c.privateId,
          yearLabel: '1987',
          text: 'x',
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await post('/core/memories/concept', c.stranger.headers, {
          memorialId: c.privateId,
          yearLabel: '1987',
          text: 'x',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await post('/core/memories/concept', c.stranger.headers, {
          memorialId: c.publicId,
          yearLabel: '1987',
          text: 'x',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await post('/core/memories/concept', undefined, {
          memorialId: c.publicId,
          yearLabel: '1987',
          text: 'x',
        })
      ).statusCode,
    ).toBe(401);
  });

  it('validates with Dutch messages and stores nothing', async () => {
    const before = (await t.db.query('SELECT count(*)::int AS n FROM memories')).rows[0];
    const res = await post('/core/memories/concept', c.owner.headers, {
      memorialId: 'nee',
      yearLabel: ' ',
      text: 'x'.repeat(MEMORY_TEXT_MAX + 1),
      membersOnly: 'ja',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      memorialId: 'Gedenkpagina is ongeldig',
      yearLabel: 'Jaar of periode is verplicht',
      text: `De herinnering mag maximaal ${MEMORY_TEXT_MAX} tekens zijn`,
      membersOnly: 'Kies of alleen leden dit mogen zien',
    });
    const empty = await post('/core/memories/concept', c.owner.headers, {
      memorialId: c.privateId,
      yearLabel: '1990',
      text: '\u0000 \n ',
    });
    // A NUL character is refused everywhere (PostgreSQL text cannot hold it), before the text is trimmed.
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({ text: 'Bevat een ongeldig teken (NUL)' });
    expect((await t.db.query('SELECT count(*)::int AS n FROM memories')).rows[0]).toEqual(before);
  });

  it('refuses new memories on an archived memorial', async () => {
    const id = await memorial(t, c.owner, { status: 'archived' });
    const res = await post('/core/memories/concept', c.owner.headers, {
      memorialId: id,
      yearLabel: '1990',
      text: 'x',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('MEMORIAL_ARCHIVED');
  });
});

describe('POST /core/memories/publish and PUT /core/memories/status (moderation)', () => {
  it('publishes a contributor’s memory at once', async () => {
    const m = await published(c.contributor, c.privateId);
    expect(m.publishedAt).not.toBeNull();
    expect(await wallIds(c.privateId, c.guest.headers)).toContain(m.id);
    const audit = await t.db.query('SELECT action FROM memorial_audit_log WHERE target_id = $1', [m.id]);
    expect(audit.rows).toEqual([{ action: 'memory.published' }]);
    const again = await post('/core/memories/publish', c.contributor.headers, { id: m.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('MEMORY_INVALID_TRANSITION');
  });

  it('keeps a guest’s memory off the wall until an editor approves it, then shows it', async () => {
    const token = await guestToken(t, c.publicId, 'Tante Jet');
    const m = await concept(token.headers, c.publicId);
    expect(m.author.name).toBe('Tante Jet');
    const sent = await post('/core/memories/publish', token.headers, { id: m.id });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().status).toBe('pending');

    for (const h of [
      undefined,
      c.stranger.headers,
      c.guest.headers,
      c.contributor.headers,
      c.owner.headers,
    ]) {
      expect(await wallIds(c.publicId, h)).not.toContain(m.id);
    }
    expect((await get(`/core/memories/${m.id}`, undefined)).statusCode).toBe(404);
    expect((await get(`/core/memories/${m.id}`, c.contributor.headers)).statusCode).toBe(404);
    expect((await get(`/core/memories/${m.id}`, c.editor.headers)).json().status).toBe('pending');
    expect((await get(`/core/memories/${m.id}`, token.headers)).json().status).toBe('pending');

    const queue = await post('/core/memories/query-manage', c.editor.headers, {
      memorialId: c.publicId,
      status: 'pending',
    });
    expect(queue.statusCode).toBe(200);
    expect(queue.json().items.map((i: { id: string }) => i.id)).toContain(m.id);
    expect(queue.json().counts.pending).toBeGreaterThanOrEqual(1);

    expect(
      (await put('/core/memories/status', c.contributor.headers, { id: m.id, status: 'published' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await put('/core/memories/status', token.headers, { id: m.id, status: 'published' })).statusCode,
    ).toBe(403);
    const approved = await put('/core/memories/status', c.editor.headers, { id: m.id, status: 'published' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'published', publishedAt: expect.any(String) });
    for (const h of [undefined, c.stranger.headers, c.guest.headers, token.headers]) {
      expect(await wallIds(c.publicId, h)).toContain(m.id);
    }
    const audit = await t.db.query(
      'SELECT action, actor_kind FROM memorial_audit_log WHERE target_id = $1 ORDER BY seq',
      [m.id],
    );
    expect(audit.rows).toEqual([
      { action: 'memory.submitted', actor_kind: 'guest' },
      { action: 'memory.approved', actor_kind: 'user' },
    ]);

    // A guest's edit of the published memory goes back to the queue.
    const edited = await put('/core/memories', token.headers, { id: m.id, text: 'Aangepast verhaal.' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().status).toBe('pending');
    expect(await wallIds(c.publicId, undefined)).not.toContain(m.id);
  });

  it('lets an editor reject, the author resubmit, and an owner take a published memory down', async () => {
    const m = await concept(c.guest.headers, c.privateId);
    expect((await post('/core/memories/publish', c.guest.headers, { id: m.id })).json().status).toBe(
      'pending',
    );
    const rejected = await put('/core/memories/status', c.owner.headers, { id: m.id, status: 'rejected' });
    expect(rejected.json().status).toBe('rejected');
    expect(await wallIds(c.privateId, c.owner.headers)).not.toContain(m.id);
    const own = await post('/core/memories/query-own', c.guest.headers, { memorialId: c.privateId });
    expect(own.json().items.find((i: { id: string }) => i.id === m.id).status).toBe('rejected');
    expect((await post('/core/memories/publish', c.guest.headers, { id: m.id })).json().status).toBe(
      'pending',
    );

    const live = await published(c.contributor, c.privateId);
    expect(
      (await put('/core/memories/status', c.owner.headers, { id: live.id, status: 'rejected' })).statusCode,
    ).toBe(200);
    expect(await wallIds(c.privateId, c.guest.headers)).not.toContain(live.id);

    const draft = await concept(c.contributor.headers, c.privateId);
    expect(
      (await put('/core/memories/status', c.owner.headers, { id: draft.id, status: 'published' })).statusCode,
    ).toBe(404);
    expect(
      (await put('/core/memories/status', c.owner.headers, { id: live.id, status: 'pending' })).statusCode,
    ).toBe(400);
    expect((await post('/core/memories/publish', c.owner.headers, { id: draft.id })).statusCode).toBe(404);
    expect(
      (await post('/core/memories/publish', c.contributor.headers, { id: crypto.randomUUID() })).statusCode,
    ).toBe(404);
  });
});

describe('PUT /core/memories', () => {
  it('lets the author and editors edit, not other contributors', async () => {
    const m = await published(c.contributor, c.privateId);
    const own = await put('/core/memories', c.contributor.headers, { id: m.id, yearLabel: '1991' });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ yearLabel: '1991', text: 'Samen aan zee.', status: 'published' });
    const byEditor = await put('/core/memories', c.editor.headers, {
      id: m.id,
      text: 'Samen aan de Noordzee.',
    });
    expect(byEditor.json()).toMatchObject({
      text: 'Samen aan de Noordzee.',
      status: 'published',
      canEdit: true,
    });
    expect((await put('/core/memories', c.contributor2.headers, { id: m.id, text: 'Nee' })).statusCode).toBe(
      403,
    );
    expect((await put('/core/memories', c.guest.headers, { id: m.id, text: 'Nee' })).statusCode).toBe(403);
    expect((await put('/core/memories', c.stranger.headers, { id: m.id, text: 'Nee' })).statusCode).toBe(404);
    expect((await put('/core/memories', undefined, { id: m.id, text: 'Nee' })).statusCode).toBe(401);
    const nothing = await put('/core/memories', c.contributor.headers, { id: m.id });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().fields).toEqual({ text: 'Wijzig het jaar of de tekst' });
    const audit = await t.db.query(
      'SELECT action FROM memorial_audit_log WHERE target_id = $1 ORDER BY seq',
      [m.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['memory.published', 'memory.edited']);
  });
});

describe('PUT /core/memories/privacy', () => {
  it('hides a members-only memory from visitors and access-code guests, not from members', async () => {
    const m = await published(c.contributor, c.publicId);
    const token = await guestToken(t, c.publicId, 'Buurvrouw');
    expect(
      (await put('/core/memories/privacy', c.contributor2.headers, { id: m.id, membersOnly: true }))
        .statusCode,
    ).toBe(403);
    expect((await put('/core/memories/privacy', undefined, { id: m.id, membersOnly: true })).statusCode).toBe(
      401,
    );
    const res = await put('/core/memories/privacy', c.contributor.headers, { id: m.id, membersOnly: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().membersOnly).toBe(true);

    for (const h of [undefined, c.stranger.headers, token.headers]) {
      expect(await wallIds(c.publicId, h)).not.toContain(m.id);
      expect((await get(`/core/memories/${m.id}`, h)).statusCode).toBe(404);
    }
    for (const h of [c.guest.headers, c.contributor2.headers, c.owner.headers]) {
      expect(await wallIds(c.publicId, h)).toContain(m.id);
    }
    expect(
      (await put('/core/memories/privacy', c.editor.headers, { id: m.id, membersOnly: false })).json()
        .membersOnly,
    ).toBe(false);
    expect(await wallIds(c.publicId, undefined)).toContain(m.id);
  });
});

describe('DELETE /core/memories/{id}', () => {
  it('lets the author or an editor delete, nobody else', async () => {
    const a = await published(c.contributor, c.privateId);
    expect((await del(`/core/memories/${a.id}`, c.contributor2.headers)).statusCode).toBe(403);
    expect((await del(`/core/memories/${a.id}`, c.guest.headers)).statusCode).toBe(403);
    expect((await del(`/core/memories/${a.id}`, c.stranger.headers)).statusCode).toBe(404);
    expect((await del(`/core/memories/${a.id}`, c.contributor.headers)).json()).toEqual({
      id: a.id,
      deleted: true,
    });
    expect((await get(`/core/memories/${a.id}`, c.contributor.headers)).statusCode).toBe(404);
    const b = await published(c.contributor, c.privateId);
    expect((await del(`/core/memories/${b.id}`, c.editor.headers)).statusCode).toBe(200);
    const audit = await t.db.query(
      `SELECT action FROM memorial_audit_log WHERE target_id = $1 ORDER BY seq`,
      [b.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['memory.published', 'memory.deleted']);
    expect((await del(`/core/memories/${b.id}`, c.editor.headers)).statusCode).toBe(404);
  });
});

describe('POST /core/memories/query-memorial (the wall)', () => {
  it('pages newest first with a cursor, with authors, photos, loved-by, in a fixed number of statements', async () => {
    const owner = await person(t, 'wall-owner@example.nl', 'Wil Muur');
    const id = await memorial(t, owner, { visibility: 'public' });
    const fan = await person(t, 'fan@example.nl', 'Anna de Vries');
    await member(t, id, fan, 'guest');
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await published(owner, id, { yearLabel: `${1980 + i}` })).id);
    // Photos on some memories and loves on some, so the page has something to gather.
    for (const memoryId of made.slice(0, 4)) {
      for (let k = 0; k < 2; k++) await photo(owner, memoryId);
      expect((await post(`/core/memories/${memoryId}/love`, fan.headers, {})).statusCode).toBe(200);
    }

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: LightMyRequestResponse = await post('/core/memories/query-memorial', undefined, {
        memorialId: id,
        limit: 3,
        cursor,
      });
      expect(res.statusCode).toBe(200);
      const page = res.json();
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((m: { id: string }) => m.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());

    const first = (
      await post('/core/memories/query-memorial', fan.headers, { memorialId: id, limit: 50 })
    ).json().items;
    const withPhotos = first.find((m: { id: string }) => m.id === made[0]);
    expect(withPhotos.author).toEqual({ kind: 'user', name: 'Wil Muur', isYou: false });
    expect(withPhotos.media).toHaveLength(2);
    expect(withPhotos.media[0].url).not.toContain('sig='); // public memorial, published memory
    expect(withPhotos.lovedBy).toEqual({ count: 1, byMe: true, initials: ['AV'] });
    expect(withPhotos.canEdit).toBe(false);

    // Statements per page do not grow with the page size. The photos' variants are made in the background
    // first (the worker's statements count too), and the worker may still poll now and then: take the least.
    await settled();
    const statements = async (headers: Headers, limit: number) => {
      const counts: number[] = [];
      for (let i = 0; i < 5; i++) {
        const before = t.db.statementCount;
        const res = await post('/core/memories/query-memorial', headers, { memorialId: id, limit });
        expect(res.json().items).toHaveLength(limit);
        counts.push(t.db.statementCount - before);
      }
      return Math.min(...counts);
    };
    // Every memory from its card ("memory cards" below): one statement, one round trip to the database,
    // whatever the page size, for someone with no stake in any memory and for the fan, who loved some.
    const visitor = await person(t, 'wall-visitor@example.nl', 'Vera Muur');
    for (const who of [visitor, fan]) {
      expect(await statements(who.headers, 1)).toBe(1);
      expect(await statements(who.headers, 7)).toBe(1);
    }

    // The answer goes out with JSON.stringify (no zod pass): it must be exactly what the schema allows.
    for (const headers of [undefined, fan.headers, owner.headers]) {
      const body = (
        await post('/core/memories/query-memorial', headers, { memorialId: id, limit: 4 })
      ).json();
      expect(JSON.parse(JSON.stringify(memoryPageSchema.parse(body)))).toEqual(body);
      expect(body.items).toHaveLength(4);
    }
  });

  it('refuses a private memorial to outsiders, bad cursors and too large pages', async () => {
    expect(
      (await post('/core/memories/query-memorial', undefined, { memorialId: c.privateId })).statusCode,
    ).toBe(404);
    expect(
      (await post('/core/memories/query-memorial', c.stranger.headers, { memorialId: c.privateId })).json()
        .code,
    ).toBe('MEMORIAL_NOT_FOUND');
    const other = await guestToken(t, c.publicId);
    expect(
      (await post('/core/memories/query-memorial', other.headers, { memorialId: c.privateId })).statusCode,
    ).toBe(404);
    const bad = await post('/core/memories/query-memorial', c.owner.headers, {
      memorialId: c.privateId,
      cursor: 'xyz',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ cursor: 'Ongeldige cursor' });
    const big = await post('/core/memories/query-memorial', c.owner.headers, {
      memorialId: c.privateId,
      limit: 51,
    });
    expect(big.statusCode).toBe(400);
    expect(big.json().fields.limit).toBe('Aantal mag maximaal 50 zijn');
  });
});

describe('POST /core/memories/query-manage', () => {
  it('is for editors and owners: all but concepts, newest first, with counts per status', async () => {
    const id = await memorial(t, c.owner);
    await member(t, id, c.editor, 'editor');
    await member(t, id, c.contributor, 'contributor');
    await member(t, id, c.guest, 'guest');
    const live = await published(c.contributor, id);
    const waiting = await concept(c.guest.headers, id);
    await post('/core/memories/publish', c.guest.headers, { id: waiting.id });
    const draft = await concept(c.contributor.headers, id);
    const res = await post('/core/memories/query-manage', c.editor.headers, { memorialId: id });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((m: { id: string }) => m.id)).toEqual([waiting.id, live.id]);
    expect(res.json().items.map((m: { id: string }) => m.id)).not.toContain(draft.id);
    expect(res.json().counts).toEqual({ pending: 1, published: 1, rejected: 0 });
    expect(res.json().nextCursor).toBeNull();
    expect(
      (await post('/core/memories/query-manage', c.contributor.headers, { memorialId: id })).statusCode,
    ).toBe(403);
    expect(
      (await post('/core/memories/query-manage', c.stranger.headers, { memorialId: id })).statusCode,
    ).toBe(404);
    const badStatus = await post('/core/memories/query-manage', c.owner.headers, {
      memorialId: id,
      status: 'concept',
    });
    expect(badStatus.statusCode).toBe(400);
  });
});

describe('POST /core/memories/query-own', () => {
  it('lists the caller’s memories in every status, on one memorial or on all of theirs', async () => {
    const writer = await person(t, 'schrijver@example.nl', 'Sam Schrijver');
    const one = await memorial(t, writer);
    const two = await memorial(t, writer, { visibility: 'public' });
    const a = await concept(writer.headers, one);
    const b = await published(writer, two);
    const all = await post('/core/memories/query-own', writer.headers, {});
    expect(all.statusCode).toBe(200);
    expect(all.json().items.map((m: { id: string }) => m.id)).toEqual([b.id, a.id]);
    const onOne = await post('/core/memories/query-own', writer.headers, { memorialId: one });
    expect(onOne.json().items.map((m: { id: string }) => m.id)).toEqual([a.id]);
    expect((await post('/core/memories/query-own', c.stranger.headers, {})).json().items).toEqual([]);
    expect((await post('/core/memories/query-own', undefined, {})).statusCode).toBe(401);
    expect((await post('/core/memories/query-own', c.stranger.headers, { memorialId: one })).statusCode).toBe(
      404,
    );

    const token = await guestToken(t, c.publicId, 'Oom Kees');
    const g = await concept(token.headers, c.publicId);
    const mine = await post('/core/memories/query-own', token.headers, {});
    expect(mine.json().items.map((m: { id: string }) => m.id)).toEqual([g.id]);
  });
});

describe('POST/DELETE /core/memories/{id}/love', () => {
  it('lets members and guests love a published memory once, and take it back', async () => {
    const m = await published(c.contributor, c.publicId);
    const token = await guestToken(t, c.publicId, 'Jet Jansen');
    const first = await post(`/core/memories/${m.id}/love`, c.guest.headers, {});
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ id: m.id, lovedBy: { count: 1, byMe: true, initials: ['GG'] } });
    expect((await post(`/core/memories/${m.id}/love`, c.guest.headers, {})).json().lovedBy.count).toBe(1);
    const byGuest = await post(`/core/memories/${m.id}/love`, token.headers, {});
    expect(byGuest.json().lovedBy).toEqual({ count: 2, byMe: true, initials: ['GG', 'JJ'] });
    const seen = (await get(`/core/memories/${m.id}`, c.owner.headers)).json();
    expect(seen.lovedBy).toEqual({ count: 2, byMe: false, initials: ['GG', 'JJ'] });

    expect((await post(`/core/memories/${m.id}/love`, undefined, {})).statusCode).toBe(401);
    expect((await post(`/core/memories/${m.id}/love`, c.stranger.headers, {})).statusCode).toBe(403);
    const draft = await concept(c.contributor.headers, c.publicId);
    expect((await post(`/core/memories/${draft.id}/love`, c.contributor.headers, {})).statusCode).toBe(409);
    const hidden = await published(c.contributor, c.privateId);
    expect((await post(`/core/memories/${hidden.id}/love`, c.stranger.headers, {})).statusCode).toBe(404);

    const undone = await del(`/core/memories/${m.id}/love`, c.guest.headers);
    expect(undone.json().lovedBy).toEqual({ count: 1, byMe: false, initials: ['JJ'] });
  });

  it('counts every love when many arrive at once, and photos as they come and go (kept on the memory)', async () => {
    const m = await published(c.contributor, c.publicId);
    const guests = await Promise.all(
      Array.from({ length: 12 }, (_, i) => guestToken(t, c.publicId, `Gast ${i}`)),
    );
    const answers = await Promise.all(guests.map((g) => post(`/core/memories/${m.id}/love`, g.headers, {})));
    expect(answers.map((a) => a.statusCode)).toEqual(guests.map(() => 200));
    await Promise.all(guests.slice(0, 5).map((g) => del(`/core/memories/${m.id}/love`, g.headers)));
    const wall = async () =>
      (await post('/core/memories/query-memorial', undefined, { memorialId: c.publicId, limit: 50 }))
        .json()
        .items.find((x: { id: string }) => x.id === m.id);
    expect((await wall()).lovedBy.count).toBe(7);

    const photo = await form({ memoryId: m.id }, { data: await jpeg(), type: 'image/jpeg' });
    const up = await t.app.inject({
      method: 'POST',
      url: '/core/memory/medias',
      payload: photo.payload,
      headers: { ...c.contributor.headers, ...photo.headers },
    });
    expect(up.statusCode).toBe(201);
    expect((await wall()).media.map((x: { id: string }) => x.id)).toEqual([up.json().id]);
    expect((await del(`/core/memory/medias/${up.json().id}`, c.contributor.headers)).statusCode).toBe(200);
    expect((await wall()).media).toEqual([]);

    // The kept counts equal a recount for every memory in this database.
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memories mo
        WHERE love_count <> (SELECT count(*) FROM memory_loves l WHERE l.memory_id = mo.id)
           OR media_count <> (SELECT count(*) FROM media x WHERE x.memory_id = mo.id)`,
    );
    expect(rows[0]!.n).toBe(0);
  });
});

/**
 * The wall's read model (migration 093, `memoryService.wall`): each memory keeps its card, the memory as shown
 * to someone with no stake in it on an open page. A card must never show anything stale, and never stand in
 * for what a particular caller sees differently.
 */
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
      // Work due now; a job planned for later (the daily look for silent owners) is not under way.
      `SELECT count(*)::int AS n FROM jobs WHERE status = 'running' OR (status = 'queued' AND run_at <= now())`,
    );
    return rows[0]!.n === 0 ? true : null;
  });

describe("memory cards (the wall's read model: migration 093, decision 008)", () => {
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
      // Some changes below are written straight to the database, as another process would: the response
      // cache learns of them by NOTIFY a moment after commit (on PostgreSQL over another connection).
      // sync() waits for what has arrived; the anonymous wall must show the change shortly after.
      await t.app.deps.responseCache.sync();
      expect((await card()).card_version, String(what)).not.toBe(version);
      await expect
        .poll(async () => {
          try {
            check(await shown());
            return true;
          } catch {
            return false;
          }
        })
        .toBe(true);
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
      // eslint-disable-next-line no-restricted-syntax -- a lock wait shows nowhere but in time
      await new Promise((r) => setTimeout(r, 300)); // the job is now waiting for a lock
      release();
      await deleting; // a deadlock would abort one of the two (40P01)
      // The photo went with its memory: the job learns so as it does now (23503), and cleans up.
      expect(await jobSettled).toBe('23503');
      expect((await t.db.query('SELECT 1 FROM media WHERE id = $1', [mediaId])).rows).toEqual([]);
    },
  );
});
