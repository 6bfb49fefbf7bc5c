/**
 * Uploads on a real socket: who is uploading is checked from the headers before any byte of the body
 * is read, a declared length over the limit is refused before reading, and one caller has at most
 * UPLOADS_PER_CALLER uploads in flight. Refusals close the connection instead of draining the body.
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_VIDEO_MAX_BYTES } from '@aandenken/contract';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast, form, jpeg } from './fixtures/content.ts';

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ UPLOADS_PER_CALLER: '2' });
  c = await cast(t, 'upload-limits');
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => t?.close());

const BOUNDARY = '----aandenken-test';

/**
 * Opens a connection, sends the headers of an upload that declares `declared` bytes and the first
 * `sent` bytes of it, and then stalls. Resolves the answer (if any comes) and whether the server
 * closed the connection.
 */
function stalledUpload(o: { url?: string; authorization?: string; declared: number; sent: number }) {
  const socket = net.connect(port, '127.0.0.1');
  let raw = '';
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => (raw += d));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  const head =
    `POST ${o.url ?? '/core/memorial-media'} HTTP/1.1\r\nhost: 127.0.0.1\r\n` +
    `content-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: ${o.declared}\r\n` +
    (o.authorization ? `authorization: ${o.authorization}\r\n` : '') +
    '\r\n';
  const part =
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="memorialId"\r\n\r\n${c.privateId}\r\n` +
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="media"; filename="v.mp4"\r\ncontent-type: video/mp4\r\n\r\n`;
  socket.write(head);
  socket.write(Buffer.concat([Buffer.from(part), Buffer.alloc(Math.max(0, o.sent - part.length), 7)]));
  const answer = async (timeoutMs = 3000) => {
    const deadline = Date.now() + timeoutMs;
    while (!/\r\n\r\n/.test(raw) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const [headers = '', body = ''] = raw.split('\r\n\r\n');
    return { status: Number(headers.split(' ')[1]) || 0, headers: headers.toLowerCase(), body };
  };
  const isClosed = (timeoutMs = 3000) =>
    Promise.race([
      closed.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), timeoutMs)),
    ]);
  return { socket, answer, isClosed };
}

const tmpUploads = async () =>
  (await fs.readdir(path.join(t.dataDir, 'tmp')).catch(() => [] as string[])).filter((n) =>
    n.startsWith('upload-'),
  );

describe('uploads before the body', () => {
  it('answers an anonymous upload with 401 at once, without reading the 100 MB it announces', async () => {
    for (const url of ['/core/memorial-media', '/core/memory/medias']) {
      const up = stalledUpload({ url, declared: MEDIA_VIDEO_MAX_BYTES, sent: 64 * 1024 });
      const res = await up.answer();
      expect(res.status, url).toBe(401);
      expect(res.headers).toContain('connection: close');
      expect(JSON.parse(res.body.slice(res.body.indexOf('{')))).toMatchObject({ code: 'UNAUTHORIZED' });
      expect(await up.isClosed(), 'the server closes the connection').toBe(true);
      // An expired or forged token too.
      const forged = stalledUpload({
        url,
        authorization: 'Bearer nep',
        declared: MEDIA_VIDEO_MAX_BYTES,
        sent: 1024,
      });
      expect((await forged.answer()).status).toBe(401);
      expect(await forged.isClosed()).toBe(true);
    }
    expect(await tmpUploads()).toEqual([]);
  });

  it('refuses a declared length over the limit with 413 before reading', async () => {
    const up = stalledUpload({
      authorization: c.owner.headers.authorization,
      declared: 2 * MEDIA_VIDEO_MAX_BYTES,
      sent: 1024,
    });
    const res = await up.answer();
    expect(res.status).toBe(413);
    expect(res.body).toContain('te groot');
    expect(await up.isClosed()).toBe(true);
    expect(await tmpUploads()).toEqual([]);
  });

  it('lets one caller have UPLOADS_PER_CALLER uploads in flight; the next gets 429 in Dutch', async () => {
    const authorization = c.owner.headers.authorization;
    const stalled = [1, 2].map(() =>
      stalledUpload({ authorization, declared: 10 * 1024 * 1024, sent: 2048 }),
    );
    // Wait until both are in the handler (their temporary files exist).
    for (let i = 0; i < 100 && (await tmpUploads()).length < 2; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect((await tmpUploads()).length).toBe(2);

    const third = stalledUpload({ authorization, declared: 10 * 1024 * 1024, sent: 2048 });
    const res = await third.answer();
    expect(res.status).toBe(429);
    expect(JSON.parse(res.body.slice(res.body.indexOf('{')))).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('tegelijk'),
    });
    expect(await third.isClosed()).toBe(true);

    // Another caller is not held up by them.
    const photo = await form({ memorialId: c.privateId }, { data: await jpeg(), type: 'image/jpeg' });
    const other = await t.app.inject({
      method: 'POST',
      url: '/core/memorial-media',
      payload: photo.payload,
      headers: { ...c.editor.headers, ...photo.headers },
    });
    expect(other.statusCode).toBe(201);

    // A stalled upload that goes away frees its place, and its temporary file.
    stalled[0]!.socket.destroy();
    let again = 0;
    for (let i = 0; i < 100; i++) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/core/memorial-media',
        payload: photo.payload,
        headers: { authorization, ...photo.headers },
      });
      again = r.statusCode;
      if (again !== 429) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(again).toBe(201);
    stalled[1]!.socket.destroy();
    for (let i = 0; i < 100 && (await tmpUploads()).length > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await tmpUploads()).toEqual([]);
  });
});
