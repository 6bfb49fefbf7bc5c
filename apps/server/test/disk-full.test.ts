import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localMediaStorage } from '../src/lib/media/storage.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast, form, jpeg } from './fixtures/content.ts';

/**
 * A full disk while media is stored: the data folder is a real 1 MB tmpfs, so the write fails
 * with the kernel's own ENOSPC in the real code path (upload's temporary file, the storage's put). Needs
 * root and a kernel that lets this container mount tmpfs; skipped with the reason in its name otherwise.
 */
const mountPoint = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-full-'));
let mounted = false;
let why = '';
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint], { stdio: 'pipe' });
  mounted = true;
} catch (err) {
  why = ` (overgeslagen: tmpfs koppelen lukt hier niet: ${(err as Error).message.split('\n')[0]})`;
}

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;

beforeAll(async () => {
  if (!mounted) return;
  t = await createTestApp({ DATA_DIR: mountPoint });
  c = await cast(t, 'vol');
});
afterAll(async () => {
  await t?.close();
  if (mounted) execFileSync('umount', [mountPoint]);
  await fs.rm(mountPoint, { recursive: true, force: true });
});

/** Every file under a folder (relative names). */
async function files(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

const upload = async (data: Buffer) => {
  const body = await form({ memorialId: c.publicId }, { data, type: 'image/jpeg', name: 'foto.jpg' });
  return t.app.inject({
    method: 'POST',
    url: '/core/memorial-media',
    payload: body.payload,
    headers: { ...c.owner.headers, ...body.headers },
  });
};

describe.skipIf(!mounted)(`disk full${why}`, () => {
  it('answers 507 STORAGE_FULL in Dutch, keeps nothing half-written, and goes on serving', async () => {
    // Random pixels do not compress: a JPEG of about 2 MB, twice the disk.
    const big = await sharp(randomBytes(1600 * 1200 * 3), { raw: { width: 1600, height: 1200, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const res = await upload(big);
    expect(res.statusCode).toBe(507);
    expect(res.json()).toEqual({ code: 'STORAGE_FULL', message: expect.stringContaining('opslag is vol') });
    expect(await files(path.join(mountPoint, 'tmp'))).toEqual([]);
    expect(await files(path.join(mountPoint, 'media'))).toEqual([]);
    const { rows } = await t.db.query(`SELECT 1 FROM media WHERE memorial_id = $1`, [c.publicId]);
    expect(rows).toEqual([]);

    // Still serving: reads, and a small upload that fits.
    const read = await t.app.inject({ method: 'GET', url: `/core/memorial/${c.publicId}` });
    expect(read.statusCode).toBe(200);
    const small = await upload(await jpeg(64, 48));
    expect(small.statusCode).toBe(201);
  });

  it("the storage's put leaves no temporary file behind when the disk fills", async () => {
    const storage = localMediaStorage(path.join(mountPoint, 'media'));
    const key = `${crypto.randomUUID()}/web-1.webp`;
    await expect(storage.put(key, randomBytes(2 * 1024 * 1024))).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(
      (await files(path.join(mountPoint, 'media'))).filter((f) => f.startsWith(key.split('/')[0]!)),
    ).toEqual([]);
    expect(await storage.exists(key)).toBe(false);
  });
});
