import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_IMAGE_MAX_BYTES } from '@aandenken/contract';
import { mediaUrlSigner } from '../src/lib/media/url-signer.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import {
  cast,
  describeVideo,
  eventually,
  form,
  guestToken,
  heic,
  jpeg,
  mp4,
  pathOf,
  phonePhoto,
  png,
  video,
  webm,
} from './fixtures/content.ts';

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;

beforeAll(async () => {
  t = await createTestApp();
  c = await cast(t, 'media');
});
afterAll(async () => t?.close());

const mediaDir = () => path.join(t.dataDir, 'media');
const tmpDir = () => path.join(t.dataDir, 'tmp');
const listDir = async (dir: string) => fs.readdir(dir).catch(() => [] as string[]);
const count = async (sql: string, params: unknown[] = []) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]!.n;

async function upload(
  headers: Record<string, string> | undefined,
  fields: Record<string, string>,
  file?: { data: Buffer; type: string; name?: string },
  url = '/core/memorial-media',
) {
  const body = await form(fields, file);
  return t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...headers, ...body.headers },
  });
}

const uploadJpeg = async (who = c.contributor, memorialId = c.privateId) => {
  const res = await upload(
    who.headers,
    { memorialId },
    { data: await jpeg(), type: 'image/jpeg', name: 'foto.jpg' },
  );
  expect(res.statusCode).toBe(201);
  return res.json();
};

/** Nothing of a refused upload remains: no row, no file, no temporary file. */
async function expectNothingStored(beforeRows: number, beforeFiles: string[]) {
  expect(await count('media')).toBe(beforeRows);
  expect(await listDir(mediaDir())).toEqual(beforeFiles);
  expect(await listDir(tmpDir())).toEqual([]);
}

describe('POST /core/memorial-media', () => {
  it('turns a phone photo upright, strips EXIF/GPS/ICC from every variant, and renders the rest in the background', async () => {
    const original = await phonePhoto();
    const meta = await sharp(original).metadata();
    const hasGps = (exif: Buffer | undefined) =>
      !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]))); // GPS IFD pointer tag
    expect(hasGps(meta.exif)).toBe(true);
    expect(meta.orientation).toBe(6);
    expect(meta.icc).toBeDefined();

    const res = await upload(
      c.contributor.headers,
      { memorialId: c.privateId, caption: 'Op de boot' },
      { data: original, type: 'image/jpeg', name: 'IMG_0001.jpg' },
    );
    expect(res.statusCode).toBe(201);
    const item = res.json();
    expect(item).toMatchObject({
      memorialId: c.privateId,
      memoryId: null,
      kind: 'image',
      status: 'processing',
      contentType: 'image/jpeg',
      caption: 'Op de boot',
      width: 1600, // upright: the 2400x1600 sensor image was turned a quarter
      height: 2400,
      ownUpload: true,
    });
    // Answered once the web-sized WebP existed; nothing else yet.
    expect(item.variants.map((v: { name: string }) => v.name)).toEqual(['w1280.webp']);
    expect(item.url).toMatch(/\/core\/media\/[0-9a-f-]{36}\/w1280\.webp\?exp=\d+&sig=[\w-]{43}$/);
    expect(item.urlsExpireAt).not.toBeNull();

    const ready = await eventually(async () => {
      const r = await t.app.inject({
        url: `/core/memorial-media/${item.id}`,
        headers: c.contributor.headers,
      });
      return r.json().status === 'ready' ? r.json() : null;
    });
    const names = ready.variants.map((v: { name: string }) => v.name).sort();
    expect(names).toEqual(
      ['w320', 'w640', 'w1280', 'w1600'].flatMap((w) => [`${w}.jpg`, `${w}.webp`]).sort(),
    );
    expect(ready.srcSet.webp).toContain(' 320w');
    expect(ready.srcSet.jpeg).toContain(' 1600w');

    for (const v of ready.variants) {
      const bytes = await t.app.inject({ url: pathOf(v.url) });
      expect(bytes.statusCode, v.name).toBe(200);
      expect(bytes.headers['content-type']).toBe(v.contentType);
      const out = await sharp(bytes.rawPayload).metadata();
      expect(out.format).toBe(v.name.endsWith('.webp') ? 'webp' : 'jpeg');
      expect([out.width, out.height]).toEqual([v.width, v.height]);
      expect(out.height! > out.width!).toBe(true);
      expect(out.exif, `${v.name} has EXIF`).toBeUndefined();
      expect(out.xmp).toBeUndefined();
      expect(out.icc).toBeUndefined();
      expect(out.orientation).toBeUndefined();
      expect(bytes.rawPayload.includes(Buffer.from('Geheim 3000'))).toBe(false);
      expect(bytes.rawPayload.includes(Buffer.from('Exif\0\0'))).toBe(false);
    }
    // The uploaded source (with its GPS) is gone once every variant exists.
    const files = await listDir(path.join(mediaDir(), item.id));
    expect(files.sort()).toEqual(names);
    const job = await t.db.query(
      `SELECT status, attempts FROM jobs WHERE kind = 'media.variants' AND payload->>'mediaId' = $1`,
      [item.id],
    );
    expect(job.rows).toEqual([{ status: 'done', attempts: 1 }]);
    const audit = await t.db.query(`SELECT action FROM memorial_audit_log WHERE target_id = $1`, [item.id]);
    expect(audit.rows).toEqual([{ action: 'media.added' }]);

    // The media row keeps its variants as JSON, in step with media_variants through a trigger (migration
    // 091): smallest first, and a variant that goes is gone from the answer too.
    const kept = await t.db.query<{ variants: { name: string; width: number }[] }>(
      'SELECT variants FROM media WHERE id = $1',
      [item.id],
    );
    expect(kept.rows[0]!.variants.map((v) => v.width)).toEqual([320, 320, 640, 640, 1280, 1280, 1600, 1600]);
    await t.db.query(`DELETE FROM media_variants WHERE media_id = $1 AND name = 'w320.jpg'`, [item.id]);
    const after = await t.app.inject({
      url: `/core/memorial-media/${item.id}`,
      headers: c.contributor.headers,
    });
    expect(after.json().variants.map((v: { name: string }) => v.name)).toEqual(
      ready.variants.map((v: { name: string }) => v.name).filter((n: string) => n !== 'w320.jpg'),
    );
  });

  it('accepts PNG, WebP, AVIF and GIF (first frame), each checked by a real decode', async () => {
    const base = sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } });
    const files: [Buffer, string][] = [
      [await png(), 'image/png'],
      [await base.clone().webp().toBuffer(), 'image/webp'],
      [await base.clone().avif().toBuffer(), 'image/avif'],
      [await base.clone().gif().toBuffer(), 'image/gif'],
      [await jpeg(), 'image/jpg'], // a common alias of image/jpeg
    ];
    for (const [data, type] of files) {
      const res = await upload(c.editor.headers, { memorialId: c.privateId }, { data, type });
      expect(res.statusCode, type).toBe(201);
      // The web-sized WebP is there when the upload answers (the background job may have added a JPEG already).
      expect(
        res.json().variants.map((v: { name: string }) => v.name),
        type,
      ).toContainEqual(expect.stringMatching(/^w\d+\.webp$/));
    }
  });

  it('stores MP4 and WebM videos rewritten without their metadata, not re-encoded', async () => {
    for (const type of ['video/mp4', 'video/webm'] as const) {
      const original = await video(type);
      expect(await describeVideo(original)).toContain('Geheim');
      const res = await upload(c.owner.headers, { memorialId: c.privateId }, { data: original, type });
      expect(res.statusCode, type).toBe(201);
      const item = res.json();
      const bytes = await t.app.inject({ url: pathOf(item.url) });
      expect(bytes.statusCode).toBe(200);
      const data = bytes.rawPayload;
      expect(item).toMatchObject({
        kind: 'video',
        status: 'ready',
        contentType: type,
        width: null,
        srcSet: null,
        sizeBytes: data.length,
      });
      expect(item.variants.map((v: { name: string }) => v.name)).toEqual(['original']);
      // The title and GPS location are gone from the file as ffmpeg reads it and from its bytes; the
      // streams are the same ones (copied, not re-encoded).
      const before = await describeVideo(original);
      const after = await describeVideo(data);
      expect(after, type).not.toMatch(/Geheim|location|52\.37|\+004\.89|encoder\s*:\s*Lavf\d/);
      expect(data.includes('Geheim'), type).toBe(false);
      const streams = (d: string) =>
        d
          .split('\n')
          .filter((l) => /Stream #/.test(l))
          .map((l) => l.replace(/, \d+ kb\/s/, ''));
      expect(streams(after)).toEqual(streams(before));
      expect(after).toMatch(type === 'video/mp4' ? /Video: h264/ : /Video: vp8/);
      const part = await t.app.inject({ url: pathOf(item.url), headers: { range: 'bytes=10-19' } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 10-19/${data.length}`);
      expect(part.rawPayload.equals(data.subarray(10, 20))).toBe(true);
      // A suffix range: the last 500 bytes.
      const tail = await t.app.inject({ url: pathOf(item.url), headers: { range: 'bytes=-500' } });
      expect(tail.statusCode).toBe(206);
      expect(tail.headers['content-range']).toBe(
        `bytes ${data.length - 500}-${data.length - 1}/${data.length}`,
      );
      expect(tail.rawPayload.equals(data.subarray(data.length - 500))).toBe(true);
      // Several ranges: the whole file.
      const several = await t.app.inject({ url: pathOf(item.url), headers: { range: 'bytes=0-9,20-29' } });
      expect(several.statusCode).toBe(200);
      expect(several.rawPayload.length).toBe(data.length);
      const bad = await t.app.inject({
        url: pathOf(item.url),
        headers: { range: `bytes=${data.length + 5}-` },
      });
      expect(bad.statusCode).toBe(416);
    }
  });

  it('refuses a broken video (random bytes behind a video signature) with 415 in Dutch, storing nothing', async () => {
    await uploadJpeg();
    const rows = await count('media');
    const files = await listDir(mediaDir());
    for (const [data, type] of [
      [mp4(), 'video/mp4'],
      [webm(), 'video/webm'],
    ] as const) {
      const res = await upload(c.owner.headers, { memorialId: c.privateId }, { data, type });
      expect(res.statusCode, type).toBe(415);
      expect(res.json()).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: expect.stringContaining('Deze video kunnen we niet verwerken'),
      });
    }
    expect(await count('media')).toBe(rows);
    expect(await listDir(mediaDir())).toEqual(files);
    expect(await listDir(tmpDir())).toEqual([]);
  });

  it('refuses a file whose content is not what it claims with 415, storing nothing', async () => {
    await uploadJpeg(); // so the media folder exists and holds something to compare with
    const rows = await count('media');
    const files = await listDir(mediaDir());
    const cases: [Buffer, string, string][] = [
      [Buffer.from('Dit is geen foto maar gewone tekst.\n'.repeat(20)), 'image/jpeg', 'foto.jpg'],
      [await png(), 'image/jpeg', 'foto.jpg'], // a real image, but not the declared type
      [await jpeg(), 'video/mp4', 'film.mp4'],
      [
        Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 7)]),
        'image/jpeg',
        'kapot.jpg',
      ], // magic bytes but no image
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml', 'logo.svg'],
      [Buffer.from('%PDF-1.7'), 'application/pdf', 'brief.pdf'],
      [heic(), 'image/heic', 'IMG_0002.HEIC'],
    ];
    for (const [data, type, name] of cases) {
      const res = await upload(c.contributor.headers, { memorialId: c.privateId }, { data, type, name });
      expect(res.statusCode, `${type} ${name}`).toBe(415);
      expect(res.json()).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: expect.any(String),
        fields: { media: expect.any(String) },
      });
    }
    const heicRes = await upload(
      c.contributor.headers,
      { memorialId: c.privateId },
      { data: heic(), type: 'image/heic' },
    );
    expect(heicRes.json().message).toContain('HEIC');
    // A damaged photo, and one whose content is not its type: said calmly, with what to do about it.
    for (const [data, type] of [
      [Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 7)]), 'image/jpeg'],
      [Buffer.from('Dit is geen foto maar gewone tekst.\n'.repeat(20)), 'image/jpeg'],
    ] as const) {
      const message: string = (
        await upload(c.contributor.headers, { memorialId: c.privateId }, { data, type })
      ).json().message;
      expect(message).toMatch(/kunnen we niet openen/);
      expect(message).toMatch(/opnieuw als JPEG of PNG .*probeer het nog eens\.$/);
    }
    await expectNothingStored(rows, files);
  });

  it('refuses an oversized photo and a photo with too many pixels with 413, storing nothing', async () => {
    const rows = await count('media');
    const files = await listDir(mediaDir());
    const big = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
      Buffer.alloc(MEDIA_IMAGE_MAX_BYTES - 3, 1),
    ]);
    const res = await upload(
      c.contributor.headers,
      { memorialId: c.privateId },
      { data: big, type: 'image/jpeg' },
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.stringContaining('20 MB'),
    });

    const huge = await sharp({ create: { width: 8000, height: 7000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const px = await upload(
      c.contributor.headers,
      { memorialId: c.privateId },
      { data: huge, type: 'image/png' },
    );
    expect(px.statusCode).toBe(413);
    expect(px.json().message).toContain('megapixel');
    await expectNothingStored(rows, files);
  });

  it('refuses without the right role: 401 anonymous, 404 to those who may not see the memorial, 403 to guests and visitors', async () => {
    const file = { data: await jpeg(), type: 'image/jpeg' };
    const rows = await count('media');
    expect((await upload(undefined, { memorialId: c.privateId }, file)).statusCode).toBe(401);
    expect((await upload(c.stranger.headers, { memorialId: c.privateId }, file)).json().code).toBe(
      'MEMORIAL_NOT_FOUND',
    );
    expect((await upload(c.guest.headers, { memorialId: c.privateId }, file)).statusCode).toBe(403);
    expect((await upload(c.stranger.headers, { memorialId: c.publicId }, file)).statusCode).toBe(403);
    expect((await upload(undefined, { memorialId: c.publicId }, file)).statusCode).toBe(401);
    expect(await count('media')).toBe(rows);
  });

  it('answers bad forms with 400 and Dutch field messages', async () => {
    const file = { data: await jpeg(), type: 'image/jpeg' };
    const noId = await upload(c.owner.headers, {}, file);
    expect(noId.statusCode).toBe(400);
    expect(noId.json().fields).toEqual({ memorialId: 'Gedenkpagina is verplicht' });
    const badId = await upload(c.owner.headers, { memorialId: 'abc' }, file);
    expect(badId.json().fields).toEqual({ memorialId: 'Gedenkpagina is ongeldig' });
    const noFile = await upload(c.owner.headers, { memorialId: c.privateId });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().fields).toEqual({ media: 'Kies een bestand' });
    const longCaption = await upload(
      c.owner.headers,
      { memorialId: c.privateId, caption: 'x'.repeat(501) },
      file,
    );
    expect(longCaption.statusCode).toBe(400);
    expect(longCaption.json().fields.caption).toContain('maximaal 500');
    const json = await t.app.inject({
      method: 'POST',
      url: '/core/memorial-media',
      headers: c.owner.headers,
      payload: { memorialId: c.privateId },
    });
    expect(json.statusCode).toBe(415);
    // The file before the fields works too (authorization then runs after reading it).
    const body = await form({ memorialId: c.privateId }, file, true);
    const late = await t.app.inject({
      method: 'POST',
      url: '/core/memorial-media',
      payload: body.payload,
      headers: { ...c.owner.headers, ...body.headers },
    });
    expect(late.statusCode).toBe(201);
    expect(await listDir(tmpDir())).toEqual([]);
  });

  it('refuses uploads on an archived memorial with 409', async () => {
    await t.db.query(`UPDATE memorials SET status = 'archived' WHERE id = $1`, [c.publicId]);
    try {
      const res = await upload(
        c.owner.headers,
        { memorialId: c.publicId },
        { data: await jpeg(), type: 'image/jpeg' },
      );
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('MEMORIAL_ARCHIVED');
    } finally {
      await t.db.query(`UPDATE memorials SET status = 'active' WHERE id = $1`, [c.publicId]);
    }
  });
});

describe('GET /core/memorial-media/{id}', () => {
  it('shows an item to whoever may see the memorial, and answers 404 to everyone else', async () => {
    const item = await uploadJpeg();
    const ok = await t.app.inject({ url: `/core/memorial-media/${item.id}`, headers: c.guest.headers });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: item.id, ownUpload: false });
    for (const headers of [undefined, c.stranger.headers]) {
      const res = await t.app.inject({ url: `/core/memorial-media/${item.id}`, headers });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('MEDIA_NOT_FOUND');
    }
    expect(
      (await t.app.inject({ url: '/core/memorial-media/not-a-uuid', headers: c.owner.headers })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ url: `/core/memorial-media/${crypto.randomUUID()}`, headers: c.owner.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('gives plain (unsigned) URLs for a public active memorial, readable by anyone', async () => {
    const item = await uploadJpeg(c.contributor, c.publicId);
    const anon = await t.app.inject({ url: `/core/memorial-media/${item.id}` });
    expect(anon.statusCode).toBe(200);
    const { url, urlsExpireAt } = anon.json();
    expect(url).not.toContain('sig=');
    expect(urlsExpireAt).toBeNull();
    const bytes = await t.app.inject({ url: pathOf(url) });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['cache-control']).toBe('public, max-age=86400');
  });
});

describe('GET /core/memorial-media/all/{id} and POST /core/memorial-media/query', () => {
  it('lists the gallery in order, pages through it and filters by type', async () => {
    const memorialId = (
      await t.db.query<{ id: string }>(
        `INSERT INTO memorials (first_name, last_name, status, visibility, access_code_hash, access_code_encrypted, created_by)
       VALUES ('Lijst', 'Test', 'active', 'private', md5(random()::text), 'v1.x', $1) RETURNING id`,
        [c.owner.userId],
      )
    ).rows[0]!.id;
    await t.db.query(
      `INSERT INTO memorial_members (memorial_id, user_id, role) VALUES ($1, $2, 'owner'), ($1, $3, 'guest')`,
      [memorialId, c.owner.userId, c.guest.userId],
    );
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await uploadJpeg(c.owner, memorialId)).id);
    const film = (
      await upload(c.owner.headers, { memorialId }, { data: await video('video/mp4'), type: 'video/mp4' })
    ).json();
    ids.push(film.id);

    const all = await t.app.inject({
      url: `/core/memorial-media/all/${memorialId}`,
      headers: c.guest.headers,
    });
    expect(all.statusCode).toBe(200);
    expect(all.json().items.map((i: { id: string }) => i.id)).toEqual(ids);
    expect(all.json().items.map((i: { position: number }) => i.position)).toEqual([0, 1, 2, 3]);
    expect(
      (await t.app.inject({ url: `/core/memorial-media/all/${memorialId}`, headers: c.stranger.headers }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: `/core/memorial-media/all/${memorialId}` })).statusCode).toBe(404);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: LightMyRequestResponse = await t.app.inject({
        method: 'POST',
        url: '/core/memorial-media/query',
        headers: c.guest.headers,
        payload: { memorialId, limit: 3, cursor },
      });
      expect(res.statusCode).toBe(200);
      seen.push(...res.json().items.map((i: { id: string }) => i.id));
      cursor = res.json().nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect(pages).toBe(2);

    const videos = await t.app.inject({
      method: 'POST',
      url: '/core/memorial-media/query',
      headers: c.guest.headers,
      payload: { memorialId, type: 'video' },
    });
    expect(videos.json().items.map((i: { id: string }) => i.id)).toEqual([film.id]);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/core/memorial-media/query',
      headers: c.guest.headers,
      payload: { memorialId, type: 'audio', limit: 1000 },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['limit', 'type']);
    const badCursor = await t.app.inject({
      method: 'POST',
      url: '/core/memorial-media/query',
      headers: c.guest.headers,
      payload: { memorialId, cursor: 'rommel' },
    });
    expect(badCursor.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: '/core/memorial-media/query', payload: { memorialId } }))
        .statusCode,
    ).toBe(404);
  });
});

describe('PUT /core/memorial-media/reorder', () => {
  it('lets editors and owners set a new order, which must be a permutation of the gallery', async () => {
    const memorialId = c.privateId;
    const before = (
      await t.app.inject({ url: `/core/memorial-media/all/${memorialId}`, headers: c.owner.headers })
    )
      .json()
      .items.map((i: { id: string }) => i.id) as string[];
    expect(before.length).toBeGreaterThan(2);
    const reversed = [...before].reverse();
    const ok = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial-media/reorder',
      headers: c.editor.headers,
      payload: { memorialId, orderedIds: reversed },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().items.map((i: { id: string }) => i.id)).toEqual(reversed);
    const after = (
      await t.app.inject({ url: `/core/memorial-media/all/${memorialId}`, headers: c.guest.headers })
    ).json().items;
    expect(after.map((i: { id: string }) => i.id)).toEqual(reversed);
    expect(after.map((i: { position: number }) => i.position)).toEqual(reversed.map((_, i) => i));
    const audit = await t.db.query(
      `SELECT count(*)::int AS n FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'media.reordered'`,
      [memorialId],
    );
    expect(audit.rows[0]).toEqual({ n: 1 });

    const refusals: [unknown[], string][] = [
      [reversed.slice(1), 'one missing'],
      [[...reversed, reversed[0]], 'a duplicate'],
      [[...reversed.slice(1), crypto.randomUUID()], 'a foreign id'],
    ];
    for (const [orderedIds, why] of refusals) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/core/memorial-media/reorder',
        headers: c.owner.headers,
        payload: { memorialId, orderedIds },
      });
      expect(res.statusCode, why).toBe(400);
      expect(res.json().fields).toHaveProperty('orderedIds');
    }
    const forbidden = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial-media/reorder',
      headers: c.contributor.headers,
      payload: { memorialId, orderedIds: before },
    });
    expect(forbidden.statusCode).toBe(403);
    const hidden = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial-media/reorder',
      headers: c.stranger.headers,
      payload: { memorialId, orderedIds: before },
    });
    expect(hidden.statusCode).toBe(404);
    const unchanged = (
      await t.app.inject({ url: `/core/memorial-media/all/${memorialId}`, headers: c.owner.headers })
    ).json().items;
    expect(unchanged.map((i: { id: string }) => i.id)).toEqual(reversed);
  });
});

describe('PUT /core/memorial-media/{id}', () => {
  it('changes the caption for the uploader and editors, not for other contributors', async () => {
    const item = await uploadJpeg(c.contributor);
    const own = await t.app.inject({
      method: 'PUT',
      url: `/core/memorial-media/${item.id}`,
      headers: c.contributor.headers,
      payload: { caption: ' Zomer 1990 ' },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().caption).toBe('Zomer 1990');
    const editor = await t.app.inject({
      method: 'PUT',
      url: `/core/memorial-media/${item.id}`,
      headers: c.editor.headers,
      payload: { caption: '' },
    });
    expect(editor.json().caption).toBeNull();
    const other = await t.app.inject({
      method: 'PUT',
      url: `/core/memorial-media/${item.id}`,
      headers: c.contributor2.headers,
      payload: { caption: 'Nee' },
    });
    expect(other.statusCode).toBe(403);
    const stranger = await t.app.inject({
      method: 'PUT',
      url: `/core/memorial-media/${item.id}`,
      headers: c.stranger.headers,
      payload: { caption: 'Nee' },
    });
    expect(stranger.statusCode).toBe(404);
    const tooLong = await t.app.inject({
      method: 'PUT',
      url: `/core/memorial-media/${item.id}`,
      headers: c.owner.headers,
      payload: { caption: 'x'.repeat(501) },
    });
    expect(tooLong.statusCode).toBe(400);
  });
});

describe('DELETE /core/memorial-media/{id}', () => {
  it('removes the item and, in the background, its files; for the uploader and editors only', async () => {
    const item = await uploadJpeg(c.contributor);
    await eventually(async () => (await listDir(path.join(mediaDir(), item.id))).length > 0);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/core/memorial-media/${item.id}`,
          headers: c.contributor2.headers,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/core/memorial-media/${item.id}`,
          headers: c.guest.headers,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/core/memorial-media/${item.id}` })).statusCode,
    ).toBe(401);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/core/memorial-media/${item.id}`,
      headers: c.contributor.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: item.id, deleted: true });
    expect(await count('media WHERE id = $1', [item.id])).toBe(0);
    await eventually(async () => (await listDir(path.join(mediaDir(), item.id))).length === 0);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/core/memorial-media/${item.id}`,
          headers: c.owner.headers,
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: pathOf(item.url) })).statusCode).toBe(404);

    const byEditor = await uploadJpeg(c.contributor);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/core/memorial-media/${byEditor.id}`,
          headers: c.editor.headers,
        })
      ).statusCode,
    ).toBe(200);
    const audit = await t.db.query(
      `SELECT action FROM memorial_audit_log WHERE target_id = $1 ORDER BY seq`,
      [byEditor.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['media.added', 'media.removed']);
  });

  it('clears the cover of a memorial when its cover photo goes, and removes all files when the memorial goes', async () => {
    const item = await uploadJpeg(c.owner);
    await t.db.query('UPDATE memorials SET cover_media_id = $2 WHERE id = $1', [c.privateId, item.id]);
    await t.app.inject({
      method: 'DELETE',
      url: `/core/memorial-media/${item.id}`,
      headers: c.owner.headers,
    });
    const cover = await t.db.query('SELECT cover_media_id FROM memorials WHERE id = $1', [c.privateId]);
    expect(cover.rows[0]).toEqual({ cover_media_id: null });
    // A cover must be the memorial's own media.
    const other = await uploadJpeg(c.owner, c.publicId);
    await expect(
      t.db.query('UPDATE memorials SET cover_media_id = $2 WHERE id = $1', [c.privateId, other.id]),
    ).rejects.toThrow();

    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO memorials (first_name, last_name, status, visibility, access_code_hash, access_code_encrypted, created_by)
       VALUES ('Weg', 'Test', 'active', 'private', md5(random()::text), 'v1.x', $1) RETURNING id`,
      [c.owner.userId],
    );
    await t.db.query(`INSERT INTO memorial_members (memorial_id, user_id, role) VALUES ($1, $2, 'owner')`, [
      rows[0]!.id,
      c.owner.userId,
    ]);
    const doomed = await uploadJpeg(c.owner, rows[0]!.id);
    await eventually(async () => (await listDir(path.join(mediaDir(), doomed.id))).length > 0);
    // Deleted behind the app's back (raw SQL, not the app's lock order): only once its photo's job is done.
    await t.app.deps.queue.idle();
    await t.db.query('DELETE FROM memorials WHERE id = $1', [rows[0]!.id]);
    await eventually(async () => (await listDir(path.join(mediaDir(), doomed.id))).length === 0);
  });
});

describe('GET /core/media/{mediaId}/{variant}', () => {
  it('serves private bytes only with a valid signature or to a caller who may see the memorial', async () => {
    const item = await uploadJpeg(c.contributor);
    const signed = pathOf(item.url);
    const bare = signed.split('?')[0]!;

    const ok = await t.app.inject({ url: signed });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('image/webp');
    expect(ok.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(ok.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(ok.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    // A valid signature is enough even when a stale bearer token comes along.
    expect(
      (await t.app.inject({ url: signed, headers: { authorization: 'Bearer verlopen' } })).statusCode,
    ).toBe(200);

    expect((await t.app.inject({ url: bare })).statusCode).toBe(404);
    expect((await t.app.inject({ url: bare, headers: c.stranger.headers })).statusCode).toBe(404);
    const member = await t.app.inject({ url: bare, headers: c.guest.headers });
    expect(member.statusCode).toBe(200);
    expect(member.rawPayload.equals(ok.rawPayload)).toBe(true);

    const forged = signed.replace(/sig=[\w-]{43}/, `sig=${'A'.repeat(43)}`);
    expect((await t.app.inject({ url: forged })).statusCode).toBe(404);
    const otherVariant = signed.replace('w64.webp', 'w64.jpg');
    expect((await t.app.inject({ url: otherVariant })).statusCode).toBe(404);
    const longer = signed.replace(/exp=(\d+)/, (_m, e) => `exp=${Number(e) + 60}`);
    expect((await t.app.inject({ url: longer })).statusCode).toBe(404);

    const signer = mediaUrlSigner({ db: t.db, apiUrl: t.config.API_URL });
    const old = await signer.urls(Date.now() - 2 * 3600_000);
    const variant = bare.split('/').pop()!;
    const expired = await t.app.inject({ url: pathOf(old.url(item.id, variant, false)) });
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toMatchObject({
      code: 'MEDIA_LINK_EXPIRED',
      message: 'Deze link is verlopen. Laad de pagina opnieuw.',
    });
    const far = await signer.urls(Date.now() + 3 * 3600_000);
    expect((await t.app.inject({ url: pathOf(far.url(item.id, variant, false)) })).statusCode).toBe(404);

    const notModified = await t.app.inject({
      url: signed,
      headers: { 'if-none-match': ok.headers.etag as string },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    expect(
      (await t.app.inject({ url: bare, headers: { 'if-none-match': ok.headers.etag as string } })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: `/core/media/${item.id}/source` })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/core/media/${item.id}/..%2Fx` })).statusCode).toBe(404);
  });
});

describe('media of a memory: POST/GET/DELETE /core/memory/medias', () => {
  async function memoryOf(author: typeof c.owner, memorialId = c.privateId, publish = true) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/memories/concept',
      headers: author.headers,
      payload: { memorialId, yearLabel: '1987', text: 'Op vakantie in Frankrijk.' },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().id as string;
    if (publish)
      await t.app.inject({
        method: 'POST',
        url: '/core/memories/publish',
        headers: author.headers,
        payload: { id },
      });
    return id;
  }

  it('lets the author add photos, which follow the memory’s visibility', async () => {
    const memoryId = await memoryOf(c.contributor);
    const file = { data: await jpeg(), type: 'image/jpeg' };
    const res = await upload(c.contributor.headers, { memoryId }, file, '/core/memory/medias');
    expect(res.statusCode).toBe(201);
    const item = res.json();
    expect(item).toMatchObject({ memoryId, memorialId: c.privateId, position: 0 });

    expect(
      (await t.app.inject({ url: `/core/memory/medias/${item.id}`, headers: c.guest.headers })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ url: `/core/memory/medias/${item.id}`, headers: c.stranger.headers })).statusCode,
    ).toBe(404);
    // Not a gallery item.
    expect(
      (await t.app.inject({ url: `/core/memorial-media/${item.id}`, headers: c.owner.headers })).statusCode,
    ).toBe(404);

    // Members only: an invited guest (a member) still sees it.
    await t.app.inject({
      method: 'PUT',
      url: '/core/memories/privacy',
      headers: c.contributor.headers,
      payload: { id: memoryId, membersOnly: true },
    });
    expect(
      (await t.app.inject({ url: `/core/memory/medias/${item.id}`, headers: c.guest.headers })).statusCode,
    ).toBe(200);

    expect((await upload(c.contributor2.headers, { memoryId }, file, '/core/memory/medias')).statusCode).toBe(
      403,
    );
    expect((await upload(c.stranger.headers, { memoryId }, file, '/core/memory/medias')).statusCode).toBe(
      404,
    );
    expect((await upload(c.editor.headers, { memoryId }, file, '/core/memory/medias')).statusCode).toBe(201);
    expect(
      (await upload(c.owner.headers, { memoryId: crypto.randomUUID() }, file, '/core/memory/medias')).json()
        .code,
    ).toBe('MEMORY_NOT_FOUND');

    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/core/memory/medias/${item.id}`,
          headers: c.contributor2.headers,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/core/memory/medias/${item.id}`,
          headers: c.contributor.headers,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ url: `/core/memory/medias/${item.id}`, headers: c.contributor.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('keeps a concept’s photos private to its author, and public memories’ photos open on a public page', async () => {
    const concept = await memoryOf(c.contributor, c.publicId, false);
    const file = { data: await jpeg(), type: 'image/jpeg' };
    const hidden = (
      await upload(c.contributor.headers, { memoryId: concept }, file, '/core/memory/medias')
    ).json();
    expect(hidden.url).toContain('sig=');
    expect(
      (await t.app.inject({ url: `/core/memory/medias/${hidden.id}`, headers: c.owner.headers })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: pathOf(hidden.url).split('?')[0]! })).statusCode).toBe(404);

    const published = await memoryOf(c.contributor, c.publicId, true);
    const open = (
      await upload(c.contributor.headers, { memoryId: published }, file, '/core/memory/medias')
    ).json();
    expect(open.url).not.toContain('sig=');
    const bytes = await t.app.inject({ url: pathOf(open.url) });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('lets a guest with the access code add photos to their own memory; after approval a new photo needs approval again', async () => {
    const token = await guestToken(t, c.privateId, 'Tante Jet');
    const m = await t.app.inject({
      method: 'POST',
      url: '/core/memories/concept',
      headers: token.headers,
      payload: { memorialId: c.privateId, yearLabel: '1975', text: 'Bruiloft.' },
    });
    const memoryId = m.json().id as string;
    const file = { data: await jpeg(), type: 'image/jpeg' };
    const first = await upload(token.headers, { memoryId }, file, '/core/memory/medias');
    expect(first.statusCode).toBe(201);
    expect(first.json().ownUpload).toBe(true);
    // A guest may not add to the gallery, nor to someone else's memory.
    expect((await upload(token.headers, { memorialId: c.privateId }, file)).statusCode).toBe(403);
    const othersMemory = await memoryOf(c.contributor);
    expect(
      (await upload(token.headers, { memoryId: othersMemory }, file, '/core/memory/medias')).statusCode,
    ).toBe(403);

    await t.app.inject({
      method: 'POST',
      url: '/core/memories/publish',
      headers: token.headers,
      payload: { id: memoryId },
    });
    await t.app.inject({
      method: 'PUT',
      url: '/core/memories/status',
      headers: c.editor.headers,
      payload: { id: memoryId, status: 'published' },
    });
    expect(
      (await t.app.inject({ url: `/core/memory/medias/${first.json().id}`, headers: c.contributor.headers }))
        .statusCode,
    ).toBe(200);
    expect((await upload(token.headers, { memoryId }, file, '/core/memory/medias')).statusCode).toBe(201);
    const after = await t.app.inject({ url: `/core/memories/${memoryId}`, headers: token.headers });
    expect(after.json()).toMatchObject({ status: 'pending' });
    expect(after.json().media).toHaveLength(2);
    expect(
      (await t.app.inject({ url: `/core/memory/medias/${first.json().id}`, headers: c.contributor.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('deletes a memory’s photos and their files with the memory', async () => {
    const memoryId = await memoryOf(c.contributor);
    const item = (
      await upload(
        c.contributor.headers,
        { memoryId },
        { data: await jpeg(), type: 'image/jpeg' },
        '/core/memory/medias',
      )
    ).json();
    await eventually(async () => (await listDir(path.join(mediaDir(), item.id))).length > 0);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/core/memories/${memoryId}`,
          headers: c.contributor.headers,
        })
      ).statusCode,
    ).toBe(200);
    expect(await count('media WHERE id = $1', [item.id])).toBe(0);
    await eventually(async () => (await listDir(path.join(mediaDir(), item.id))).length === 0);
  });
});
