import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyMedia } from '../src/lib/media/move.ts';
import { s3MediaStorage } from '../src/lib/media/s3-storage.ts';
import {
  localMediaStorage,
  MediaMissingError,
  streamStored,
  type MediaStorage,
} from '../src/lib/media/storage.ts';
import { StorageUnavailableError } from '../src/lib/unavailable.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast, eventually, form, jpeg, pathOf } from './fixtures/content.ts';
import { startS3StandIn, type S3StandIn } from './support/s3-standin.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * The media store's one contract, run against the local disk and against an S3-compatible server (s3rver,
 * started here); the copy between them (npm run media:move); and the app itself keeping its media in the bucket.
 */
let s3: S3StandIn;
let root: string;
beforeAll(async () => {
  s3 = await startS3StandIn();
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-storage-'));
});
afterAll(async () => {
  await s3?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

const stores: [string, () => Promise<MediaStorage>][] = [
  ['the local disk', async () => localMediaStorage(await fs.mkdtemp(path.join(root, 'disk-')))],
  ['an S3 bucket', async () => s3MediaStorage(await s3.bucket())],
];
const text = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString();
};
const all = async (keys: AsyncIterable<string>) => {
  const out: string[] = [];
  for await (const k of keys) out.push(k);
  return out.sort();
};

describe.each(stores)('media storage on %s', (_name, make) => {
  let store: MediaStorage;
  const id = randomUUID();
  beforeAll(async () => {
    store = await make();
  });

  it('stores, reads, streams a byte range, lists and deletes', async () => {
    await store.put(`${id}/a.txt`, Buffer.from('0123456789'));
    await store.put(`${id}/b.txt`, Buffer.from('tweede'));
    expect((await store.read(`${id}/a.txt`)).toString()).toBe('0123456789');
    expect(await text(await store.stream(`${id}/a.txt`, { start: 2, end: 5 }))).toBe('2345');
    expect(await text(await store.stream(`${id}/a.txt`))).toBe('0123456789');
    expect(await store.exists(`${id}/a.txt`)).toBe(true);
    expect(await store.exists(`${id}/nope.txt`)).toBe(false);
    expect(await all(store.keys())).toEqual(expect.arrayContaining([`${id}/a.txt`, `${id}/b.txt`]));

    await store.put(`${id}/a.txt`, Buffer.from('vervangen'));
    expect((await store.read(`${id}/a.txt`)).toString()).toBe('vervangen');
    await store.delete(`${id}/b.txt`);
    expect(await store.exists(`${id}/b.txt`)).toBe(false);
    await store.deletePrefix(id);
    expect(await store.exists(`${id}/a.txt`)).toBe(false);
    await expect(store.read(`${id}/a.txt`)).rejects.toThrow();
    await expect(store.stream(`${id}/a.txt`)).rejects.toBeInstanceOf(MediaMissingError);
  });

  it('takes a large file in (multipart on S3) and consumes the temporary file', async () => {
    const data = randomBytes(9 * 1024 * 1024 + 123);
    const tmp = path.join(root, `upload-${randomUUID()}`);
    await fs.writeFile(tmp, data);
    await store.putFile(`${id}/source`, tmp);
    await expect(fs.access(tmp)).rejects.toThrow();
    expect((await store.read(`${id}/source`)).equals(data)).toBe(true);
    const tail = await store.stream(`${id}/source`, { start: data.length - 10, end: data.length - 1 });
    const chunks: Buffer[] = [];
    for await (const c of tail) chunks.push(Buffer.from(c as Buffer));
    expect(Buffer.concat(chunks).equals(data.subarray(data.length - 10))).toBe(true);
  });

  it('refuses keys that are not a media id and a name', async () => {
    await expect(store.put('../etc/passwd', Buffer.from('x'))).rejects.toThrow(/invalid media storage key/);
    await expect(store.deletePrefix('..')).rejects.toThrow(/invalid media storage prefix/);
  });
});

describe('streamStored (media, exports, printed book, presentation, logos)', () => {
  it('throws the caller’s 404 for a file the store lacks, and StorageUnavailableError when the store fails', async () => {
    const settings = await s3.bucket();
    const missing = () => new Error('niet gevonden');
    const key = `${randomUUID()}/w320.webp`;
    await expect(streamStored(s3MediaStorage(settings), key, missing)).rejects.toThrow('niet gevonden');
    // Nothing listens on this port any more: the store cannot be reached.
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(settings.endpoint).port) });
    const unreachable = s3MediaStorage({ ...settings, endpoint: `http://127.0.0.1:${proxy.port}` });
    await proxy.close();
    await expect(streamStored(unreachable, key, missing)).rejects.toBeInstanceOf(StorageUnavailableError);
  });
});

describe('npm run media:move', () => {
  it('copies disk to bucket and back, skips what is there, and leaves the source as it was', async () => {
    const disk = localMediaStorage(await fs.mkdtemp(path.join(root, 'move-')));
    const bucket = s3MediaStorage(await s3.bucket());
    const keys = [`${randomUUID()}/source`, `${randomUUID()}/w320.webp`, `${randomUUID()}/w640.jpg`];
    for (const [i, k] of keys.entries()) await disk.put(k, Buffer.from(`bestand ${i}`));
    const tmpDir = path.join(root, 'move-tmp');

    expect(await copyMedia({ from: disk, to: bucket, tmpDir })).toEqual({
      copied: 3,
      present: 0,
      failed: [],
    });
    for (const [i, k] of keys.entries()) expect((await bucket.read(k)).toString()).toBe(`bestand ${i}`);
    expect(await all(disk.keys())).toEqual([...keys].sort());
    // Run again (after an interruption): nothing copied twice.
    expect(await copyMedia({ from: disk, to: bucket, tmpDir })).toEqual({
      copied: 0,
      present: 3,
      failed: [],
    });

    const back = localMediaStorage(await fs.mkdtemp(path.join(root, 'back-')));
    expect(await copyMedia({ from: bucket, to: back, tmpDir })).toEqual({
      copied: 3,
      present: 0,
      failed: [],
    });
    for (const [i, k] of keys.entries()) expect((await back.read(k)).toString()).toBe(`bestand ${i}`);
    expect(await fs.readdir(tmpDir)).toEqual([]);
  });
});

describe('the app with S3_* set', () => {
  let t: TestContext;
  let c: Awaited<ReturnType<typeof cast>>;
  let bucket: Awaited<ReturnType<S3StandIn['bucket']>>;
  // The app reaches the bucket through a proxy the outage test cuts.
  let proxy: TcpProxy;
  let photo: { id: string; variants: { name: string; url: string; width: number }[] } | undefined;
  beforeAll(async () => {
    bucket = await s3.bucket();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(bucket.endpoint).port) });
    t = await createTestApp({
      S3_ENDPOINT: `http://127.0.0.1:${proxy.port}`,
      S3_BUCKET: bucket.bucket,
      S3_REGION: bucket.region,
      S3_ACCESS_KEY_ID: bucket.accessKeyId,
      S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
    });
    c = await cast(t, 's3');
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
  });

  it('keeps an uploaded photo in the bucket, not on disk, and serves it (with ranges) from there', async () => {
    const body = await form(
      { memorialId: c.privateId },
      { data: await jpeg(), type: 'image/jpeg', name: 'foto.jpg' },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/memorial-media',
      payload: body.payload,
      headers: { ...c.contributor.headers, ...body.headers },
    });
    expect(res.statusCode).toBe(201);
    const item = res.json();
    const ready = await eventually(async () => {
      const r = await t.app.inject({
        url: `/core/memorial-media/${item.id}`,
        headers: c.contributor.headers,
      });
      return r.json().status === 'ready' ? r.json() : null;
    });
    const inBucket = await all(s3MediaStorage(bucket).keys());
    // Every variant is in the bucket (the source is removed once they are made).
    const variants: { name: string; url: string; width: number }[] = ready.variants;
    expect(variants.length).toBeGreaterThan(0);
    expect(inBucket).toEqual(variants.map((v) => `${item.id}/${v.name}`).sort());
    expect(await fs.readdir(path.join(t.dataDir, 'media')).catch(() => [])).toEqual([]);

    const variant = variants.find((v) => v.name.endsWith('.jpg'))!;
    const whole = await t.app.inject({ url: pathOf(variant.url) });
    expect(whole.statusCode).toBe(200);
    expect((await sharp(whole.rawPayload).metadata()).width).toBe(variant.width);
    const part = await t.app.inject({ url: pathOf(variant.url), headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(whole.rawPayload.subarray(0, 100))).toBe(true);
    photo = { id: item.id, variants };
  });

  it('answers 503 (not 404) while the bucket cannot be reached, and 404 for an object it does not have', async () => {
    expect(photo).toBeDefined();
    const [first, second] = photo!.variants;
    await proxy.cut();
    try {
      const res = await t.app.inject({ url: pathOf(first!.url) });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
      expect(res.json()).toEqual({
        code: 'STORAGE_UNAVAILABLE',
        message: expect.stringMatching(/opslag .* niet bereikbaar/),
      });
    } finally {
      await proxy.restore();
    }
    expect((await t.app.inject({ url: pathOf(first!.url) })).statusCode).toBe(200);

    // The database knows the variant, the bucket no longer has it: a missing file, 404 as before.
    await s3MediaStorage(bucket).delete(`${photo!.id}/${second!.name}`);
    const gone = await t.app.inject({ url: pathOf(second!.url) });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('MEDIA_NOT_FOUND');
  });

  it('refuses half an S3 configuration with a readable message', async () => {
    const { loadConfig } = await import('../src/config.ts');
    expect(() => loadConfig({ S3_BUCKET: 'media' })).toThrow(/S3_ENDPOINT, S3_BUCKET, S3_REGION/);
  });
});
