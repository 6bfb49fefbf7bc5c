// `npm run backup [FILE]` and `npm run restore ARCHIVE` (docs/reliability.md, docs/decisions/011-backups.md).
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createDb, type Db } from './db/client.ts';
import { migrate, migrationChecksums } from './db/migrate.ts';
import {
  assertEmptyTarget,
  restoreBackup,
  RestoreRefused,
  unpackBackup,
  writeBackup,
  type BackupManifest,
} from './lib/backup/archive.ts';
import { BACKUP_SOCKET, socketAnswers } from './lib/backup/socket.ts';
import { mediaStorageFor } from './lib/media/storage-for.ts';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const openDb = (config: Config) =>
  createDb({ databaseUrl: config.DATABASE_URL, pgliteDir: path.join(config.DATA_DIR, 'pg') });

async function nonEmptyDir(dir: string) {
  return (await fs.readdir(dir).catch(() => [])).length > 0;
}

/** From the running process through its socket, or, with none running, from the database itself. */
async function backup(config: Config, file: string | undefined) {
  const started = Date.now();
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  const target = path.resolve(file ?? path.join('backups', `aandenken-${stamp}.tar.gz`));
  await fs.mkdir(path.dirname(target), { recursive: true });
  const part = `${target}.part`;
  const socketPath = path.join(config.DATA_DIR, BACKUP_SOCKET);
  let source: string;
  try {
    if (await socketAnswers(socketPath)) {
      source = 'de draaiende server';
      const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http.get({ socketPath, path: '/backup' }, resolve).once('error', reject),
      );
      if (res.statusCode !== 200) {
        const parts: Buffer[] = [];
        for await (const c of res) parts.push(c as Buffer);
        throw new RestoreRefused(
          `De server maakte geen back-up: ${Buffer.concat(parts).toString('utf8').trim()}`,
        );
      }
      await pipeline(res, createWriteStream(part));
    } else {
      if (!config.DATABASE_URL && !(await nonEmptyDir(path.join(config.DATA_DIR, 'pg'))))
        throw new RestoreRefused(`Er is geen database in ${path.join(config.DATA_DIR, 'pg')}.`);
      source = config.DATABASE_URL ? 'de PostgreSQL-server' : 'de ingebouwde database (server draait niet)';
      const db = await openDb(config);
      try {
        await writeBackup({
          db,
          storage: mediaStorageFor(config),
          out: createWriteStream(part),
        });
      } finally {
        await db.close();
      }
    }
    // Read back before it counts: a back-up that cannot be restored is no back-up.
    const check = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-backup-check-'));
    let manifest: BackupManifest;
    try {
      manifest = await unpackBackup(part, check);
    } finally {
      await fs.rm(check, { recursive: true, force: true });
    }
    await fs.rename(part, target);
    const { size } = await fs.stat(target);
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
    const media = manifest.entries.filter((e) => e.path.startsWith('media/'));
    console.log(`Back-up gemaakt uit ${source}: ${target}`);
    console.log(
      `  ${manifest.tables.length} tabellen, ${rows} rijen; ${media.length} mediabestanden ` +
        `(${mb(media.reduce((n, e) => n + e.size, 0))}); archief ${mb(size)}; ${Date.now() - started} ms; ` +
        `moment ${manifest.createdAt}`,
    );
    if (manifest.missingMedia.length > 0)
      console.log(
        `  ${manifest.missingMedia.length} bestanden waren na het moment al verwijderd (zie manifest).`,
      );
  } catch (err) {
    await fs.rm(part, { force: true });
    throw err;
  }
}

async function restore(config: Config, archive: string | undefined) {
  if (!archive)
    throw new RestoreRefused('Gebruik: npm run restore ARCHIEF (het .tar.gz-bestand van npm run backup).');
  const archivePath = path.resolve(archive);
  const mediaDir = path.join(config.DATA_DIR, 'media');
  const pgDir = path.join(config.DATA_DIR, 'pg');
  if (await socketAnswers(path.join(config.DATA_DIR, BACKUP_SOCKET)))
    throw new RestoreRefused('De server draait op deze datamap. Stop hem eerst; er is niets veranderd.');
  if (!config.DATABASE_URL && (await nonEmptyDir(pgDir)))
    throw new RestoreRefused(
      `De datamap is niet leeg (${pgDir} bestaat). Herstel alleen in een lege datamap; er is niets veranderd.`,
    );
  if (await nonEmptyDir(mediaDir))
    throw new RestoreRefused(
      `De map met media (${mediaDir}) is niet leeg. Herstel alleen in een lege datamap; er is niets veranderd.`,
    );

  const started = Date.now();
  // The routines come from the features' statements: loaded only to restore, not for every back-up.
  const { databaseRoutines } = await import('./app.ts');
  await fs.mkdir(config.DATA_DIR, { recursive: true });
  const staging = await fs.mkdtemp(path.join(config.DATA_DIR, '.herstel-'));
  let db: Db | undefined;
  let createdPg = false;
  try {
    const manifest = await unpackBackup(archivePath, staging);
    createdPg = !config.DATABASE_URL;
    db = await openDb(config);
    await assertEmptyTarget({ db, mediaDir });
    await restoreBackup({
      db,
      mediaDir,
      stagingDir: staging,
      manifest,
      migrate: (d, only) => migrate(d, databaseRoutines, undefined, { only }),
      knownMigrations: await migrationChecksums(),
    });
    createdPg = false;
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
    const media = manifest.entries.filter((e) => e.path.startsWith('media/')).length;
    console.log(
      `Hersteld in ${config.DATABASE_URL ? 'de PostgreSQL-server' : config.DATA_DIR}: ${manifest.tables.length} tabellen, ` +
        `${rows} rijen, ${media} mediabestanden; back-up van ${manifest.createdAt}; ${Date.now() - started} ms.`,
    );
  } finally {
    await db?.close().catch(() => {});
    if (createdPg) await fs.rm(pgDir, { recursive: true, force: true });
    await fs.rm(staging, { recursive: true, force: true });
  }
}

async function main() {
  const [command, arg] = process.argv.slice(2);
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  if (command === 'backup') await backup(config, arg);
  else if (command === 'restore') await restore(config, arg);
  else throw new RestoreRefused('Gebruik: backup-cli.ts backup [BESTAND] | restore ARCHIEF');
}

main().catch((err: unknown) => {
  if (err instanceof RestoreRefused) console.error(err.message);
  else console.error('Mislukt:', err instanceof Error ? err.message : err);
  process.exit(1);
});
