import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_ORPHANS_TASK, sweepMediaOrphans } from '../src/lib/media/orphans.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast, form, jpeg } from './fixtures/content.ts';

/** What a killed process leaves half-stored in media storage is removed by the cleanup. */
let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;
beforeAll(async () => {
  t = await createTestApp();
  c = await cast(t, 'orphans');
});
afterAll(async () => t?.close());

const exists = (p: string) =>
  fs.access(p).then(
    () => true,
    () => false,
  );

describe('media orphans', () => {
  it('removes folders no row names, half-written and temporary files, only once they are old enough', async () => {
    const body = await form({ memorialId: c.publicId }, { data: await jpeg(), type: 'image/jpeg' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/memorial-media',
      payload: body.payload,
      headers: { ...c.owner.headers, ...body.headers },
    });
    expect(res.statusCode).toBe(201);
    await t.app.deps.queue.idle(); // its variants are made in the background
    const mediaRoot = path.join(t.dataDir, 'media');
    const tmpDir = path.join(t.dataDir, 'tmp');
    const known = path.join(mediaRoot, res.json().id);
    const knownFiles = await fs.readdir(known);
    expect(knownFiles.length).toBeGreaterThan(0);

    // As a kill -9 leaves them: stored files whose row never committed, a half-written file, an upload.
    const orphan = path.join(mediaRoot, crypto.randomUUID());
    await fs.mkdir(orphan, { recursive: true });
    await fs.writeFile(path.join(orphan, 'source'), 'x');
    const half = path.join(known, `web-640.webp.tmp-123-${crypto.randomUUID()}`);
    await fs.writeFile(half, 'half');
    await fs.mkdir(tmpDir, { recursive: true });
    const upload = path.join(tmpDir, `upload-${crypto.randomUUID()}`);
    await fs.writeFile(upload, 'part');

    // The hourly task leaves young files alone (an upload may still be under way).
    await t.app.deps.queue.runNow(MEDIA_ORPHANS_TASK);
    expect([await exists(orphan), await exists(half), await exists(upload)]).toEqual([true, true, true]);

    const removed = await sweepMediaOrphans({ db: t.db, mediaRoot, tmpDir, olderThanMs: 0 });
    expect(removed).toEqual({ folders: 1, tmpFiles: 1 });
    expect([await exists(orphan), await exists(half), await exists(upload)]).toEqual([false, false, false]);
    expect(await fs.readdir(known)).toEqual(knownFiles);
  });
});
