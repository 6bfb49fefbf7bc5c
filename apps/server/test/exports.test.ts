/**
 * Exports (docs/exports.md): an owner's zip of a whole memorial (static HTML + data.json + media) and a
 * person's zip of their own data, each built by the background job, mailed as a signed link that expires.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, forgeSignature, type TestContext } from './helpers.ts';
import {
  auth,
  createMemorial,
  createUsers,
  createWorld,
  guestTokenFor,
  type Users,
  type World,
} from './memorial-fixtures.ts';
import { candle, galleryPhoto, memoryPhoto } from './fixtures/content-matrix.ts';

let t: TestContext;
let users: Users;
let w: World;
const SCRIPT_MEMORY = '<script>alert("xss")</script> Zomer & zon aan zee';
const SECRET_CONCEPT = 'Geheim concept van de redacteur';
let galleryId: string;
let memoryPhotoId: string;
let scriptMemoryId: string;

const as = (token: string | null) => auth(token);

async function write(token: string, text: string, publish: boolean) {
  const m = await t.app.inject({
    method: 'POST',
    url: '/core/memories/concept',
    headers: as(token),
    payload: { memorialId: w.memorialId, yearLabel: '1975', text, membersOnly: false },
  });
  expect(m.statusCode).toBe(201);
  const id = m.json().id as string;
  if (publish) {
    const p = await t.app.inject({
      method: 'POST',
      url: '/core/memories/publish',
      headers: as(token),
      payload: { id },
    });
    expect(p.statusCode).toBe(200);
  }
  return id;
}

/** The stored file the export must hold for a media item: its widest variant (JPEG first), read from disk. */
async function storedOriginal(mediaId: string) {
  const { rows } = await t.db.query<{ storage_key: string }>(
    `SELECT storage_key FROM media_variants WHERE media_id = $1
      ORDER BY (name = 'original') DESC, width DESC NULLS LAST, (content_type = 'image/jpeg') DESC LIMIT 1`,
    [mediaId],
  );
  return fs.readFile(path.join(t.dataDir, 'media', rows[0]!.storage_key));
}

async function requestAndWait(url: string, token: string) {
  const res = await t.app.inject({ method: 'POST', url, headers: as(token) });
  expect(res.statusCode).toBe(202);
  expect(res.json().status).toBe('preparing');
  await t.app.deps.queue.idle();
  const state = await t.app.inject({ method: 'GET', url, headers: as(token) });
  expect(state.statusCode).toBe(200);
  expect(state.json()).toMatchObject({ status: 'ready' });
  return state.json() as { downloadUrl: string; expiresAt: string; sizeBytes: number };
}

const pathOf = (url: string) => url.replace(t.config.API_URL, '');
const exportIdOf = (url: string) => /\/export\/([0-9a-f-]{36})\//.exec(url)![1]!;

async function download(url: string, token: string | null = null) {
  const res = await t.app.inject({ method: 'GET', url: pathOf(url), headers: as(token) });
  return res;
}

beforeAll(async () => {
  t = await createTestApp();
  users = await createUsers(t);
  const o = await createMemorial(t, users.otherOwner, { status: 'active' });
  w = await createWorld(t, users, { memorialId: o.id, guestToken: await guestTokenFor(t, o.id) });
  galleryId = await galleryPhoto(t, w);
  memoryPhotoId = await memoryPhoto(t, w);
  scriptMemoryId = await write(users.contributor.token, SCRIPT_MEMORY, true);
  await write(users.editor.token, SECRET_CONCEPT, false);
  await candle(t, w);
  // Stored HTML that was not cleaned (an older row, a bug elsewhere): the export cleans it again.
  await t.db.query(
    `UPDATE memorials SET biography_html = $2, quote = $3, cover_media_id = $4 WHERE id = $1`,
    [
      w.memorialId,
      '<p>Hij hield van <strong>zeilen</strong>.</p><img src="https://tracker.example/x.png"><script>alert(1)</script>',
      'Liefde is <b>blijven</b>',
      galleryId,
    ],
  );
  await t.app.deps.queue.idle(); // photo variants done
}, 60_000);
afterAll(() => t?.close());

describe('memorial export (owners)', () => {
  let ready: { downloadUrl: string; expiresAt: string; sizeBytes: number };
  let files: Record<string, Uint8Array>;

  beforeAll(async () => {
    ready = await requestAndWait(`/core/memorial/${w.memorialId}/export`, users.owner.token);
    const res = await download(ready.downloadUrl);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="aandenken-.*\.zip"$/);
    expect(res.rawPayload.length).toBe(ready.sizeBytes);
    files = unzipSync(new Uint8Array(res.rawPayload));
  }, 60_000);

  it('mails the owner a link to the zip that expires', async () => {
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(users.owner.email) && m.subject.includes('export van de gedenkpagina'),
    );
    expect(mail.text).toContain(ready.downloadUrl);
    expect(new Date(ready.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);
    expect(mail.text).toMatch(/Deze link werkt tot \d+ \w+ \d{4}/);
  });

  it('holds data.json with the page, published memories, candles and the media listed', () => {
    const data = JSON.parse(new TextDecoder().decode(files['data.json']!));
    expect(data.memorial).toMatchObject({ id: w.memorialId, coverMediaId: galleryId });
    expect(data.gallery.map((m: { id: string }) => m.id)).toEqual([galleryId]);
    const texts = data.memories.map((m: { text: string }) => m.text);
    expect(texts).toContain(SCRIPT_MEMORY);
    expect(texts).not.toContain(SECRET_CONCEPT);
    const withPhoto = data.memories.find((m: { media: unknown[] }) => m.media.length > 0);
    expect(withPhoto.media[0].id).toBe(memoryPhotoId);
    expect(data.candles.count).toBe(1);
    expect(Object.keys(files).sort()).toEqual(
      ['data.json', 'index.html', `media/${galleryId}.jpg`, `media/${memoryPhotoId}.jpg`].sort(),
    );
  });

  it('holds every photo byte for byte as stored, at its largest size', async () => {
    for (const id of [galleryId, memoryPhotoId]) {
      const stored = await storedOriginal(id);
      expect(Buffer.from(files[`media/${id}.jpg`]!).equals(stored)).toBe(true);
    }
  });

  it('holds an index.html that escapes user text and loads nothing from the network', () => {
    const html = new TextDecoder().decode(files['index.html']!);
    expect(html).toContain('&lt;script&gt;alert(&quot;xss&quot;)&lt;/script&gt; Zomer &amp; zon aan zee');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<strong>zeilen</strong>'); // the biography, cleaned as on the web
    expect(html).not.toContain('tracker.example');
    expect(html).toContain('Liefde is &lt;b&gt;blijven&lt;/b&gt;');
    expect(html).toContain(`src="media/${galleryId}.jpg"`);
    expect(html).toContain('1 kaarsje aangestoken');
    expect(html).toContain("default-src 'none'");
    // Nothing from elsewhere: every src and stylesheet is a relative path inside the zip.
    for (const [, src] of html.matchAll(/\b(?:src|href)="([^"]*)"/g)) expect(src).toMatch(/^media\//);
  });

  it('answers only owners', async () => {
    const url = `/core/memorial/${w.memorialId}/export`;
    for (const [token, status] of [
      [null, 401],
      [w.tokens.guestThis, 403],
      [users.guest.token, 403],
      [users.contributor.token, 403],
      [users.editor.token, 403],
      [users.stranger.token, 404],
    ] as const) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await t.app.inject({ method, url, headers: as(token) });
        expect(res.statusCode, `${method} ${status}`).toBe(status);
        expect(res.json().code).toBeTypeOf('string');
      }
    }
  });

  it('refuses the link to another signed-in person, a guest, a changed signature and after it expired', async () => {
    const other = await download(ready.downloadUrl, users.editor.token);
    expect(other.statusCode).toBe(403);
    expect(other.json().code).toBe('EXPORT_NOT_YOURS');
    expect((await download(ready.downloadUrl, w.tokens.guestThis)).statusCode).toBe(403);
    expect((await download(ready.downloadUrl, users.owner.token)).statusCode).toBe(200);

    const tampered = forgeSignature(ready.downloadUrl);
    expect((await download(tampered)).json().code).toBe('EXPORT_LINK_INVALID');
    const otherId = ready.downloadUrl.replace(exportIdOf(ready.downloadUrl), crypto.randomUUID());
    expect((await download(otherId)).statusCode).toBe(403);

    // A correctly signed link whose time is up.
    const { rows } = await t.db.query<{ value: string }>(
      `SELECT value #>> '{}' AS value FROM server_secrets WHERE name = 'export-url-key'`,
    );
    const id = exportIdOf(ready.downloadUrl);
    const exp = Math.floor(Date.now() / 1000) - 1;
    const sig = createHmac('sha256', Buffer.from(rows[0]!.value, 'base64'))
      .update(`export:${id}:${exp}`)
      .digest('base64url');
    const late = await t.app.inject({
      method: 'GET',
      url: `/core/export/${id}/download?exp=${exp}&sig=${sig}`,
    });
    expect(late.statusCode).toBe(403);
    expect(late.json().code).toBe('EXPORT_LINK_EXPIRED');

    // The mailed link itself, once its export has expired.
    await t.db.query(`UPDATE exports SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    const expired = await download(ready.downloadUrl);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().code).toBe('EXPORT_LINK_EXPIRED');
    const state = await t.app.inject({
      method: 'GET',
      url: `/core/memorial/${w.memorialId}/export`,
      headers: as(users.owner.token),
    });
    expect(state.json()).toMatchObject({ status: 'none', downloadUrl: null });
  });

  it('replaces an older export and deletes its file', async () => {
    const before = await requestAndWait(`/core/memorial/${w.memorialId}/export`, users.owner.token);
    const oldId = exportIdOf(before.downloadUrl);
    expect(await fs.stat(path.join(t.dataDir, 'media', oldId, 'export.zip'))).toBeTruthy();
    const after = await requestAndWait(`/core/memorial/${w.memorialId}/export`, users.owner.token);
    expect(exportIdOf(after.downloadUrl)).not.toBe(oldId);
    await t.app.deps.queue.idle();
    await expect(fs.stat(path.join(t.dataDir, 'media', oldId))).rejects.toThrow();
    expect((await download(before.downloadUrl)).statusCode).toBe(404);
    expect((await download(after.downloadUrl)).statusCode).toBe(200);
  });

  it("deletes expired exports and their files, whoever's they are, when a new one is asked for", async () => {
    const mine = await requestAndWait('/core/account/export', users.editor.token);
    const id = exportIdOf(mine.downloadUrl);
    await t.db.query(`UPDATE exports SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    await requestAndWait('/core/account/export', users.stranger.token);
    await t.app.deps.queue.idle();
    expect((await t.db.query('SELECT 1 FROM exports WHERE id = $1', [id])).rows).toEqual([]);
    await expect(fs.stat(path.join(t.dataDir, 'media', id))).rejects.toThrow();
  });
});

describe('scheduled clean-up of expired exports', () => {
  it('a job deletes an export and its file when its link expires, without waiting for another request', async () => {
    const ready = await requestAndWait('/core/account/export', users.guest.token);
    const id = exportIdOf(ready.downloadUrl);
    const job = async () =>
      (
        await t.db.query<{ run_at: Date; status: string }>(
          `SELECT run_at, status FROM jobs WHERE kind = 'export.expire' AND payload->>'exportId' = $1
            ORDER BY id DESC LIMIT 1`,
          [id],
        )
      ).rows[0];
    // Scheduled for the moment the link expires.
    const scheduled = await job();
    expect(scheduled?.status).toBe('queued');
    expect(Math.abs(scheduled!.run_at.getTime() - new Date(ready.expiresAt).getTime())).toBeLessThan(60_000);

    // Run early (a clock that differs): the export stays, and the job waits again.
    await t.db.query(
      `UPDATE jobs SET run_at = now() WHERE kind = 'export.expire' AND payload->>'exportId' = $1`,
      [id],
    );
    await t.app.deps.queue.idle();
    expect((await t.db.query('SELECT 1 FROM exports WHERE id = $1', [id])).rows).toHaveLength(1);
    expect((await job())?.status).toBe('queued');

    // Its time has come.
    await t.db.query(`UPDATE exports SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    await t.db.query(
      `UPDATE jobs SET run_at = now() WHERE kind = 'export.expire' AND payload->>'exportId' = $1 AND status = 'queued'`,
      [id],
    );
    await t.app.deps.queue.idle();
    await t.app.deps.queue.idle();
    expect((await t.db.query('SELECT 1 FROM exports WHERE id = $1', [id])).rows).toEqual([]);
    await expect(fs.stat(path.join(t.dataDir, 'media', id))).rejects.toThrow();
  });
});

describe('personal export (everyone signed in)', () => {
  it('holds their profile, memories, photos, candles, memberships and audit entries, and nothing of others', async () => {
    const ready = await requestAndWait('/core/account/export', users.contributor.token);
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(users.contributor.email) && m.subject.includes('Je gegevens staan klaar'),
    );
    expect(mail.text).toContain(ready.downloadUrl);
    // Not for the owner of the memorial either.
    expect((await download(ready.downloadUrl, users.owner.token)).statusCode).toBe(403);
    const res = await download(ready.downloadUrl, users.contributor.token);
    expect(res.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const data = JSON.parse(new TextDecoder().decode(files['data.json']!));
    expect(data.profile).toMatchObject({ userId: users.contributor.userId, email: users.contributor.email });
    expect(data.memberships).toEqual([
      expect.objectContaining({ memorialId: w.memorialId, role: 'contributor' }),
    ]);
    expect(data.memories.map((m: { id: string }) => m.id)).toContain(scriptMemoryId);
    expect(data.media.map((m: { id: string }) => m.id)).toEqual([memoryPhotoId]);
    expect(
      Buffer.from(files[`media/${memoryPhotoId}.jpg`]!).equals(await storedOriginal(memoryPhotoId)),
    ).toBe(true);
    expect(data.audit.length).toBeGreaterThan(0);
    expect(data.candles).toEqual([]);

    const everything = Object.values(files)
      .map((f) => Buffer.from(f).toString('latin1'))
      .join('\n');
    for (const u of [users.owner, users.editor, users.guest, users.stranger, users.otherOwner]) {
      expect(everything).not.toContain(u.email);
      expect(everything).not.toContain(u.userId);
    }
    expect(everything).not.toContain(SECRET_CONCEPT);
    expect(Object.keys(files)).not.toContain(`media/${galleryId}.jpg`);
  });

  it('lists the candles one lit and is refused to anonymous callers and guests', async () => {
    const ready = await requestAndWait('/core/account/export', users.owner.token);
    const files = unzipSync(new Uint8Array((await download(ready.downloadUrl)).rawPayload));
    const data = JSON.parse(new TextDecoder().decode(files['data.json']!));
    expect(data.candles).toHaveLength(1);
    expect(data.media.map((m: { id: string }) => m.id)).toEqual([galleryId]);
    expect(data.audit.map((a: { action: string }) => a.action)).toContain('memorial.export_requested');
    for (const token of [null, w.tokens.guestThis]) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await t.app.inject({ method, url: '/core/account/export', headers: as(token) });
        expect(res.statusCode).toBe(401);
      }
    }
  });
});

describe('an export that cannot be made', () => {
  it('is retried, then shown as failed, and leaves no temporary file', async () => {
    // A stored photo file is gone (a disk fault): every attempt fails.
    const { rows } = await t.db.query<{ storage_key: string }>(
      `SELECT storage_key FROM media_variants WHERE media_id = $1`,
      [galleryId],
    );
    for (const r of rows) await fs.rm(path.join(t.dataDir, 'media', r.storage_key));
    const url = `/core/memorial/${w.memorialId}/export`;
    expect((await t.app.inject({ method: 'POST', url, headers: as(users.owner.token) })).statusCode).toBe(
      202,
    );
    for (let attempt = 0; attempt < 3; attempt++) {
      await t.app.deps.queue.idle();
      // Skip the backoff: the next attempt is due now.
      await t.db.query(`UPDATE jobs SET run_at = now() WHERE kind = 'export.build' AND status = 'queued'`);
    }
    await t.app.deps.queue.idle();
    const state = await t.app.inject({ method: 'GET', url, headers: as(users.owner.token) });
    expect(state.json()).toMatchObject({ status: 'failed', downloadUrl: null });
    const { rows: jobs } = await t.db.query<{ attempts: number }>(
      `SELECT attempts FROM jobs WHERE kind = 'export.build' AND status = 'failed'`,
    );
    expect(jobs.map((j) => j.attempts)).toEqual([3]);
    expect((await fs.readdir(path.join(t.dataDir, 'tmp'))).filter((f) => f.startsWith('export-'))).toEqual(
      [],
    );
    // Asking again starts a new one.
    const again = await t.app.inject({ method: 'POST', url, headers: as(users.owner.token) });
    expect(again.json().status).toBe('preparing');
  });
});
