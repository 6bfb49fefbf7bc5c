/**
 * Back-ups (docs/reliability.md, docs/decisions/011-backups.md): the running process writes an
 * archive through its socket; restoring it into an empty database and media folder gives the same rows and
 * the same media bytes; a damaged, truncated or tampered archive and a non-empty target are refused.
 * On PGlite, or on the PostgreSQL server when TEST_DATABASE_URL names one (a schema of its own each).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, databaseRoutines } from '../src/app.ts';
import { createDb, type Db } from '../src/db/client.ts';
import { migrate, migrationChecksums } from '../src/db/migrate.ts';
import {
  assertEmptyTarget,
  restoreBackup,
  RestoreRefused,
  unpackBackup,
  type BackupManifest,
} from '../src/lib/backup/archive.ts';
import { BACKUP_SOCKET, startBackupSocket } from '../src/lib/backup/socket.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import {
  auth,
  createMemorial,
  createUsers,
  createWorld,
  guestTokenFor,
  type Users,
  type World,
} from './memorial-fixtures.ts';
import { candle, galleryPhoto, memory, memoryPhoto } from './fixtures/content-matrix.ts';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '..');

let t: TestContext;
let users: Users;
let w: World;
let work: string;
let socket: { close(): Promise<void> };
let archive: string;

/** A new, empty database of the kind the tests run on. */
async function emptyDb(): Promise<Db> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return createDb({ pgliteDir: 'memory://' });
  const schema = `r_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const db = await createDb({ databaseUrl: url, schema, poolSize: 3 });
  const close = db.close.bind(db);
  return Object.assign(db, {
    close: async () => {
      await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await close();
    },
  });
}

/** Every table's rows as sorted JSON texts: what "the same database" means here. */
async function allRows(db: Db): Promise<Record<string, string[]>> {
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`,
  );
  const out: Record<string, string[]> = {};
  for (const { name } of tables) {
    const { rows } = await db.query<{ r: string }>(`SELECT row_to_json(t)::text AS r FROM "${name}" t`);
    out[name] = rows.map((r) => r.r).sort();
  }
  return out;
}

async function backupThroughSocket(file: string) {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http
      .get({ socketPath: path.join(t.dataDir, BACKUP_SOCKET), path: '/backup' }, resolve)
      .once('error', reject),
  );
  expect(res.statusCode).toBe(200);
  await pipeline(res, createWriteStream(file));
}

async function restoreInto(file: string, db: Db, mediaDir: string): Promise<BackupManifest> {
  const staging = await fs.mkdtemp(path.join(work, 'staging-'));
  try {
    const manifest = await unpackBackup(file, staging);
    await assertEmptyTarget({ db, mediaDir });
    await restoreBackup({
      db,
      mediaDir,
      stagingDir: staging,
      manifest,
      migrate: (d, only) => migrate(d, databaseRoutines, undefined, { only }),
      knownMigrations: await migrationChecksums(),
    });
    return manifest;
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-backup-'));
  t = await createTestApp();
  users = await createUsers(t);
  const other = await createMemorial(t, users.otherOwner, { status: 'active' });
  w = await createWorld(t, users, { memorialId: other.id, guestToken: await guestTokenFor(t, other.id) });
  await galleryPhoto(t, w);
  await memoryPhoto(t, w);
  await memory(t, w);
  await candle(t, w);
  await t.app.deps.queue.idle(); // photo variants made, originals removed
  // From here nothing changes the database but the tests: the comparison is exact.
  await t.app.deps.queue.stop();
  socket = await startBackupSocket({
    db: t.db,
    storage: t.app.deps.storage,
    socketPath: path.join(t.dataDir, BACKUP_SOCKET),
    log: t.app.log,
  });
  archive = path.join(work, 'backup.tar.gz');
  await backupThroughSocket(archive);
}, 120_000);
afterAll(async () => {
  await socket?.close();
  await t?.close();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

// Each restore starts an empty database and replays the migrations: slow on a busy machine.
describe('backup and restore', { timeout: 180_000 }, () => {
  it('the memorial with photos, memories, members and candles survives byte for byte', async () => {
    const counts = await t.db.query<{ memories: number; members: number; candles: number; media: number }>(
      `SELECT (SELECT count(*)::int FROM memories WHERE memorial_id = $1) AS memories,
              (SELECT count(*)::int FROM memorial_members WHERE memorial_id = $1) AS members,
              (SELECT count(*)::int FROM candles WHERE memorial_id = $1) AS candles,
              (SELECT count(*)::int FROM media WHERE memorial_id = $1) AS media`,
      [w.memorialId],
    );
    expect(counts.rows[0]).toMatchObject({ members: 4 });
    expect(counts.rows[0]!.memories).toBeGreaterThanOrEqual(1);
    expect(counts.rows[0]!.candles).toBeGreaterThanOrEqual(1);
    expect(counts.rows[0]!.media).toBeGreaterThanOrEqual(2);

    const target = await emptyDb();
    const mediaDir = path.join(work, 'restored-media');
    try {
      const manifest = await restoreInto(archive, target, mediaDir);
      expect(manifest.database).toBe(t.db.kind);
      expect(manifest.missingMedia).toEqual([]);
      expect(await allRows(target)).toEqual(await allRows(t.db));

      const { rows: keys } = await t.db.query<{ storage_key: string }>(
        `SELECT v.storage_key FROM media_variants v JOIN media m ON m.id = v.media_id WHERE m.memorial_id = $1`,
        [w.memorialId],
      );
      expect(keys.length).toBeGreaterThanOrEqual(2);
      for (const { storage_key: key } of keys) {
        const before = await fs.readFile(path.join(t.dataDir, 'media', key));
        const after = await fs.readFile(path.join(mediaDir, key));
        expect(after.equals(before)).toBe(true);
      }

      // The restored site works: the owner's token (signed with the restored keys) reads the page.
      const app = await buildApp({ config: t.config, db: target });
      try {
        await app.ready();
        const res = await app.inject({
          method: 'GET',
          url: `/core/memorial/${w.memorialId}`,
          headers: auth(users.owner.token),
        });
        expect(res.statusCode).toBe(200);
      } finally {
        await app.close();
      }
    } finally {
      await target.close();
    }
  });

  it('refuses a target that is not empty', async () => {
    await expect(assertEmptyTarget({ db: t.db, mediaDir: path.join(work, 'none') })).rejects.toThrow(
      /database is niet leeg/,
    );
    const target = await emptyDb();
    try {
      await expect(
        assertEmptyTarget({ db: target, mediaDir: path.join(t.dataDir, 'media') }),
      ).rejects.toThrow(/media .* is niet leeg/);
    } finally {
      await target.close();
    }
  });

  it('refuses a truncated archive, a corrupted one and one whose content was changed', async () => {
    const bytes = await fs.readFile(archive);
    const truncated = path.join(work, 'truncated.tar.gz');
    await fs.writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const corrupted = path.join(work, 'corrupted.tar.gz');
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    await fs.writeFile(corrupted, flipped);
    // A valid gzip and tar, but a media file's bytes differ from the manifest's sha256.
    const tar = zlib.gunzipSync(bytes);
    const at = tar.indexOf(Buffer.from('media/'));
    expect(at).toBeGreaterThanOrEqual(0);
    tar[at + 512 + 100]! ^= 0xff; // inside the first media file's data (after its 512-byte header)
    const tampered = path.join(work, 'tampered.tar.gz');
    await fs.writeFile(tampered, zlib.gzipSync(tar));

    // One empty target for all three: none of them may touch it.
    const target = await emptyDb();
    try {
      for (const [file, why] of [
        [truncated, /beschadigd of onvolledig/],
        [corrupted, /beschadigd of onvolledig/],
        [tampered, /controlesom van media\/.* klopt niet/],
      ] as const) {
        const mediaDir = path.join(work, `m-${randomBytes(3).toString('hex')}`);
        const err = await restoreInto(file, target, mediaDir).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(RestoreRefused);
        expect((err as Error).message).toMatch(why);
        // Nothing was written to the target.
        const { rows } = await target.query(`SELECT 1 FROM pg_tables WHERE schemaname = current_schema()`);
        expect(rows).toEqual([]);
        await expect(fs.readdir(mediaDir)).rejects.toThrow();
      }
    } finally {
      await target.close();
    }
  });

  it('npm run backup asks the running process; npm run restore refuses a damaged archive with exit 1', async () => {
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: '' };
    const out = path.join(work, 'cli.tar.gz');
    const b = await run(process.execPath, ['src/backup-cli.ts', 'backup', out], {
      cwd: serverDir,
      env: { ...env, DATA_DIR: t.dataDir },
    });
    expect(b.stdout).toContain('Back-up gemaakt uit de draaiende server');
    expect((await fs.stat(out)).size).toBeGreaterThan(0);

    const damaged = path.join(work, 'cli-damaged.tar.gz');
    const bytes = await fs.readFile(out);
    await fs.writeFile(damaged, bytes.subarray(0, bytes.length - 100));
    const target = path.join(work, 'cli-target');
    const r = await run(process.execPath, ['src/backup-cli.ts', 'restore', damaged], {
      cwd: serverDir,
      env: { ...env, DATA_DIR: target },
    }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in r && r.code).toBe(1);
    expect(r.stderr).toMatch(/Het archief is beschadigd of onvolledig/);
    expect(await fs.readdir(target)).toEqual([]); // no database, no media, no leftovers

    // A running server's data folder is refused too.
    const busy = await run(process.execPath, ['src/backup-cli.ts', 'restore', out], {
      cwd: serverDir,
      env: { ...env, DATA_DIR: t.dataDir },
    }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in busy && busy.code).toBe(1);
    expect(busy.stderr).toMatch(/De server draait/);
  });
});
