/**
 * THE AUTHORIZATION MATRIX: every call of the memorial domain × every kind of caller → expected status,
 * generated from the one table below. Every /core route the app registers (collected with Fastify's
 * onRoute hook, whether documented in /core/openapi.json or not) must have a row here unless it is
 * listed in `outsideMatrix` with a reason, so a new call cannot be forgotten.
 *
 * Adding a call: append rows to `matrix` (sections are marked below). Each row builds its request from a
 * `World`: one active memorial (private unless `visibility: 'public'`) with an owner, editor,
 * contributor and guest member, a guest token for it and one for another memorial, an open guest
 * invite and a one-time link token. Rows that change or use up something set `fresh: true` and get
 * a new World per cell. Set-up beyond that goes in `prepare`, which runs as the owner before the
 * request and may return values for `request`.
 */
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { apiPaths, apiPrefix } from '@aandenken/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveFfmpeg } from '../src/lib/media/video.ts';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { form, jpeg } from './fixtures/content.ts';
import {
  auth,
  createMemorial,
  createUsers,
  createWorld,
  guestTokenFor,
  personas,
  type Persona,
  type Users,
  type World,
} from './memorial-fixtures.ts';
import {
  candle,
  galleryIds,
  galleryPhoto,
  memory,
  memoryPhoto,
  multipartRequest,
  randomAddress,
  uploadBody,
} from './fixtures/content-matrix.ts';

type Expect = Record<Persona, number>;
interface Row {
  /** 'METHOD /core/path' exactly as in the OpenAPI document ({param} style). */
  call: string;
  /** A variant of the call (several rows may test one call). */
  variant?: string;
  visibility?: 'private' | 'public';
  fresh?: boolean;
  /** The row changes the callers themselves (deletes their account): a fresh World with its own users. */
  ownUsers?: boolean;
  prepare?: (ctx: { t: TestContext; w: World }) => Promise<Record<string, string>>;
  request: (w: World, prepared: Record<string, string>) => InjectOptions;
  expect: Expect;
}

// Columns:                    anonymous guestThis guestOther stranger guest contributor editor owner
const e = (...s: [number, number, number, number, number, number, number, number]): Expect =>
  Object.fromEntries(personas.map((p, i) => [p, s[i]!])) as Expect;

/** Who may see a private memorial: its members and its guest token. */
const read = e(404, 200, 404, 404, 200, 200, 200, 200);
/** Owners and editors manage. */
const manage = (ok: number) => e(401, 403, 404, 404, 403, 403, ok, ok);
/** Only owners. */
const ownerOnly = (ok: number) => e(401, 403, 404, 404, 403, 403, 403, ok);
/** Signed-in users, whoever they are. */
const signedIn = (ok: number) => e(401, 401, 401, ok, ok, ok, ok, ok);
const everyone = (ok: number) => e(ok, ok, ok, ok, ok, ok, ok, ok);
/** A visitor's memory, each to an address of its own (mails to one address are limited a day). */
const visitorMemory = () => ({
  name: 'Bea Bezoeker',
  email: `bezoeker-${randomBytes(4).toString('hex')}@example.nl`,
  yearLabel: '1990',
  text: 'Een herinnering.',
});

/**
 * Personal answers are kept by no browser or proxy: every API answer says `no-store` unless its route
 * chose otherwise, which only the response cache's anonymous reads (an ETag, `no-cache`: revalidated) and
 * the bytes of photos, music and logos do; those of a private page only for the one browser.
 */
function expectCacheControl(
  label: string,
  res: LightMyRequestResponse,
  anonymous: boolean,
  privatePage: boolean,
) {
  const cacheControl = String(res.headers['cache-control'] ?? '');
  if (/^(image|audio|video)\//.test(String(res.headers['content-type']))) {
    expect(cacheControl, label).not.toBe('');
    if (privatePage) expect(cacheControl, label).toMatch(/\b(private|no-store)\b/);
    return;
  }
  if (anonymous && res.headers.etag && cacheControl === 'no-cache') return;
  expect(cacheControl, label).toContain('no-store');
}

/** A service of the funeral day on the World's memorial, straight in the database, open for RSVPs. */
const serviceBody = {
  kind: 'uitvaart',
  date: '2099-06-01',
  startTime: '14:00',
  placeName: 'Aula',
  address: 'Kerkstraat 1, Utrecht',
  rsvpOpen: true,
};
async function memorialService(t: TestContext, w: World): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO memorial_services (memorial_id, kind, service_date, starts_at, place_name, address, rsvp_open)
     VALUES ($1, 'uitvaart', '2099-06-01', '14:00', 'Aula', 'Kerkstraat 1, Utrecht', true) RETURNING id`,
    [w.memorialId],
  );
  return rows[0]!.id;
}

/** The World's memorial's guestbook, open, straight in the database; its token and one entry. */
async function openGuestbook(t: TestContext, w: World): Promise<{ token: string; entryId: string }> {
  const { rows } = await t.db.query<{ token: string }>(
    `INSERT INTO memorial_guestbooks (memorial_id, token) VALUES ($1, $2)
     ON CONFLICT (memorial_id) DO UPDATE SET open = true RETURNING token`,
    [w.memorialId, randomBytes(16).toString('base64url')],
  );
  const entry = await t.db.query<{ id: string }>(
    `INSERT INTO guestbook_entries (memorial_id, name) VALUES ($1, 'Tante Jet') RETURNING id`,
    [w.memorialId],
  );
  return { token: rows[0]!.token, entryId: entry.rows[0]!.id };
}

/** A kaarsjesmoment on the World's memorial, straight in the database, far ahead. */
const momentBody = { date: '2099-06-01', startTime: '20:00' };
async function candleMoment(t: TestContext, w: World): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO candle_moments (memorial_id, moment_date, starts_at, starts_at_instant, ends_at_instant)
     VALUES ($1, '2099-06-01', '20:00', '2099-06-01T18:00:00Z', '2099-06-01T19:00:00Z') RETURNING id`,
    [w.memorialId],
  );
  return rows[0]!.id;
}

/** A real two-second MP3 made by the server's own ffmpeg (once). */
let toneCache: Promise<Buffer> | undefined;
function toneMp3(): Promise<Buffer> {
  return (toneCache ??= (async () => {
    const file = path.join(os.tmpdir(), `matrix-tone-${process.pid}.mp3`);
    await new Promise<void>((resolve, reject) =>
      execFile(
        resolveFfmpeg()!,
        ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=2', '-c:a', 'libmp3lame', file],
        (err) => (err ? reject(err) : resolve()),
      ),
    );
    const data = await fs.readFile(file);
    await fs.rm(file, { force: true });
    return data;
  })());
}

/** The World's presentation music, straight in the database and storage (once per World). */
async function storedMusic(t: TestContext, w: World): Promise<string> {
  const { rows: have } = await t.db.query<{ id: string }>(
    'SELECT id::text FROM presentation_music WHERE memorial_id = $1',
    [w.memorialId],
  );
  if (have[0]) return have[0].id;
  const id = crypto.randomUUID();
  const data = await toneMp3();
  await t.app.deps.storage.put(`${id}/music`, data);
  await t.db.query(
    `INSERT INTO presentation_music (id, memorial_id, storage_key, content_type, size_bytes, sha256, duration_ms)
     VALUES ($1, $2, $3, 'audio/mpeg', $4, 'x', 2000)`,
    [id, w.memorialId, `${id}/music`, data.length],
  );
  return id;
}

/** A planned future message on the World's memorial, straight in the database. */
const futureMessageBody = {
  subject: 'Voor later',
  body: 'Een bericht voor later.',
  sendDate: `${new Date().getUTCFullYear() + 1}-06-01`,
  sendTime: '09:00',
};
async function futureMessage(t: TestContext, w: World): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO future_messages (memorial_id, subject, body, send_at) VALUES ($1, 'Voor later', 'Tekst', '2099-06-01T08:00:00Z') RETURNING id`,
    [w.memorialId],
  );
  return rows[0]!.id;
}
/** A confirmed 'Blijf verbonden' sign-up on the World's memorial, straight in the database. */
async function signUp(t: TestContext, w: World): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO memorial_subscriptions (memorial_id, email, kinds, confirmed_at, access_via)
     VALUES ($1, $2, '{messages}', now(), 'public') RETURNING id`,
    [w.memorialId, `verbonden-${randomBytes(4).toString('hex')}@example.nl`],
  );
  return rows[0]!.id;
}

/** A memorial's readable address (migration 131). */
async function slugOf(t: TestContext, memorialId: string): Promise<string> {
  const { rows } = await t.db.query<{ slug: string }>('SELECT slug FROM memorials WHERE id = $1', [
    memorialId,
  ]);
  return rows[0]!.slug;
}

const matrix: Row[] = [
  // ── memorials ────────────────────────────────────────────────────────────────────────────────
  {
    call: 'POST /core/memorial/concept',
    request: () => ({
      method: 'POST',
      url: '/core/memorial/concept',
      payload: { firstName: 'Piet', lastName: 'Smit' },
    }),
    expect: signedIn(201),
  },
  {
    call: 'GET /core/memorial/{id}',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}` }),
    expect: read,
  },
  {
    call: 'GET /core/memorial/{id}',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}` }),
    expect: everyone(200),
  },
  {
    call: 'GET /core/memorial/by-slug/{slug}',
    prepare: async ({ t, w }) => ({ slug: await slugOf(t, w.memorialId) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/memorial/by-slug/${p.slug}` }),
    expect: read,
  },
  {
    call: 'GET /core/memorial/by-slug/{slug}',
    variant: 'public memorial',
    visibility: 'public',
    prepare: async ({ t, w }) => ({ slug: await slugOf(t, w.memorialId) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/memorial/by-slug/${p.slug}` }),
    expect: everyone(200),
  },
  {
    call: 'PUT /core/memorial',
    variant: 'search engines: the owner only',
    visibility: 'public',
    request: (w) => ({
      method: 'PUT',
      url: '/core/memorial',
      payload: { id: w.memorialId, searchEngines: true },
    }),
    expect: e(401, 403, 403, 403, 403, 403, 403, 200),
  },
  {
    call: 'PUT /core/memorial',
    request: (w) => ({
      method: 'PUT',
      url: '/core/memorial',
      payload: { id: w.memorialId, quote: 'Voor altijd in ons hart' },
    }),
    expect: manage(200),
  },
  {
    call: 'PUT /core/memorial',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({
      method: 'PUT',
      url: '/core/memorial',
      payload: { id: w.memorialId, quote: 'Voor altijd' },
    }),
    expect: e(401, 403, 403, 403, 403, 403, 200, 200),
  },
  {
    call: 'POST /core/memorial/query',
    request: () => ({ method: 'POST', url: '/core/memorial/query', payload: {} }),
    expect: everyone(200),
  },
  {
    call: 'POST /core/memorial/query/partof',
    request: () => ({ method: 'POST', url: '/core/memorial/query/partof', payload: {} }),
    expect: signedIn(200),
  },
  {
    call: 'GET /core/memorial/biography/{memorialId}',
    request: (w) => ({ method: 'GET', url: `/core/memorial/biography/${w.memorialId}` }),
    expect: read,
  },
  {
    call: 'GET /core/memorial/biography/{memorialId}',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({ method: 'GET', url: `/core/memorial/biography/${w.memorialId}` }),
    expect: everyone(200),
  },
  {
    call: 'PUT /core/memorial/biography',
    request: (w) => ({
      method: 'PUT',
      url: '/core/memorial/biography',
      payload: { memorialId: w.memorialId, html: '<p>Hij hield van de zee.</p>' },
    }),
    expect: manage(200),
  },
  {
    call: 'POST /core/memorial/{id}/access-code/regenerate',
    fresh: true,
    request: (w) => ({ method: 'POST', url: `/core/memorial/${w.memorialId}/access-code/regenerate` }),
    expect: manage(200),
  },
  {
    call: 'GET /core/memorial/{memorialId}/audit',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/audit` }),
    expect: ownerOnly(200),
  },

  // ── members ──────────────────────────────────────────────────────────────────────────────────
  {
    call: 'POST /core/memorial/users/query',
    request: (w) => ({
      method: 'POST',
      url: '/core/memorial/users/query',
      payload: { memorialId: w.memorialId },
    }),
    expect: manage(200),
  },
  {
    call: 'GET /core/memorial/users/{id}',
    variant: "the contributor's membership",
    request: (w) => ({ method: 'GET', url: `/core/memorial/users/${w.memberIds.contributor}` }),
    expect: e(401, 403, 404, 404, 403, 200, 200, 200),
  },
  {
    // One's own role needs a caller: anonymous is 401, also on a public page.
    call: 'GET /core/memorial/users/self/role/{memorialId}',
    request: (w) => ({ method: 'GET', url: `/core/memorial/users/self/role/${w.memorialId}` }),
    expect: e(401, 200, 404, 404, 200, 200, 200, 200),
  },
  {
    call: 'GET /core/memorial/users/self/role/{memorialId}',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({ method: 'GET', url: `/core/memorial/users/self/role/${w.memorialId}` }),
    expect: e(401, 200, 200, 200, 200, 200, 200, 200),
  },
  {
    call: 'PUT /core/memorial/users/role',
    variant: 'contributor → guest',
    fresh: true,
    request: (w) => ({
      method: 'PUT',
      url: '/core/memorial/users/role',
      payload: { memberId: w.memberIds.contributor, role: 'guest' },
    }),
    expect: manage(200),
  },
  {
    call: 'PUT /core/memorial/users/role',
    variant: 'editor → owner',
    fresh: true,
    request: (w) => ({
      method: 'PUT',
      url: '/core/memorial/users/role',
      payload: { memberId: w.memberIds.editor, role: 'owner' },
    }),
    expect: ownerOnly(200),
  },
  {
    call: 'DELETE /core/memorial/users/{id}',
    variant: 'the guest member (may remove themselves)',
    fresh: true,
    request: (w) => ({ method: 'DELETE', url: `/core/memorial/users/${w.memberIds.guest}` }),
    expect: e(401, 403, 404, 404, 204, 403, 204, 204),
  },
  {
    call: 'DELETE /core/memorial/users/{id}',
    variant: 'the editor',
    fresh: true,
    request: (w) => ({ method: 'DELETE', url: `/core/memorial/users/${w.memberIds.editor}` }),
    expect: e(401, 403, 404, 404, 403, 403, 204, 204),
  },

  // ── guest access ─────────────────────────────────────────────────────────────────────────────
  {
    call: 'POST /core/guest/token',
    request: (w) => ({ method: 'POST', url: '/core/guest/token', payload: { accessCode: w.accessCode } }),
    expect: everyone(200),
  },
  {
    call: 'POST /core/guest/token-consume',
    fresh: true,
    request: (w) => ({ method: 'POST', url: '/core/guest/token-consume', payload: { token: w.linkToken } }),
    expect: everyone(200),
  },

  {
    call: 'POST /core/memorial/{id}/access-code/mail',
    request: (w) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/access-code/mail`,
      payload: { email: `toegang-${crypto.randomUUID().slice(0, 8)}@example.nl` },
    }),
    expect: manage(200),
  },

  // ── guest invites ────────────────────────────────────────────────────────────────────────────
  {
    call: 'POST /core/guest-invite/{memorialId}',
    request: (w) => ({
      method: 'POST',
      url: `/core/guest-invite/${w.memorialId}`,
      payload: { email: `nieuw-${crypto.randomUUID().slice(0, 8)}@example.nl`, role: 'guest' },
    }),
    expect: manage(201),
  },
  {
    call: 'POST /core/guest-invite/{memorialId}',
    variant: 'as editor',
    request: (w) => ({
      method: 'POST',
      url: `/core/guest-invite/${w.memorialId}`,
      payload: { email: `red-${crypto.randomUUID().slice(0, 8)}@example.nl`, role: 'editor' },
    }),
    expect: ownerOnly(201),
  },
  {
    call: 'GET /core/guest-invite/invite-code/{inviteCode}',
    request: (w) => ({ method: 'GET', url: `/core/guest-invite/invite-code/${w.invite.code}` }),
    expect: everyone(200),
  },
  {
    call: 'GET /core/guest-invite/{id}',
    request: (w) => ({ method: 'GET', url: `/core/guest-invite/${w.invite.id}` }),
    expect: manage(200),
  },
  {
    call: 'DELETE /core/guest-invite/{id}',
    fresh: true,
    request: (w) => ({ method: 'DELETE', url: `/core/guest-invite/${w.invite.id}` }),
    expect: manage(204),
  },
  {
    call: 'POST /core/guest-invite/accept/{code}',
    fresh: true,
    request: (w) => ({ method: 'POST', url: `/core/guest-invite/accept/${w.invite.code}` }),
    expect: signedIn(200),
  },
  {
    call: 'POST /core/guest-invite/query',
    request: (w) => ({
      method: 'POST',
      url: '/core/guest-invite/query',
      payload: { memorialId: w.memorialId },
    }),
    expect: manage(200),
  },
  {
    call: 'POST /core/guest-invite/{id}/resend',
    fresh: true,
    request: (w) => ({ method: 'POST', url: `/core/guest-invite/${w.invite.id}/resend` }),
    expect: manage(200),
  },

  // ── memories, media, candles (domain-b): add rows here ───────────────────────────────────────
  // Media of the gallery.
  {
    call: 'POST /core/memorial-media',
    prepare: async ({ w }) => uploadBody('memorialId', w.memorialId),
    request: (_w, p) => multipartRequest('/core/memorial-media', p),
    expect: e(401, 403, 404, 404, 403, 201, 201, 201),
  },
  {
    call: 'POST /core/memorial-media',
    variant: 'public memorial',
    visibility: 'public',
    prepare: async ({ w }) => uploadBody('memorialId', w.memorialId),
    request: (_w, p) => multipartRequest('/core/memorial-media', p),
    expect: e(401, 403, 403, 403, 403, 201, 201, 201),
  },
  {
    call: 'GET /core/memorial-media/{id}',
    prepare: async ({ t, w }) => ({ id: await galleryPhoto(t, w) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/memorial-media/${p.id}` }),
    expect: read,
  },
  {
    call: 'GET /core/memorial-media/{id}',
    variant: 'public memorial',
    visibility: 'public',
    prepare: async ({ t, w }) => ({ id: await galleryPhoto(t, w) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/memorial-media/${p.id}` }),
    expect: everyone(200),
  },
  {
    call: 'GET /core/memorial-media/all/{id}',
    request: (w) => ({ method: 'GET', url: `/core/memorial-media/all/${w.memorialId}` }),
    expect: read,
  },
  {
    call: 'GET /core/memorial-media/all/{id}',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({ method: 'GET', url: `/core/memorial-media/all/${w.memorialId}` }),
    expect: everyone(200),
  },
  {
    call: 'POST /core/memorial-media/query',
    request: (w) => ({
      method: 'POST',
      url: '/core/memorial-media/query',
      payload: { memorialId: w.memorialId, type: 'image' },
    }),
    expect: read,
  },
  {
    call: 'POST /core/memorial-media/query',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({
      method: 'POST',
      url: '/core/memorial-media/query',
      payload: { memorialId: w.memorialId, type: 'image' },
    }),
    expect: everyone(200),
  },
  {
    call: 'PUT /core/memorial-media/reorder',
    prepare: async ({ t, w }) => {
      await galleryPhoto(t, w);
      return { ids: await galleryIds(t, w) };
    },
    request: (w, p) => ({
      method: 'PUT',
      url: '/core/memorial-media/reorder',
      payload: { memorialId: w.memorialId, orderedIds: p.ids!.split(',').reverse() },
    }),
    expect: manage(200),
  },
  {
    call: 'PUT /core/memorial-media/{id}',
    variant: "the owner's photo",
    prepare: async ({ t, w }) => ({ id: await galleryPhoto(t, w) }),
    request: (_w, p) => ({
      method: 'PUT',
      url: `/core/memorial-media/${p.id}`,
      payload: { caption: 'Aan zee' },
    }),
    expect: manage(200),
  },
  {
    call: 'DELETE /core/memorial-media/{id}',
    variant: "the contributor's photo (the uploader may delete it)",
    prepare: async ({ t, w }) => ({ id: await galleryPhoto(t, w, { by: 'contributor', fresh: true }) }),
    request: (_w, p) => ({ method: 'DELETE', url: `/core/memorial-media/${p.id}` }),
    expect: e(401, 403, 404, 404, 403, 200, 200, 200),
  },
  {
    call: 'GET /core/media/{mediaId}/{variant}',
    variant: 'bearer, no signature',
    prepare: async ({ t, w }) => ({ id: await galleryPhoto(t, w) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/media/${p.id}/w64.webp` }),
    expect: read,
  },
  {
    call: 'GET /core/media/{mediaId}/{variant}',
    variant: 'public memorial',
    visibility: 'public',
    prepare: async ({ t, w }) => ({ id: await galleryPhoto(t, w) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/media/${p.id}/w64.webp` }),
    expect: everyone(200),
  },
  // Media of a memory (a published memory by the contributor).
  {
    call: 'POST /core/memory/medias',
    prepare: async ({ t, w }) => uploadBody('memoryId', await memory(t, w, { fresh: true })),
    request: (_w, p) => multipartRequest('/core/memory/medias', p),
    expect: e(401, 403, 404, 404, 403, 201, 201, 201),
  },
  {
    call: 'GET /core/memory/medias/{id}',
    prepare: async ({ t, w }) => ({ id: await memoryPhoto(t, w) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/memory/medias/${p.id}` }),
    expect: read,
  },
  {
    call: 'GET /core/memory/medias/{id}',
    variant: 'public memorial',
    visibility: 'public',
    prepare: async ({ t, w }) => ({ id: await memoryPhoto(t, w) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/memory/medias/${p.id}` }),
    expect: everyone(200),
  },
  {
    call: 'DELETE /core/memory/medias/{id}',
    prepare: async ({ t, w }) => ({ id: await memoryPhoto(t, w, { fresh: true }) }),
    request: (_w, p) => ({ method: 'DELETE', url: `/core/memory/medias/${p.id}` }),
    expect: e(401, 403, 404, 404, 403, 200, 200, 200),
  },
  // Memories.
  {
    call: 'POST /core/memories/concept',
    request: (w) => ({
      method: 'POST',
      url: '/core/memories/concept',
      payload: { memorialId: w.memorialId, yearLabel: '1990', text: 'Tekst', authorName: 'Gast' },
    }),
    expect: e(401, 201, 404, 404, 201, 201, 201, 201),
  },
  {
    call: 'POST /core/memories/concept',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({
      method: 'POST',
      url: '/core/memories/concept',
      payload: { memorialId: w.memorialId, yearLabel: '1990', text: 'Tekst', authorName: 'Gast' },
    }),
    expect: e(401, 201, 403, 403, 201, 201, 201, 201),
  },
  {
    call: 'PUT /core/memories',
    variant: "the contributor's published memory",
    prepare: async ({ t, w }) => ({ id: await memory(t, w) }),
    request: (_w, p) => ({ method: 'PUT', url: '/core/memories', payload: { id: p.id, yearLabel: '1991' } }),
    expect: e(401, 403, 404, 404, 403, 200, 200, 200),
  },
  {
    call: 'POST /core/memories/publish',
    variant: "the contributor's concept (only its author sees it)",
    prepare: async ({ t, w }) => ({ id: await memory(t, w, { concept: true, fresh: true }) }),
    request: (_w, p) => ({ method: 'POST', url: '/core/memories/publish', payload: { id: p.id } }),
    expect: e(401, 404, 404, 404, 404, 200, 404, 404),
  },
  {
    call: 'PUT /core/memories/status',
    variant: "approving the guest member's pending memory",
    prepare: async ({ t, w }) => ({ id: await memory(t, w, { by: 'guest', fresh: true }) }),
    request: (_w, p) => ({
      method: 'PUT',
      url: '/core/memories/status',
      payload: { id: p.id, status: 'published' },
    }),
    expect: e(401, 404, 404, 404, 403, 404, 200, 200),
  },
  {
    call: 'PUT /core/memories/privacy',
    variant: "the contributor's published memory",
    prepare: async ({ t, w }) => ({ id: await memory(t, w) }),
    request: (_w, p) => ({
      method: 'PUT',
      url: '/core/memories/privacy',
      payload: { id: p.id, membersOnly: false },
    }),
    expect: e(401, 403, 404, 404, 403, 200, 200, 200),
  },
  {
    call: 'DELETE /core/memories/{id}',
    variant: "the contributor's published memory",
    prepare: async ({ w }) => ({ id: await publishedMemory(w.memorialId) }),
    request: (_w, p) => ({ method: 'DELETE', url: `/core/memories/${p.id}` }),
    expect: e(401, 403, 404, 404, 403, 200, 200, 200),
  },
  {
    call: 'GET /core/memories/{id}',
    prepare: async ({ t, w }) => ({ id: await memory(t, w) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/memories/${p.id}` }),
    expect: read,
  },
  {
    call: 'GET /core/memories/{id}',
    variant: 'public memorial',
    visibility: 'public',
    prepare: async ({ t, w }) => ({ id: await memory(t, w) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/memories/${p.id}` }),
    expect: everyone(200),
  },
  {
    call: 'GET /core/memories/{id}',
    variant: 'members only, on a public memorial',
    visibility: 'public',
    prepare: async ({ t, w }) => ({ id: await memory(t, w, { membersOnly: true }) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/memories/${p.id}` }),
    expect: e(404, 404, 404, 404, 200, 200, 200, 200),
  },
  {
    call: 'POST /core/memories/query-memorial',
    request: (w) => ({
      method: 'POST',
      url: '/core/memories/query-memorial',
      payload: { memorialId: w.memorialId },
    }),
    expect: read,
  },
  {
    call: 'POST /core/memories/query-memorial',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({
      method: 'POST',
      url: '/core/memories/query-memorial',
      payload: { memorialId: w.memorialId },
    }),
    expect: everyone(200),
  },
  {
    call: 'POST /core/memories/query-manage',
    request: (w) => ({
      method: 'POST',
      url: '/core/memories/query-manage',
      payload: { memorialId: w.memorialId },
    }),
    expect: manage(200),
  },
  {
    call: 'POST /core/memories/query-own',
    request: (w) => ({
      method: 'POST',
      url: '/core/memories/query-own',
      payload: { memorialId: w.memorialId },
    }),
    expect: e(401, 200, 404, 404, 200, 200, 200, 200),
  },
  {
    call: 'POST /core/memories/{id}/love',
    prepare: async ({ t, w }) => ({ id: await memory(t, w) }),
    request: (_w, p) => ({ method: 'POST', url: `/core/memories/${p.id}/love` }),
    expect: e(401, 200, 404, 404, 200, 200, 200, 200),
  },
  {
    call: 'POST /core/memories/{id}/love',
    variant: 'public memorial (visitors may not)',
    visibility: 'public',
    prepare: async ({ t, w }) => ({ id: await memory(t, w) }),
    request: (_w, p) => ({ method: 'POST', url: `/core/memories/${p.id}/love` }),
    expect: e(401, 200, 403, 403, 200, 200, 200, 200),
  },
  {
    call: 'DELETE /core/memories/{id}/love',
    prepare: async ({ t, w }) => ({ id: await memory(t, w) }),
    request: (_w, p) => ({ method: 'DELETE', url: `/core/memories/${p.id}/love` }),
    expect: e(401, 200, 404, 404, 200, 200, 200, 200),
  },
  // Candles and flowers (each request from its own address: lighting is limited per address).
  {
    call: 'POST /core/candles/{memorialId}',
    request: (w) => ({
      method: 'POST',
      url: `/core/candles/${w.memorialId}`,
      payload: { name: 'Jan', kind: 'flower' },
      remoteAddress: randomAddress(),
    }),
    expect: e(404, 201, 404, 404, 201, 201, 201, 201),
  },
  {
    call: 'POST /core/candles/{memorialId}',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({
      method: 'POST',
      url: `/core/candles/${w.memorialId}`,
      payload: { name: 'Jan' },
      remoteAddress: randomAddress(),
    }),
    expect: everyone(201),
  },
  {
    call: 'GET /core/candles/{id}',
    prepare: async ({ t, w }) => ({ id: await candle(t, w) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/candles/${p.id}` }),
    expect: read,
  },
  {
    call: 'GET /core/candles/{id}',
    variant: 'public memorial',
    visibility: 'public',
    prepare: async ({ t, w }) => ({ id: await candle(t, w) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/candles/${p.id}` }),
    expect: everyone(200),
  },
  {
    call: 'POST /core/candles/query',
    request: (w) => ({ method: 'POST', url: '/core/candles/query', payload: { memorialId: w.memorialId } }),
    expect: read,
  },
  {
    call: 'POST /core/candles/query',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({ method: 'POST', url: '/core/candles/query', payload: { memorialId: w.memorialId } }),
    expect: everyone(200),
  },
  {
    call: 'DELETE /core/candles/{id}',
    prepare: async ({ t, w }) => ({ id: await candle(t, w, { fresh: true }) }),
    request: (_w, p) => ({ method: 'DELETE', url: `/core/candles/${p.id}` }),
    expect: manage(200),
  },

  // ---- the funeral day: services and RSVPs (docs/funeral-day.md) ----
  {
    call: 'POST /core/memorial/{id}/services',
    request: (w) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/services`,
      payload: serviceBody,
    }),
    expect: manage(201),
  },
  {
    call: 'GET /core/memorial/{id}/services',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/services` }),
    expect: read,
  },
  {
    call: 'GET /core/memorial/{id}/services',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/services` }),
    expect: everyone(200),
  },
  {
    call: 'PUT /core/memorial/{id}/services/{serviceId}',
    prepare: async ({ t, w }) => ({ id: await memorialService(t, w) }),
    request: (w, p) => ({
      method: 'PUT',
      url: `/core/memorial/${w.memorialId}/services/${p.id}`,
      payload: serviceBody,
    }),
    expect: manage(200),
  },
  {
    call: 'DELETE /core/memorial/{id}/services/{serviceId}',
    prepare: async ({ t, w }) => ({ id: await memorialService(t, w) }),
    request: (w, p) => ({ method: 'DELETE', url: `/core/memorial/${w.memorialId}/services/${p.id}` }),
    expect: manage(200),
  },
  {
    call: 'GET /core/memorial/{id}/services/{serviceId}/calendar.ics',
    prepare: async ({ t, w }) => ({ id: await memorialService(t, w) }),
    request: (w, p) => ({
      method: 'GET',
      url: `/core/memorial/${w.memorialId}/services/${p.id}/calendar.ics`,
    }),
    expect: read,
  },
  {
    call: 'GET /core/memorial/{id}/services/{serviceId}/calendar.ics',
    variant: 'public memorial',
    visibility: 'public',
    prepare: async ({ t, w }) => ({ id: await memorialService(t, w) }),
    request: (w, p) => ({
      method: 'GET',
      url: `/core/memorial/${w.memorialId}/services/${p.id}/calendar.ics`,
    }),
    expect: everyone(200),
  },
  {
    call: 'POST /core/memorial/{id}/services/{serviceId}/rsvp',
    prepare: async ({ t, w }) => ({ id: await memorialService(t, w) }),
    request: (w, p) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/services/${p.id}/rsvp`,
      payload: { name: 'Tante Jet', people: 2 },
      remoteAddress: randomAddress(),
    }),
    expect: e(404, 201, 404, 404, 201, 201, 201, 201),
  },
  {
    call: 'POST /core/memorial/{id}/services/{serviceId}/rsvp',
    variant: 'public memorial',
    visibility: 'public',
    prepare: async ({ t, w }) => ({ id: await memorialService(t, w) }),
    request: (w, p) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/services/${p.id}/rsvp`,
      payload: { name: 'Tante Jet', people: 2 },
      remoteAddress: randomAddress(),
    }),
    expect: everyone(201),
  },
  {
    call: 'GET /core/memorial/{id}/services/{serviceId}/rsvps',
    prepare: async ({ t, w }) => ({ id: await memorialService(t, w) }),
    request: (w, p) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/services/${p.id}/rsvps` }),
    expect: manage(200),
  },
  {
    call: 'GET /core/memorial/{id}/services/{serviceId}/rsvps.csv',
    prepare: async ({ t, w }) => ({ id: await memorialService(t, w) }),
    request: (w, p) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/services/${p.id}/rsvps.csv` }),
    expect: manage(200),
  },

  // ---- the guestbook (docs/funeral-day.md); the live stream is outside the matrix ----
  {
    call: 'GET /core/memorial/{id}/guestbook',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/guestbook` }),
    expect: manage(200),
  },
  {
    call: 'PUT /core/memorial/{id}/guestbook',
    request: (w) => ({
      method: 'PUT',
      url: `/core/memorial/${w.memorialId}/guestbook`,
      payload: { open: true },
    }),
    expect: manage(200),
  },
  {
    call: 'PUT /core/memorial/{id}/guestbook/entries/{entryId}',
    prepare: async ({ t, w }) => openGuestbook(t, w),
    request: (w, p) => ({
      method: 'PUT',
      url: `/core/memorial/${w.memorialId}/guestbook/entries/${p.entryId}`,
      payload: { hidden: true },
    }),
    expect: manage(200),
  },
  {
    call: 'GET /core/memorial/{id}/guestbook/entries.csv',
    prepare: async ({ t, w }) => openGuestbook(t, w),
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/guestbook/entries.csv` }),
    expect: manage(200),
  },
  {
    call: 'GET /core/memorial/{id}/guestbook/entries.pdf',
    prepare: async ({ t, w }) => openGuestbook(t, w),
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/guestbook/entries.pdf` }),
    expect: manage(200),
  },
  {
    call: 'GET /core/guestbook/{token}',
    prepare: async ({ t, w }) => openGuestbook(t, w),
    request: (_w, p) => ({ method: 'GET', url: `/core/guestbook/${p.token}` }),
    expect: everyone(200),
  },
  {
    call: 'POST /core/guestbook/{token}/entries',
    prepare: async ({ t, w }) => openGuestbook(t, w),
    request: (_w, p) => ({
      method: 'POST',
      url: `/core/guestbook/${p.token}/entries`,
      payload: { name: 'Tante Jet', message: 'Sterkte' },
      remoteAddress: randomAddress(),
    }),
    expect: everyone(201),
  },

  // ---- remembering together: kaarsjesmomenten (docs/funeral-day.md, 'Samen herdenken') ----
  {
    call: 'GET /core/memorial/{id}/candle-moments',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/candle-moments` }),
    expect: read,
  },
  {
    call: 'GET /core/memorial/{id}/candle-moments',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/candle-moments` }),
    expect: everyone(200),
  },
  {
    call: 'POST /core/memorial/{id}/candle-moments',
    request: (w) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/candle-moments`,
      payload: momentBody,
    }),
    expect: manage(201),
  },
  {
    call: 'PUT /core/memorial/{id}/candle-moments/{momentId}',
    prepare: async ({ t, w }) => ({ id: await candleMoment(t, w) }),
    request: (w, p) => ({
      method: 'PUT',
      url: `/core/memorial/${w.memorialId}/candle-moments/${p.id}`,
      payload: momentBody,
    }),
    expect: manage(200),
  },
  {
    call: 'DELETE /core/memorial/{id}/candle-moments/{momentId}',
    prepare: async ({ t, w }) => ({ id: await candleMoment(t, w) }),
    request: (w, p) => ({ method: 'DELETE', url: `/core/memorial/${w.memorialId}/candle-moments/${p.id}` }),
    expect: manage(200),
  },
  // No moment on: those who may see the page hear so (409); the stream itself: candle-moment.test.ts.
  {
    call: 'GET /core/memorial/{id}/candle-moments/live',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/candle-moments/live` }),
    expect: e(404, 409, 404, 404, 409, 409, 409, 409),
  },
  {
    call: 'GET /core/memorial/{id}/candle-moments/live',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/candle-moments/live` }),
    expect: everyone(409),
  },

  // ---- future messages and reminders (docs/funeral-day.md) ----
  {
    call: 'GET /core/memorial/{id}/future-messages',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/future-messages` }),
    expect: manage(200),
  },
  {
    call: 'POST /core/memorial/{id}/future-messages',
    request: (w) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/future-messages`,
      payload: futureMessageBody,
    }),
    expect: manage(201),
  },
  {
    call: 'PUT /core/memorial/{id}/future-messages/{messageId}',
    prepare: async ({ t, w }) => ({ id: await futureMessage(t, w) }),
    request: (w, p) => ({
      method: 'PUT',
      url: `/core/memorial/${w.memorialId}/future-messages/${p.id}`,
      payload: futureMessageBody,
    }),
    expect: manage(200),
  },
  {
    call: 'DELETE /core/memorial/{id}/future-messages/{messageId}',
    prepare: async ({ t, w }) => ({ id: await futureMessage(t, w) }),
    request: (w, p) => ({ method: 'DELETE', url: `/core/memorial/${w.memorialId}/future-messages/${p.id}` }),
    expect: manage(200),
  },
  {
    call: 'POST /core/memorial/{id}/subscriptions',
    request: (w) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/subscriptions`,
      payload: { email: 'verbonden@example.nl', kinds: ['birthday'], consent: true },
      remoteAddress: randomAddress(),
    }),
    expect: e(404, 202, 404, 404, 202, 202, 202, 202),
  },
  {
    call: 'POST /core/memorial/{id}/subscriptions',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/subscriptions`,
      payload: { email: 'verbonden@example.nl', kinds: ['birthday'], consent: true },
      remoteAddress: randomAddress(),
    }),
    expect: everyone(202),
  },
  // A visitor's memory (decision 025): only on a public page whose family turned it on; anyone may leave one.
  {
    call: 'POST /core/memorial/{memorialId}/visitor-memories',
    prepare: async ({ t, w }) => {
      await t.db.query('UPDATE memorials SET visitor_memories = true WHERE id = $1', [w.memorialId]);
      return {};
    },
    fresh: true,
    request: (w) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/visitor-memories`,
      payload: visitorMemory(),
      remoteAddress: randomAddress(),
    }),
    expect: everyone(404),
  },
  {
    call: 'POST /core/memorial/{memorialId}/visitor-memories',
    variant: 'public memorial, off',
    visibility: 'public',
    request: (w) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/visitor-memories`,
      payload: visitorMemory(),
      remoteAddress: randomAddress(),
    }),
    expect: everyone(403),
  },
  {
    call: 'POST /core/memorial/{memorialId}/visitor-memories',
    variant: 'public memorial, on',
    visibility: 'public',
    fresh: true,
    prepare: async ({ t, w }) => {
      await t.db.query('UPDATE memorials SET visitor_memories = true WHERE id = $1', [w.memorialId]);
      return {};
    },
    request: (w) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/visitor-memories`,
      payload: visitorMemory(),
      remoteAddress: randomAddress(),
    }),
    expect: everyone(201),
  },
  {
    call: 'GET /core/memorial/{id}/subscriptions',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/subscriptions` }),
    expect: manage(200),
  },
  {
    call: 'DELETE /core/memorial/{id}/subscriptions/{subscriptionId}',
    prepare: async ({ t, w }) => ({ id: await signUp(t, w) }),
    request: (w, p) => ({ method: 'DELETE', url: `/core/memorial/${w.memorialId}/subscriptions/${p.id}` }),
    expect: manage(200),
  },

  // ---- exports (docs/exports.md) ----
  {
    call: 'GET /core/memorial/{id}/export',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/export` }),
    expect: ownerOnly(200),
  },
  {
    call: 'POST /core/memorial/{id}/export',
    request: (w) => ({ method: 'POST', url: `/core/memorial/${w.memorialId}/export` }),
    expect: ownerOnly(202),
  },
  {
    call: 'GET /core/account/export',
    request: () => ({ method: 'GET', url: '/core/account/export' }),
    expect: e(401, 401, 401, 200, 200, 200, 200, 200),
  },
  {
    call: 'POST /core/account/export',
    request: () => ({ method: 'POST', url: '/core/account/export' }),
    expect: e(401, 401, 401, 202, 202, 202, 202, 202),
  },
  {
    // The mailed link opens without signing in; signed in as anyone but the owner who asked, it is refused.
    call: 'GET /core/export/{exportId}/download',
    prepare: async ({ t, w }) => {
      const url = `/core/memorial/${w.memorialId}/export`;
      const headers = auth(w.tokens.owner);
      await t.app.inject({ method: 'POST', url, headers, remoteAddress: randomAddress() });
      await t.app.deps.queue.idle();
      const state = await t.app.inject({ method: 'GET', url, headers });
      return { url: String(state.json().downloadUrl).replace(t.config.API_URL, '') };
    },
    request: (_w, p) => ({ method: 'GET', url: p.url! }),
    expect: e(200, 403, 403, 403, 403, 403, 403, 200),
  },

  // ── deleting a memorial (docs/privacy.md): owners only, restorable by owners ─────────
  {
    call: 'POST /core/memorial/{id}/delete',
    fresh: true,
    request: (w) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/delete`,
      payload: { confirmation: 'VERWIJDEREN' },
    }),
    expect: ownerOnly(200),
  },
  {
    // A deleted page is gone for everyone but its owners, who alone may bring it back.
    call: 'POST /core/memorial/{id}/restore',
    fresh: true,
    prepare: async ({ t, w }) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/core/memorial/${w.memorialId}/delete`,
        headers: auth(w.tokens.owner),
        payload: { confirmation: 'VERWIJDEREN' },
      });
      expect(res.statusCode).toBe(200);
      return {};
    },
    request: (w) => ({ method: 'POST', url: `/core/memorial/${w.memorialId}/restore` }),
    expect: e(401, 401, 401, 404, 404, 404, 404, 200),
  },
  {
    call: 'GET /core/memorial/deleted',
    request: () => ({ method: 'GET', url: '/core/memorial/deleted' }),
    expect: signedIn(200),
  },
  // ── plans and payments: members see the plan, owners and editors pay ─────────────
  {
    call: 'GET /core/memorial/{id}/plan',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/plan` }),
    expect: e(401, 200, 404, 404, 200, 200, 200, 200),
  },
  {
    // Payments are off in this app (no MOLLIE_API_KEY): those who may pay hear so (409).
    call: 'POST /core/payments',
    request: (w) => ({
      method: 'POST',
      url: '/core/payments',
      payload: {
        memorialId: w.memorialId,
        plan: 'premium',
        buyerName: 'Jan Jansen',
        buyerAddress: 'Dorpsstraat 1',
        buyerPostalCode: '1234 AB',
        buyerCity: 'Utrecht',
      },
    }),
    expect: e(401, 401, 401, 404, 403, 403, 409, 409),
  },
  {
    call: 'GET /core/payments/{id}',
    prepare: async ({ t, w }) => {
      const { rows } = await t.db.query<{ id: string }>(
        // Closed: a page holds one open payment per plan, and this runs once per caller.
        `INSERT INTO payments (memorial_id, plan, amount_cents, status, buyer_name, buyer_address, buyer_postal_code, buyer_city)
         VALUES ($1, 'premium', 19900, 'canceled', 'Jan', 'Dorpsstraat 1', '1234 AB', 'Utrecht') RETURNING id::text AS id`,
        [w.memorialId],
      );
      return { id: rows[0]!.id };
    },
    request: (_w, p) => ({ method: 'GET', url: `/core/payments/${p.id}` }),
    expect: e(401, 401, 401, 404, 404, 404, 200, 200),
  },
  {
    // Without the signed link (payments.test.ts covers it): owners and editors of the page.
    call: 'GET /core/invoices/{id}/pdf',
    prepare: async ({ t, w }) => {
      const { rows } = await t.db.query<{ id: string }>(
        `WITH p AS (INSERT INTO payments (memorial_id, plan, amount_cents, status, buyer_name, buyer_address,
                                          buyer_postal_code, buyer_city)
                    VALUES ($1, 'premium', 19900, 'paid', 'Jan', 'Dorpsstraat 1', '1234 AB', 'Utrecht') RETURNING id),
              n AS (UPDATE invoice_counter SET last_number = last_number + 1 RETURNING last_number)
         INSERT INTO invoices (number, payment_id, memorial_id, description, amount_cents, vat_cents, vat_percent,
                               buyer_name, buyer_address, buyer_postal_code, buyer_city)
         SELECT n.last_number, p.id, $1, 'Aandenken Premium', 19900, 3454, 21, 'Jan', 'Dorpsstraat 1', '1234 AB', 'Utrecht'
           FROM p, n RETURNING id::text AS id`,
        [w.memorialId],
      );
      return { id: rows[0]!.id };
    },
    request: (_w, p) => ({ method: 'GET', url: `/core/invoices/${p.id}/pdf` }),
    expect: e(401, 401, 401, 404, 404, 404, 200, 200),
  },
  {
    // The team only (payments.test.ts covers the team itself); nobody on the page may, the payer neither.
    call: 'POST /core/team/payments/{id}/refund',
    request: () => ({
      method: 'POST',
      url: `/core/team/payments/${crypto.randomUUID()}/refund`,
      payload: { reason: 'Test' },
    }),
    expect: e(401, 401, 401, 403, 403, 403, 403, 403),
  },
  {
    // The team only (plans.test.ts covers the team itself); nobody on the page may.
    call: 'POST /core/team/memorials/{id}/plan',
    request: (w) => ({
      method: 'POST',
      url: `/core/team/memorials/${w.memorialId}/plan`,
      payload: { plan: 'premium', reason: 'Test' },
    }),
    expect: e(401, 401, 401, 403, 403, 403, 403, 403),
  },

  // ── the account: every signed-in person deletes only their own ────────────────────
  {
    call: 'POST /core/account/delete',
    ownUsers: true,
    request: () => ({
      method: 'POST',
      url: '/core/account/delete',
      payload: { confirmation: 'VERWIJDEREN' },
    }),
    expect: signedIn(200),
  },

  // ── Melden: anyone who sees an item reports it; owners hide on their own page ────────
  {
    call: 'POST /core/takedown/report',
    fresh: true,
    prepare: async ({ w }) => ({ id: await publishedMemory(w.memorialId) }),
    request: (_w, p) => ({
      method: 'POST',
      url: '/core/takedown/report',
      remoteAddress: randomAddress(),
      payload: { itemType: 'memory', itemId: p.id, reason: 'privacy' },
    }),
    expect: e(404, 201, 404, 404, 201, 201, 201, 201),
  },
  {
    call: 'POST /core/takedown/report',
    variant: 'public',
    visibility: 'public',
    fresh: true,
    prepare: async ({ w }) => ({ id: await publishedMemory(w.memorialId) }),
    request: (_w, p) => ({
      method: 'POST',
      url: '/core/takedown/report',
      remoteAddress: randomAddress(),
      payload: { itemType: 'memory', itemId: p.id, reason: 'other' },
    }),
    expect: everyone(201),
  },
  {
    call: 'GET /core/memorial/{id}/takedowns',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/takedowns` }),
    expect: ownerOnly(200),
  },
  {
    call: 'POST /core/takedown/{itemType}/{itemId}/hide',
    fresh: true,
    prepare: async ({ w }) => ({ id: await publishedMemory(w.memorialId) }),
    request: (_w, p) => ({
      method: 'POST',
      url: `/core/takedown/memory/${p.id}/hide`,
      payload: { reason: 'Te persoonlijk' },
    }),
    expect: ownerOnly(200),
  },
  {
    call: 'POST /core/takedown/{itemType}/{itemId}/unhide',
    fresh: true,
    prepare: async ({ t, w }) => {
      const id = await publishedMemory(w.memorialId);
      const res = await t.app.inject({
        method: 'POST',
        url: `/core/takedown/memory/${id}/hide`,
        headers: auth(w.tokens.owner),
        payload: { reason: 'Te persoonlijk' },
      });
      expect(res.statusCode, res.body).toBe(200);
      return { id };
    },
    request: (_w, p) => ({ method: 'POST', url: `/core/takedown/memory/${p.id}/unhide` }),
    // A hidden item is seen by the owners only: to everyone else it is missing.
    expect: e(401, 404, 404, 404, 404, 404, 404, 200),
  },

  // ── successors: owners name who takes the page over ──────────────────────────────────
  {
    call: 'GET /core/memorial/{id}/successor',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/successor` }),
    expect: ownerOnly(200),
  },
  {
    call: 'PUT /core/memorial/{id}/successor',
    request: (w) => ({
      method: 'PUT',
      url: `/core/memorial/${w.memorialId}/successor`,
      payload: { email: 'opvolger@example.nl' },
    }),
    expect: ownerOnly(200),
  },
  {
    call: 'DELETE /core/memorial/{id}/successor',
    request: (w) => ({ method: 'DELETE', url: `/core/memorial/${w.memorialId}/successor` }),
    expect: ownerOnly(200),
  },

  // ── keepsakes: the guided biography template, owners and editors ─────────────────────
  {
    call: 'GET /core/memorial/{id}/biography-template',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/biography-template` }),
    expect: manage(200),
  },
  {
    call: 'GET /core/memorial/{id}/biography-template',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/biography-template` }),
    expect: e(401, 403, 403, 403, 403, 403, 200, 200),
  },
  {
    call: 'PUT /core/memorial/{id}/biography-template/{questionKey}',
    request: (w) => ({
      method: 'PUT',
      url: `/core/memorial/${w.memorialId}/biography-template/jeugd-plek`,
      payload: { text: 'In Zwolle.' },
    }),
    expect: manage(200),
  },
  {
    call: 'POST /core/memorial/{id}/biography-template/generate',
    fresh: true,
    prepare: async ({ t, w }) => {
      await t.db.query(
        `INSERT INTO biography_answers (memorial_id, question_key, text) VALUES ($1, 'jeugd-plek', 'In Zwolle.')`,
        [w.memorialId],
      );
      return {};
    },
    request: (w) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/biography-template/generate`,
      payload: { replace: true },
    }),
    expect: manage(200),
  },
  // The AI draft (Premium): the matrix's server has no LLM settings, so who may ask gets 409 (switched off).
  {
    call: 'GET /core/memorial/{id}/biography-draft',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/biography-draft` }),
    expect: manage(200),
  },
  {
    call: 'POST /core/memorial/{id}/biography-draft',
    request: (w) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/biography-draft`,
      payload: { answerKeys: [], memoryIds: [] },
    }),
    expect: manage(409),
  },

  // The printed book (Premium; a new memorial is in its trial, which has it): owners and editors.
  {
    call: 'GET /core/memorial/{id}/printed-book',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/printed-book` }),
    expect: manage(200),
  },
  {
    call: 'POST /core/memorial/{id}/printed-book',
    request: (w) => ({ method: 'POST', url: `/core/memorial/${w.memorialId}/printed-book`, payload: {} }),
    expect: manage(202),
  },
  {
    // The signed link is the key; a signed-in caller must still be an owner or editor.
    call: 'GET /core/printed-book/{bookId}/file',
    prepare: async ({ t, w }) => {
      const url = `/core/memorial/${w.memorialId}/printed-book`;
      const headers = auth(w.tokens.owner);
      await t.app.inject({ method: 'POST', url, headers, payload: {} });
      await t.app.deps.queue.idle();
      const state = await t.app.inject({ method: 'GET', url, headers });
      const link = (state.json() as { previewUrl?: string }).previewUrl;
      if (!link) throw new Error(`no book: ${state.body}`); // a missing memorial has none
      return { url: link.replace(t.config.API_URL, '') };
    },
    request: (_w, p) => ({ method: 'GET', url: p.url! }),
    expect: e(200, 403, 404, 404, 403, 403, 200, 200),
  },

  // ── the presentation (docs/keepsakes.md): music for every plan, builder and video Premium ──
  {
    call: 'GET /core/memorial/{id}/presentation',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/presentation` }),
    expect: read,
  },
  {
    call: 'GET /core/memorial/{id}/presentation',
    variant: 'public memorial',
    visibility: 'public',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/presentation` }),
    expect: everyone(200),
  },
  {
    call: 'POST /core/memorial/{id}/presentation/music',
    prepare: async () => {
      const body = await form({}, { data: await toneMp3(), type: 'audio/mpeg', name: 'lied.mp3' });
      return { body: body.payload.toString('base64'), contentType: body.headers['content-type']! };
    },
    request: (w, p) => multipartRequest(`/core/memorial/${w.memorialId}/presentation/music`, p),
    expect: manage(200),
  },
  {
    call: 'DELETE /core/memorial/{id}/presentation/music',
    fresh: true,
    prepare: async ({ t, w }) => ({ id: await storedMusic(t, w) }),
    request: (w) => ({ method: 'DELETE', url: `/core/memorial/${w.memorialId}/presentation/music` }),
    expect: manage(204),
  },
  {
    call: 'GET /core/presentation-music/{fileId}',
    variant: 'bearer, no signature',
    prepare: async ({ t, w }) => ({ id: await storedMusic(t, w) }),
    request: (_w, p) => ({ method: 'GET', url: `/core/presentation-music/${p.id}` }),
    expect: read,
  },
  {
    call: 'GET /core/presentation-music/{fileId}',
    variant: 'signed link from the presentation',
    prepare: async ({ t, w }) => {
      await storedMusic(t, w);
      const info = await t.app.inject({
        method: 'GET',
        url: `/core/memorial/${w.memorialId}/presentation`,
        headers: auth(w.tokens.owner),
      });
      return { url: String(info.json().music.url).replace(t.config.API_URL, '') };
    },
    request: (_w, p) => ({ method: 'GET', url: p.url! }),
    expect: everyone(200),
  },
  {
    call: 'PUT /core/memorial/{id}/presentation/settings',
    prepare: async ({ t, w }) => ({ id: await galleryPhoto(t, w) }),
    request: (w, p) => ({
      method: 'PUT',
      url: `/core/memorial/${w.memorialId}/presentation/settings`,
      payload: { slides: [{ kind: 'photo', id: p.id, caption: 'Zomer' }], secondsPerSlide: 5 },
    }),
    expect: manage(200),
  },
  {
    call: 'DELETE /core/memorial/{id}/presentation/settings',
    request: (w) => ({ method: 'DELETE', url: `/core/memorial/${w.memorialId}/presentation/settings` }),
    expect: manage(204),
  },
  {
    call: 'GET /core/memorial/{id}/presentation/video',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.memorialId}/presentation/video` }),
    expect: manage(200),
  },
  {
    // A render already under way is handed back (no new render per cell).
    call: 'POST /core/memorial/{id}/presentation/video',
    prepare: async ({ t, w }) => {
      await t.db.query(
        `INSERT INTO presentation_videos (memorial_id, resolution, status)
         SELECT $1, '720p', 'rendering' WHERE NOT EXISTS (SELECT 1 FROM presentation_videos WHERE memorial_id = $1)`,
        [w.memorialId],
      );
      return {};
    },
    request: (w) => ({
      method: 'POST',
      url: `/core/memorial/${w.memorialId}/presentation/video`,
      payload: { resolution: '720p' },
    }),
    expect: manage(202),
  },
  {
    // The mailed link opens without signing in; signed in, only for the page's owners and editors.
    call: 'GET /core/presentation-video/{fileId}',
    prepare: async ({ t, w }) => {
      const { rows } = await t.db.query<{ id: string }>(
        `INSERT INTO presentation_videos (memorial_id, resolution, status, progress, storage_key, size_bytes, duration_ms, expires_at)
         VALUES ($1, '720p', 'ready', 1, 'x', 4, 1000, now() + interval '1 day') RETURNING id::text`,
        [w.memorialId],
      );
      const id = rows[0]!.id;
      await t.db.query('UPDATE presentation_videos SET storage_key = $2 WHERE id = $1', [
        id,
        `${id}/video.mp4`,
      ]);
      await t.app.deps.storage.put(`${id}/video.mp4`, Buffer.from('mp4!'));
      const state = await t.app.inject({
        method: 'GET',
        url: `/core/memorial/${w.memorialId}/presentation/video`,
        headers: auth(w.tokens.owner),
      });
      return { url: String(state.json().downloadUrl).replace(t.config.API_URL, '') };
    },
    request: (_w, p) => ({ method: 'GET', url: p.url! }),
    expect: e(200, 403, 403, 403, 403, 403, 200, 200),
  },
];

/** A published memory written straight into the database (the memory calls are limited per hour). */
async function publishedMemory(memorialId: string) {
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO memories (memorial_id, year_label, body, status, published_at, author_kind, author_user_id)
     VALUES ($1, '1990', 'Een herinnering', 'published', now(), 'user', $2) RETURNING id`,
    [memorialId, users.contributor.userId],
  );
  return rows[0]!.id;
}

// ── companies and the team ─────────────────────────────────────────────────────────────────────
// Outside the memorial domain, with their own kinds of caller: the team (a verified ADMIN_EMAILS
// address), one who registered a team address without proving it, a company's partner user, another
// company's, and a suspended company's. Every cell that changes something gets its own application or
// company from `prepare`.
const companyPersonas = [
  'anonymous',
  'stranger',
  'teamUnverified',
  'team',
  'partnerThis',
  'partnerOther',
  'partnerSuspended',
] as const;
type CompanyPersona = (typeof companyPersonas)[number];
interface CompanyWorld {
  tokens: Record<CompanyPersona, string | null>;
  companyId: string;
  suspendedId: string;
  /** Pages for families: partnerThis's company's (waiting; handed over with and without the partner role), the suspended one's. */
  waitingPageId: string;
  allowedPageId: string;
  withdrawnPageId: string;
  suspendedPageId: string;
}
interface CompanyRow {
  call: string;
  variant?: string;
  prepare?: () => Promise<Record<string, string>>;
  request: (w: CompanyWorld, prepared: Record<string, string>) => InjectOptions;
  expect: Record<CompanyPersona, number>;
}
// Columns:                anonymous stranger teamUnverified team partnerThis partnerOther partnerSuspended
const co = (...s: [number, number, number, number, number, number, number]) =>
  Object.fromEntries(companyPersonas.map((p, i) => [p, s[i]!])) as Record<CompanyPersona, number>;
const teamOnly = (ok: number) => co(401, 403, 403, ok, 403, 403, 403);
/** The company's own users while it is active; to everyone else it does not exist. */
const partnerOnly = (ok: number) => co(401, 404, 404, 404, ok, 404, 404);

const companyMatrix: CompanyRow[] = [
  {
    call: 'GET /core/companies/{id}',
    request: (w) => ({ method: 'GET', url: `/core/companies/${w.companyId}` }),
    expect: co(401, 404, 404, 200, 200, 404, 404),
  },
  {
    call: 'GET /core/companies/{id}',
    variant: 'a suspended company',
    request: (w) => ({ method: 'GET', url: `/core/companies/${w.suspendedId}` }),
    expect: co(401, 404, 404, 200, 404, 404, 404),
  },
  {
    call: 'GET /core/companies/{id}/profile',
    request: (w) => ({ method: 'GET', url: `/core/companies/${w.companyId}/profile` }),
    expect: co(401, 404, 404, 200, 200, 404, 404),
  },
  {
    call: 'GET /core/companies/{id}/profile',
    variant: 'a suspended company',
    request: (w) => ({ method: 'GET', url: `/core/companies/${w.suspendedId}/profile` }),
    expect: co(401, 404, 404, 200, 404, 404, 403),
  },
  {
    call: 'PUT /core/companies/{id}/profile',
    request: (w) => ({ method: 'PUT', url: `/core/companies/${w.companyId}/profile`, payload: profileBody }),
    expect: co(401, 404, 404, 404, 200, 404, 404),
  },
  {
    call: 'PUT /core/companies/{id}/profile',
    variant: 'a suspended company',
    request: (w) => ({
      method: 'PUT',
      url: `/core/companies/${w.suspendedId}/profile`,
      payload: profileBody,
    }),
    expect: co(401, 404, 404, 404, 404, 404, 403),
  },
  {
    call: 'POST /core/companies/{id}/logo',
    prepare: () => logoUpload(),
    request: (w, p) => multipartRequest(`/core/companies/${w.companyId}/logo`, p),
    expect: co(401, 404, 404, 404, 200, 404, 404),
  },
  {
    call: 'POST /core/companies/{id}/logo',
    variant: 'a suspended company',
    prepare: () => logoUpload(),
    request: (w, p) => multipartRequest(`/core/companies/${w.suspendedId}/logo`, p),
    expect: co(401, 404, 404, 404, 404, 404, 403),
  },
  {
    call: 'DELETE /core/companies/{id}/logo',
    request: (w) => ({ method: 'DELETE', url: `/core/companies/${w.companyId}/logo` }),
    expect: co(401, 404, 404, 404, 200, 404, 404),
  },
  {
    call: 'GET /core/account/roles',
    request: () => ({ method: 'GET', url: '/core/account/roles' }),
    expect: co(401, 200, 200, 200, 200, 200, 200),
  },
  {
    call: 'GET /core/team/applications',
    request: () => ({ method: 'GET', url: '/core/team/applications' }),
    expect: teamOnly(200),
  },
  {
    call: 'POST /core/team/applications/{id}/approve',
    prepare: async () => ({ id: await applyAsCompany() }),
    request: (_w, p) => ({ method: 'POST', url: `/core/team/applications/${p.id}/approve` }),
    expect: teamOnly(200),
  },
  {
    call: 'POST /core/team/applications/{id}/reject',
    prepare: async () => ({ id: await applyAsCompany() }),
    request: (_w, p) => ({
      method: 'POST',
      url: `/core/team/applications/${p.id}/reject`,
      payload: { reason: 'Buiten ons werkgebied' },
    }),
    expect: teamOnly(200),
  },
  {
    call: 'GET /core/team/companies',
    request: () => ({ method: 'GET', url: '/core/team/companies' }),
    expect: teamOnly(200),
  },
  {
    call: 'POST /core/team/companies/{id}/suspend',
    prepare: async () => ({ id: await approvedCompany() }),
    request: (_w, p) => ({ method: 'POST', url: `/core/team/companies/${p.id}/suspend` }),
    expect: teamOnly(200),
  },
  {
    call: 'POST /core/team/companies/{id}/restore',
    prepare: async () => {
      const id = await approvedCompany();
      await teamCall('POST', `/core/team/companies/${id}/suspend`);
      return { id };
    },
    request: (_w, p) => ({ method: 'POST', url: `/core/team/companies/${p.id}/restore` }),
    expect: teamOnly(200),
  },
  {
    call: 'GET /core/team/members',
    request: () => ({ method: 'GET', url: '/core/team/members' }),
    expect: teamOnly(200),
  },
  {
    call: 'POST /core/team/members',
    request: () => ({
      method: 'POST',
      url: '/core/team/members',
      payload: { email: `teamlid-${crypto.randomUUID().slice(0, 8)}@example.nl` },
    }),
    expect: teamOnly(201),
  },
  {
    call: 'DELETE /core/team/members/{email}',
    prepare: async () => {
      const email = `weg-${crypto.randomUUID().slice(0, 8)}@example.nl`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/core/team/members',
        headers: auth(companyWorld.tokens.team),
        payload: { email },
      });
      expect(res.statusCode, res.body).toBe(201);
      return { email };
    },
    request: (_w, p) => ({ method: 'DELETE', url: `/core/team/members/${encodeURIComponent(p.email!)}` }),
    expect: teamOnly(204),
  },
  // The partner portal: colleagues, pages for families, the family's handover. Only the
  // company's own users, while it is active; partnerThis is its administrator.
  {
    call: 'GET /core/companies/{id}/users',
    request: (w) => ({ method: 'GET', url: `/core/companies/${w.companyId}/users` }),
    expect: partnerOnly(200),
  },
  {
    call: 'POST /core/companies/{id}/invitations',
    request: (w) => ({
      method: 'POST',
      url: `/core/companies/${w.companyId}/invitations`,
      payload: { email: `collega-${crypto.randomUUID().slice(0, 8)}@example.nl` },
    }),
    expect: partnerOnly(201),
  },
  {
    call: 'DELETE /core/companies/{id}/invitations/{invitationId}',
    prepare: async () => ({ id: await colleagueInvitation() }),
    request: (w, p) => ({ method: 'DELETE', url: `/core/companies/${w.companyId}/invitations/${p.id}` }),
    expect: partnerOnly(204),
  },
  {
    call: 'PUT /core/companies/{id}/users/{userId}',
    prepare: async () => ({ userId: await joinedColleague() }),
    request: (w, p) => ({
      method: 'PUT',
      url: `/core/companies/${w.companyId}/users/${p.userId}`,
      payload: { isAdmin: true },
    }),
    expect: partnerOnly(200),
  },
  {
    call: 'DELETE /core/companies/{id}/users/{userId}',
    prepare: async () => ({ userId: await joinedColleague() }),
    request: (w, p) => ({ method: 'DELETE', url: `/core/companies/${w.companyId}/users/${p.userId}` }),
    expect: partnerOnly(204),
  },
  {
    call: 'GET /core/companies/{id}/pages',
    request: (w) => ({ method: 'GET', url: `/core/companies/${w.companyId}/pages` }),
    expect: partnerOnly(200),
  },
  {
    call: 'POST /core/companies/{id}/pages',
    request: (w) => ({
      method: 'POST',
      url: `/core/companies/${w.companyId}/pages`,
      payload: {
        firstName: 'Johanna',
        lastName: 'Willems',
        familyEmail: `familie-${crypto.randomUUID().slice(0, 8)}@example.nl`,
      },
    }),
    expect: partnerOnly(201),
  },
  // Partners pay (partner-billing.test.ts): the company's users see; payments are off here (409).
  {
    call: 'GET /core/companies/{id}/billing',
    request: (w) => ({ method: 'GET', url: `/core/companies/${w.companyId}/billing` }),
    expect: partnerOnly(200),
  },
  {
    call: 'POST /core/companies/{id}/payments',
    request: (w) => ({
      method: 'POST',
      url: `/core/companies/${w.companyId}/payments`,
      payload: { purpose: 'partnership' },
    }),
    expect: partnerOnly(409),
  },
  // The team's screen for plans (partner-billing.test.ts).
  {
    call: 'GET /core/team/memorials',
    request: () => ({ method: 'GET', url: '/core/team/memorials?q=Willems' }),
    expect: teamOnly(200),
  },
  {
    call: 'GET /core/team/memorials/{id}/plan',
    request: (w) => ({ method: 'GET', url: `/core/team/memorials/${w.waitingPageId}/plan` }),
    expect: teamOnly(200),
  },
  {
    call: 'POST /core/companies/{id}/pages/{memorialId}/resend',
    prepare: async () => partnerPage(),
    request: (w, p) => ({
      method: 'POST',
      url: `/core/companies/${w.companyId}/pages/${p.memorialId}/resend`,
    }),
    expect: partnerOnly(200),
  },
  {
    call: 'GET /core/handover/{code}',
    prepare: async () => partnerPage(),
    request: (_w, p) => ({ method: 'GET', url: `/core/handover/${p.code}` }),
    expect: co(200, 200, 200, 200, 200, 200, 200),
  },
  {
    // Anyone holding the link with a verified address, but the company's own users.
    call: 'POST /core/handover/{code}/accept',
    prepare: async () => partnerPage(),
    request: (_w, p) => ({
      method: 'POST',
      url: `/core/handover/${p.code}/accept`,
      payload: { partnerRoleAllowed: false, shownPublicly: false },
    }),
    expect: co(401, 200, 403, 200, 409, 200, 200),
  },
  {
    // Who the company invited, for the family before it accepts: the same callers as the acceptance.
    call: 'GET /core/handover/{code}/members',
    prepare: async () => partnerPage(),
    request: (_w, p) => ({ method: 'GET', url: `/core/handover/${p.code}/members` }),
    expect: co(401, 200, 403, 200, 409, 200, 200),
  },
  {
    call: 'GET /core/memorial/{id}',
    variant: 'a page made for a family, waiting for it',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.waitingPageId}` }),
    expect: co(404, 404, 404, 404, 200, 404, 404),
  },
  {
    call: 'GET /core/memorial/{id}',
    variant: 'the suspended company made it',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.suspendedPageId}` }),
    expect: co(404, 404, 404, 404, 404, 404, 404),
  },
  {
    call: 'GET /core/memorial/{id}',
    variant: 'handed over, the partner role allowed',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.allowedPageId}` }),
    expect: co(404, 404, 404, 404, 200, 404, 404),
  },
  {
    call: 'GET /core/memorial/{id}',
    variant: 'handed over without the partner role',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.withdrawnPageId}` }),
    expect: co(404, 404, 404, 404, 404, 404, 404),
  },
  {
    call: 'PUT /core/memorial',
    variant: 'handed over without the partner role',
    request: (w) => ({
      method: 'PUT',
      url: '/core/memorial',
      payload: { id: w.withdrawnPageId, quote: 'x' },
    }),
    expect: co(401, 404, 404, 404, 404, 404, 404),
  },
  {
    call: 'POST /core/memorial/users/query',
    variant: 'handed over without the partner role',
    request: (w) => ({
      method: 'POST',
      url: '/core/memorial/users/query',
      payload: { memorialId: w.withdrawnPageId },
    }),
    expect: co(401, 404, 404, 404, 404, 404, 404),
  },
  {
    call: 'GET /core/memorial/{id}/care',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.allowedPageId}/care` }),
    expect: co(401, 404, 404, 404, 200, 404, 404),
  },
  {
    call: 'GET /core/memorial/{id}/care',
    variant: 'handed over without the partner role',
    request: (w) => ({ method: 'GET', url: `/core/memorial/${w.withdrawnPageId}/care` }),
    expect: co(401, 404, 404, 404, 404, 404, 404),
  },
  {
    // Only the family (an owner) decides; the partner manages as editor: 403.
    call: 'PUT /core/memorial/{id}/care',
    request: (w) => ({
      method: 'PUT',
      url: `/core/memorial/${w.allowedPageId}/care`,
      payload: { partnerRoleAllowed: true },
    }),
    expect: co(401, 404, 404, 404, 403, 404, 404),
  },
  {
    call: 'GET /core/team/takedowns',
    request: () => ({ method: 'GET', url: '/core/team/takedowns' }),
    expect: teamOnly(200),
  },
  {
    call: 'POST /core/team/takedowns/{itemType}/{itemId}/hide',
    prepare: async () => ({ id: await aMemory() }),
    request: (_w, p) => ({
      method: 'POST',
      url: `/core/team/takedowns/memory/${p.id}/hide`,
      payload: { reason: 'Kwetsend' },
    }),
    expect: teamOnly(200),
  },
  {
    call: 'POST /core/team/takedowns/{itemType}/{itemId}/unhide',
    prepare: async () => {
      const id = await aMemory();
      await t.db.query(
        `UPDATE memories SET hidden_at = now(), hidden_by = 'team', hidden_reason = 'x' WHERE id = $1`,
        [id],
      );
      return { id };
    },
    request: (_w, p) => ({ method: 'POST', url: `/core/team/takedowns/memory/${p.id}/unhide` }),
    expect: teamOnly(200),
  },
  {
    call: 'POST /core/team/memorials/{id}/hand-over',
    prepare: async () => ({ id: (await createMemorial(t, users.otherOwner, { status: 'active' })).id }),
    request: (_w, p) => ({
      method: 'POST',
      url: `/core/team/memorials/${p.id}/hand-over`,
      payload: {
        email: `familie-${crypto.randomUUID().slice(0, 8)}@example.nl`,
        reason: 'Verzoek van de familie',
      },
    }),
    expect: teamOnly(200),
  },
];

const profileBody = {
  name: 'Uitvaartzorg Bos',
  companyType: 'FuneralDirector',
  streetName: 'Dorpsstraat',
  houseNumber: '1',
  postalCode: '1234 AB',
  city: 'Utrecht',
  phoneNumber: '030 123 4567',
  email: 'info@bos.nl',
  prices: [{ name: 'Basis', amountCents: 250000 }],
  workArea: { municipalities: ['Utrecht'], postcodeRanges: [{ from: 3500, to: 3599 }] },
};
async function logoUpload() {
  const body = await form({}, { data: await jpeg(), type: 'image/jpeg', name: 'logo.jpg' });
  return { body: body.payload.toString('base64'), contentType: body.headers['content-type']! };
}

/** A published memory on a memorial of its own (for the team's rows, which have no World). */
async function aMemory() {
  const m = await createMemorial(t, users.otherOwner, { status: 'active' });
  return publishedMemory(m.id);
}

let companyWorld: CompanyWorld;
async function teamCall(method: 'GET' | 'POST', url: string) {
  const res = await t.app.inject({ method, url, ...{ headers: auth(companyWorld.tokens.team) } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
async function applyAsCompany(email = `bedrijf-${crypto.randomUUID().slice(0, 8)}@example.nl`) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/core/companies/request',
    remoteAddress: randomAddress(),
    payload: {
      companyType: 'FuneralDirector',
      firstName: 'Anna',
      lastName: 'Bos',
      companyName: 'Uitvaartzorg Bos',
      streetName: 'Dorpsstraat',
      houseNumber: '1',
      postalCode: '1234 AB',
      phoneNumber: '030 123 4567',
      email,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}
async function approvedCompany(email?: string) {
  const id = await applyAsCompany(email);
  await teamCall('POST', `/core/team/applications/${id}/approve`);
  return id;
}
/** A company with its first partner user (who claimed it with their verified address). */
async function companyWithUser() {
  const email = `partner-${crypto.randomUUID().slice(0, 8)}@example.nl`;
  const id = await approvedCompany(email);
  const { token } = await issueUserToken(t, { email });
  expect(
    (await t.app.inject({ url: '/core/account/roles', headers: auth(token) })).json().companies,
  ).toHaveLength(1);
  return { id, token };
}
/** A page partnerThis's company (or `companyId` as `token`) made for a family, with the code of the family's link. */
async function partnerPage(companyId = companyWorld.companyId, token = companyWorld.tokens.partnerThis) {
  const familyEmail = `familie-${crypto.randomUUID().slice(0, 8)}@example.nl`;
  const res = await t.app.inject({
    method: 'POST',
    url: `/core/companies/${companyId}/pages`,
    headers: auth(token),
    payload: { firstName: 'Johanna', lastName: 'Willems', familyEmail },
  });
  expect(res.statusCode, res.body).toBe(201);
  const mail = await t.smtp.waitFor((m) => m.to.includes(familyEmail), 20_000);
  return {
    memorialId: res.json().memorialId as string,
    code: /\/overnemen\/([\w-]+)/.exec(mail.text)![1]!,
    familyEmail,
  };
}
/** The family takes a page over, allowing the partner role or not. */
async function handedOver(partnerRoleAllowed: boolean) {
  const page = await partnerPage();
  const family = await issueUserToken(t, { email: page.familyEmail });
  const res = await t.app.inject({
    method: 'POST',
    url: `/core/handover/${page.code}/accept`,
    headers: auth(family.token),
    payload: { partnerRoleAllowed, shownPublicly: false },
  });
  expect(res.statusCode, res.body).toBe(200);
  return page.memorialId;
}
async function colleagueInvitation(email = `collega-${crypto.randomUUID().slice(0, 8)}@example.nl`) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/core/companies/${companyWorld.companyId}/invitations`,
    headers: auth(companyWorld.tokens.partnerThis),
    payload: { email },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().invitations.find((i: { email: string }) => i.email === email).id as string;
}
/** A colleague of partnerThis who joined with their verified address. */
async function joinedColleague() {
  const email = `collega-${crypto.randomUUID().slice(0, 8)}@example.nl`;
  await colleagueInvitation(email);
  const { token, userId } = await issueUserToken(t, { email });
  await t.app.inject({ url: '/core/account/roles', headers: auth(token) });
  return userId;
}
async function createCompanyWorld(): Promise<CompanyWorld> {
  const tokens = { anonymous: null } as CompanyWorld['tokens'];
  companyWorld = {
    tokens,
    companyId: '',
    suspendedId: '',
    waitingPageId: '',
    allowedPageId: '',
    withdrawnPageId: '',
    suspendedPageId: '',
  };
  tokens.team = (await issueUserToken(t, { email: 'team@aandenken.test', name: 'Team' })).token;
  await t.db.query(
    `INSERT INTO accounts (email, name, email_verified) VALUES ('team-onbevestigd@aandenken.test', 'X', false)
     ON CONFLICT DO NOTHING`,
  );
  tokens.teamUnverified = (await issueUserToken(t, { email: 'team-onbevestigd@aandenken.test' })).token;
  tokens.stranger = users.stranger.token;
  const a = await companyWithUser();
  const b = await companyWithUser();
  const s = await companyWithUser();
  companyWorld.suspendedPageId = (await partnerPage(s.id, s.token)).memorialId;
  await teamCall('POST', `/core/team/companies/${s.id}/suspend`);
  tokens.partnerThis = a.token;
  tokens.partnerOther = b.token;
  tokens.partnerSuspended = s.token;
  companyWorld.companyId = a.id;
  companyWorld.suspendedId = s.id;
  companyWorld.waitingPageId = (await partnerPage()).memorialId;
  companyWorld.allowedPageId = await handedOver(true);
  companyWorld.withdrawnPageId = await handedOver(false);
  return companyWorld;
}

/**
 * The /core routes outside the memorial domain, with the reason; every other /core route the app
 * registers (collected with Fastify's onRoute hook, documented or not) must have a row above.
 */
const outsideMatrix: { route: string; reason: string }[] = [
  { route: 'POST /core/companies/request', reason: 'a partner registration; no memorial involved' },
  { route: 'POST /core/contact', reason: 'the contact form; no memorial involved' },
  { route: 'GET /core/public/companies', reason: 'the public directory of active companies' },
  { route: 'GET /core/public/companies/{slug}', reason: 'an active company’s public page' },
  {
    route: 'GET /core/public/company-logos/{logoId}/{variant}',
    reason: 'an active company’s public logo (partner-profile.test.ts: 404 once suspended)',
  },
  { route: 'GET /core/openapi.json', reason: 'the public API description' },
  {
    route: 'GET /core/account/sign-in-methods',
    reason: 'which sign-in buttons the site shows; no memorial or account involved',
  },
  {
    route: 'POST /core/payments/webhook',
    reason: "Mollie's webhook: only an id, looked up at Mollie itself (payments.test.ts)",
  },
  { route: '* /core/docs*', reason: 'the public API documentation pages (Swagger UI)' },
  {
    route: 'GET /core/memorial/{id}/guestbook/stream',
    reason:
      'a live stream that stays open (inject would wait for its end): guestbook.test.ts checks 401, 403, 404 and 200',
  },
  {
    route: 'POST /core/subscriptions/confirm',
    reason:
      'the link in a confirmation mail: the token is the proof, not the session (future-messages.test.ts)',
  },
  {
    route: 'POST /core/mail/unsubscribe',
    reason:
      'the one-click unsubscribe link in a mail: its signed token is the proof (future-messages.test.ts)',
  },
];
const isOutside = (call: string) =>
  outsideMatrix.some(({ route }) => {
    if (!route.includes('*')) return route === call;
    const [method, path] = route.split(' ') as [string, string];
    return (
      (method === '*' || call.startsWith(`${method} `)) &&
      call.split(' ')[1]!.startsWith(path.replace('*', ''))
    );
  });
/** Every call documents these refusals: each takes input, reads the bearer token, and can be refused. */
const documentedErrors = ['400', '401', '403', '404'];

/** Every /core route as the app registers it, as 'METHOD /core/path/{param}'. */
const routes = new Set<string>();

let t: TestContext;
let users: Users;
let other: { memorialId: string; guestToken: string };
const shared = new Map<string, World>();

beforeAll(async () => {
  t = await createTestApp(
    { ADMIN_EMAILS: 'team@aandenken.test,team-onbevestigd@aandenken.test' },
    undefined,
    {
      onRoute: (route) => {
        if (!route.url.startsWith('/core')) return;
        const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
        for (const method of [route.method].flat()) routes.add(`${method} ${path}`);
      },
    },
  );
  users = await createUsers(t);
  const o = await createMemorial(t, users.otherOwner, { status: 'active' });
  other = { memorialId: o.id, guestToken: await guestTokenFor(t, o.id) };
});
afterAll(async () => t?.close());

async function worldFor(row: Row): Promise<World> {
  const visibility = row.visibility ?? 'private';
  if (row.ownUsers) return createWorld(t, await createUsers(t), other, { visibility });
  if (row.fresh) return createWorld(t, users, other, { visibility });
  let w = shared.get(visibility);
  if (!w) {
    w = await createWorld(t, users, other, { visibility });
    shared.set(visibility, w);
  }
  return w;
}

describe('authorization matrix', () => {
  for (const row of matrix) {
    it(`${row.call}${row.variant ? ` (${row.variant})` : ''}`, async () => {
      const got: Partial<Expect> = {};
      for (const persona of personas) {
        const w = await worldFor(row);
        const prepared = row.prepare ? await row.prepare({ t, w }) : {};
        const req = row.request(w, prepared);
        const res = await t.app.inject({
          ...req,
          headers: { ...(req.headers ?? {}), ...auth(w.tokens[persona]) },
        });
        got[persona] = res.statusCode;
        if (res.statusCode >= 400) {
          // Refusals are the API's error shape with a Dutch message, never a crash.
          expect(res.statusCode, `${persona}: ${res.body}`).toBeLessThan(500);
          expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
        }
        expectCacheControl(
          `${persona}: cache-control`,
          res,
          persona === 'anonymous',
          (row.visibility ?? 'private') === 'private',
        );
      }
      expect(got).toEqual(row.expect);
    });
  }

  describe('companies and the team', () => {
    for (const row of companyMatrix) {
      it(`${row.call}${row.variant ? ` (${row.variant})` : ''}`, async () => {
        const w = companyWorld ?? (await createCompanyWorld());
        const got: Partial<Record<CompanyPersona, number>> = {};
        for (const persona of companyPersonas) {
          const prepared = row.prepare ? await row.prepare() : {};
          const req = row.request(w, prepared);
          const res = await t.app.inject({
            ...req,
            headers: { ...(req.headers ?? {}), ...auth(w.tokens[persona]) },
          });
          got[persona] = res.statusCode;
          if (res.statusCode >= 400) {
            expect(res.statusCode, `${persona}: ${res.body}`).toBeLessThan(500);
            expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
          }
          expectCacheControl(`${persona}: cache-control`, res, persona === 'anonymous', false);
        }
        expect(got).toEqual(row.expect);
      });
    }
  });

  it('answers 401 to an anonymous caller of every members-only call, whatever the body or address', async () => {
    // Members-only: no row lets an anonymous caller succeed. Authentication comes before validation, so
    // a malformed body or id says nothing about the call to someone who may not make it.
    // Ids the set-up would make are left made up: the answer must not depend on them.
    const madeUp = new Proxy({} as Record<string, string>, { get: () => crypto.randomUUID() });
    // The memorial domain's rows and those of companies and the team alike.
    const all = [
      ...matrix.map((r) => ({
        call: r.call,
        variant: r.variant,
        anonymous: r.expect.anonymous,
        build: async () => r.request(await worldFor(r), madeUp),
      })),
      ...companyMatrix.map((r) => ({
        call: r.call,
        variant: r.variant,
        anonymous: r.expect.anonymous,
        build: async () => r.request(companyWorld ?? (await createCompanyWorld()), madeUp),
      })),
    ];
    const calls = [...new Set(all.map((r) => r.call))].filter(
      // A 409 to an anonymous caller (no kaarsjesmoment on now) means the call itself is open to them.
      (call) => !all.some((r) => r.call === call && (r.anonymous < 300 || r.anonymous === 409)),
    );
    expect(calls.length).toBeGreaterThan(60);
    for (const call of calls) {
      const rows = all.filter((r) => r.call === call);
      for (const r of rows) expect(r.anonymous, `${call} ${r.variant ?? ''}`).toBe(401);
      const base = await rows[0]!.build();
      const url = String(base.url);
      const method = base.method ?? 'GET';
      const broken = url.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, 'kapot');
      const attempts: InjectOptions[] = [
        { method, url: broken },
        { method, url, headers: { 'content-type': 'application/json' }, payload: '{"kapot": ' },
        { method, url: broken, payload: {} },
        { method, url, payload: { id: 'x', memorialId: 'x', text: 'nul\u0000', firstName: 5 } },
        {
          method,
          url,
          headers: { 'content-type': 'multipart/form-data', 'content-length': '104857600' },
          payload: 'geen grens',
        },
        { method, url, headers: { authorization: 'Bearer verlopen' }, payload: {} },
        { method, url, headers: { authorization: 'Basic eA==' }, payload: {} },
      ];
      for (const req of attempts) {
        const res = await t.app.inject({ ...req, remoteAddress: randomAddress() });
        const label = `${call} ${JSON.stringify({ url: req.url, headers: req.headers, payload: req.payload })}`;
        expect(res.statusCode, `${label}: ${res.body}`).toBe(401);
        expect(res.json(), label).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
      }
    }
  });

  it('has a row for every /core route the app registers, except the listed ones outside the domain', () => {
    // Fastify adds a HEAD route to every GET; the GET's row covers it.
    const calls = [...routes].filter((c) => !(c.startsWith('HEAD ') && routes.has(`GET ${c.slice(5)}`)));
    expect(calls.length, 'routes were collected').toBeGreaterThan(40);
    const inMatrix = new Set([...matrix, ...companyMatrix].map((r) => r.call));
    expect(
      calls.filter((c) => !inMatrix.has(c) && !isOutside(c)),
      'routes without a row in the authorization matrix',
    ).toEqual([]);
    expect(
      [...inMatrix].filter((c) => !routes.has(c)),
      'rows for calls the app does not have',
    ).toEqual([]);
    expect(
      calls.filter((c) => inMatrix.has(c) && isOutside(c)),
      'calls both in the matrix and listed as outside it',
    ).toEqual([]);
    for (const { route } of outsideMatrix)
      expect(
        calls.some((c) => isOutside(c) && (route === c || route.includes('*'))),
        route,
      ).toBe(true);
  });

  it("registers every /core route at a path of the contract's table (apiPaths), and every path of it", () => {
    const table = new Set(
      Object.values(apiPaths).map((p) => `${apiPrefix}${p.pattern}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}')),
    );
    // Swagger UI's pages are the documentation plugin's own.
    const paths = new Set(
      [...routes].map((c) => c.split(' ')[1]!).filter((p) => !p.startsWith(`${apiPrefix}/docs`)),
    );
    expect(
      [...paths].filter((p) => !table.has(p)),
      'paths missing from apiPaths',
    ).toEqual([]);
    expect(
      [...table].filter((p) => !paths.has(p)),
      'apiPaths the app does not register',
    ).toEqual([]);
  });

  it('documents every call of the matrix with its schema and the same error responses', async () => {
    const doc = (await t.app.inject({ url: '/core/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { summary?: string; responses?: Record<string, { content?: object }> }>
      >;
    };
    const rows: { call: string; expect: Record<string, number> }[] = [...matrix, ...companyMatrix];
    for (const call of new Set(rows.map((r) => r.call))) {
      const [method, path] = call.split(' ') as [string, string];
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op, `${call} is not in /core/openapi.json`).toBeDefined();
      expect(op!.summary, `${call} summary`).toBeTruthy();
      const ok = Object.entries(op!.responses ?? {}).filter(([status]) => status.startsWith('2'));
      expect(ok.length, `${call} success response`).toBeGreaterThanOrEqual(1);
      for (const [status, r] of ok)
        if (status !== '204') expect(r.content, `${call} ${status} schema`).toBeDefined();
      // The uniform refusals, and every status the matrix expects of this call.
      const expected = rows
        .filter((r) => r.call === call)
        .flatMap((r) => Object.values(r.expect).map(String));
      for (const status of new Set([...documentedErrors, ...expected]))
        expect(op!.responses?.[status], `${call} documents ${status}`).toBeDefined();
      for (const status of documentedErrors)
        expect(op!.responses?.[status]?.content, `${call} ${status} schema`).toBeDefined();
    }
  });

  it('answers callers who may not see a private memorial byte for byte as for a missing one', async () => {
    let compared = 0;
    for (const row of matrix) {
      if ((row.visibility ?? 'private') !== 'private') continue;
      const w = await worldFor(row);
      const missing: World = { ...w, memorialId: crypto.randomUUID() };
      // Set-up that needs the memorial to exist (a memory, a candle) makes a row about that item, not
      // about the memorial itself: those rows are left out here.
      const forMissing = row.prepare ? await row.prepare({ t, w: missing }).catch(() => null) : {};
      if (!forMissing) continue;
      const real = row.request(w, row.prepare ? await row.prepare({ t, w }) : {});
      const absent = row.request(missing, forMissing);
      if (JSON.stringify(real) === JSON.stringify(absent)) continue; // the call does not name the memorial
      for (const persona of ['anonymous', 'guestOther', 'stranger'] as const) {
        if (row.expect[persona] !== 404) continue;
        const headers = (req: InjectOptions) => ({ ...(req.headers ?? {}), ...auth(w.tokens[persona]) });
        // Each from its own address, so the calls' rate limits (shared with the cells above) stay out of it.
        const a = await t.app.inject({ ...real, headers: headers(real), remoteAddress: randomAddress() });
        const b = await t.app.inject({ ...absent, headers: headers(absent), remoteAddress: randomAddress() });
        const label = `${row.call}${row.variant ? ` (${row.variant})` : ''} as ${persona}`;
        expect(a.statusCode, label).toBe(404);
        expect(b.statusCode, label).toBe(404);
        expect(a.rawPayload.equals(b.rawPayload), `${label}: ${a.body} ≠ ${b.body}`).toBe(true);
        expect(a.headers['content-type'], label).toBe(b.headers['content-type']);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });
});
