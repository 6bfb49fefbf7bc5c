import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';
import type { Db, Queryable } from '../../db/client.ts';
import type { MediaStorage } from '../media/storage.ts';
import { ArchiveError, readTar, tarWriter } from './tar.ts';

/**
 * A back-up of the whole site as one `.tar.gz` (docs/decisions/011-backups.md, docs/reliability.md):
 * the database as a logical dump taken in one snapshot (every table's rows as JSON lines, the sequences,
 * the applied migrations) and the media files those rows refer to, with a manifest holding the sha256 and
 * size of every entry. The same format for PGlite and a PostgreSQL server, so either restores into either.
 */
export const BACKUP_FORMAT = 'aandenken-backup';
export const BACKUP_VERSION = 1;
const MANIFEST = 'manifest.json';

export interface ManifestEntry {
  path: string;
  size: number;
  sha256: string;
}
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  /** The snapshot's moment (the database's transaction start). */
  createdAt: string;
  database: Db['kind'];
  migrations: { id: string; checksum: string | null }[];
  tables: { name: string; rows: number }[];
  /** Files the snapshot refers to that were gone when they were copied (deleted after the snapshot). */
  missingMedia: string[];
  entries: ManifestEntry[];
}

const identifier = /^[a-z_][a-z0-9_]*$/;
const quote = (name: string) => {
  if (!identifier.test(name)) throw new ArchiveError(`ongeldige tabelnaam ${JSON.stringify(name)}`);
  return `"${name}"`;
};
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function tableNames(q: Queryable): Promise<string[]> {
  const { rows } = await q.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`,
    [],
  );
  return rows.map((r) => r.name);
}

/** The columns a row can be written to (not generated ones), in table order. */
async function writableColumns(q: Queryable, table: string): Promise<string[]> {
  const { rows } = await q.query<{ name: string }>(
    `SELECT a.attname AS name FROM pg_attribute a
      WHERE a.attrelid = to_regclass(quote_ident(current_schema()) || '.' || quote_ident($1))
        AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      ORDER BY a.attnum`,
    [table],
  );
  return rows.map((r) => r.name);
}

interface Snapshot {
  createdAt: string;
  migrations: BackupManifest['migrations'];
  tables: { name: string; lines: string[] }[];
  sequences: { name: string; lastValue: string | null; startValue: string }[];
  mediaKeys: string[];
}

/**
 * Reads everything in one REPEATABLE READ, read-only transaction: one moment of the database. On PGlite
 * (one connection) other statements wait for it; on a server they go on beside it.
 */
async function takeSnapshot(db: Db): Promise<Snapshot> {
  return db.transaction(async (tx) => {
    await tx.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const { rows: now } = await tx.query<{ at: string }>(`SELECT to_json(now())#>>'{}' AS at`, []);
    const names = await tableNames(tx);
    const tables: Snapshot['tables'] = [];
    for (const name of names) {
      const { rows } = await tx.query<{ r: string }>(
        `SELECT row_to_json(t)::text AS r FROM ${quote(name)} t`,
        [],
      );
      tables.push({ name, lines: rows.map((r) => r.r) });
    }
    const { rows: sequences } = await tx.query<{
      name: string;
      last_value: string | null;
      start_value: string;
    }>(
      `SELECT sequencename AS name, last_value::text AS last_value, start_value::text AS start_value
         FROM pg_sequences WHERE schemaname = current_schema() ORDER BY sequencename`,
      [],
    );
    const { rows: migrations } = names.includes('schema_migrations')
      ? await tx.query<{ id: string; checksum: string | null }>(
          `SELECT id, to_jsonb(s) ->> 'checksum' AS checksum FROM schema_migrations s ORDER BY id`,
          [],
        )
      : { rows: [] };
    const mediaKeys: string[] = [];
    if (names.includes('media') && names.includes('media_variants')) {
      const { rows } = await tx.query<{ key: string }>(
        `SELECT source_key AS key FROM media WHERE source_key IS NOT NULL
         UNION SELECT storage_key FROM media_variants
         ${names.includes('exports') ? 'UNION SELECT storage_key FROM exports WHERE storage_key IS NOT NULL' : ''}
         ORDER BY 1`,
        [],
      );
      mediaKeys.push(...rows.map((r) => r.key));
    }
    return {
      createdAt: now[0]!.at,
      migrations,
      tables,
      sequences: sequences.map((s) => ({ name: s.name, lastValue: s.last_value, startValue: s.start_value })),
      mediaKeys,
    };
  });
}

/**
 * Writes a back-up to `out` (gzip of a tar) and ends it. The database is read first, in one snapshot;
 * then the media files it refers to are copied: media files are written once and never changed, so the
 * files are those of the snapshot's moment, and a file deleted since is listed in `missingMedia`.
 */
export async function writeBackup(o: {
  db: Db;
  storage: MediaStorage;
  out: Writable;
}): Promise<BackupManifest> {
  const snapshot = await takeSnapshot(o.db);
  const gzip = zlib.createGzip({ level: 6 });
  const done = pipeline(gzip, o.out);
  const entries: ManifestEntry[] = [];
  const missingMedia: string[] = [];
  try {
    const tar = tarWriter(gzip);
    const mtime = new Date(snapshot.createdAt);
    const add = async (name: string, data: Buffer) => {
      entries.push({ path: name, size: data.length, sha256: sha256(data) });
      await tar.add(name, data, mtime);
    };
    for (const t of snapshot.tables) {
      await add(`database/${t.name}.jsonl`, Buffer.from(t.lines.map((l) => l + '\n').join(''), 'utf8'));
    }
    await add('database/sequences.json', Buffer.from(JSON.stringify(snapshot.sequences), 'utf8'));
    for (const key of snapshot.mediaKeys) {
      let data: Buffer;
      try {
        data = await o.storage.read(key);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        missingMedia.push(key);
        continue;
      }
      await add(`media/${key}`, data);
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: snapshot.createdAt,
      database: o.db.kind,
      migrations: snapshot.migrations,
      tables: snapshot.tables.map((t) => ({ name: t.name, rows: t.lines.length })),
      missingMedia,
      entries,
    };
    await tar.add(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2), 'utf8'), mtime);
    await tar.finish();
    gzip.end();
    await done;
    return manifest;
  } catch (err) {
    gzip.destroy(err as Error);
    await done.catch(() => {});
    throw err;
  }
}

/** Why an archive or a target was refused, in Dutch, for the person running the command. */
export class RestoreRefused extends Error {}

const damaged = (why: string) =>
  new RestoreRefused(`Het archief is beschadigd of onvolledig (${why}). Er is niets hersteld.`);

/**
 * Unpacks an archive into `stagingDir` and checks it against its manifest: every entry present, with its
 * size and sha256, nothing more, and the gzip and tar whole to their end. Returns the manifest.
 */
export async function unpackBackup(archivePath: string, stagingDir: string): Promise<BackupManifest> {
  const seen = new Map<string, ManifestEntry>();
  let manifestText: string | undefined;
  await fs.mkdir(stagingDir, { recursive: true });
  try {
    await readTar(createReadStream(archivePath).pipe(zlib.createGunzip()), async (entry, chunks) => {
      if (entry.name === MANIFEST) {
        const parts: Buffer[] = [];
        for await (const c of chunks) parts.push(c);
        manifestText = Buffer.concat(parts).toString('utf8');
        return;
      }
      if (
        !/^(database\/[a-z_][a-z0-9_]*\.jsonl|database\/sequences\.json|media\/[0-9a-f-]{36}\/[a-z0-9][a-z0-9.-]{0,40})$/.test(
          entry.name,
        )
      )
        throw damaged(`onbekend bestand ${entry.name}`);
      if (seen.has(entry.name)) throw damaged(`${entry.name} staat er twee keer in`);
      const target = path.join(stagingDir, entry.name);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const hash = createHash('sha256');
      let size = 0;
      const file = createWriteStream(target);
      await pipeline(
        (async function* () {
          for await (const c of chunks) {
            hash.update(c);
            size += c.length;
            yield c;
          }
        })(),
        file,
      );
      seen.set(entry.name, { path: entry.name, size, sha256: hash.digest('hex') });
    });
  } catch (err) {
    if (err instanceof RestoreRefused) throw err;
    if (err instanceof ArchiveError) throw damaged(err.message);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && (err as NodeJS.ErrnoException).path === archivePath)
      throw new RestoreRefused(`Het archief ${archivePath} bestaat niet.`);
    if (typeof code === 'string' && code.startsWith('Z_')) throw damaged('de gzip-laag klopt niet');
    throw err;
  }
  if (manifestText === undefined) throw damaged('het overzicht manifest.json ontbreekt');
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(manifestText) as BackupManifest;
  } catch {
    throw damaged('het overzicht manifest.json is geen geldige JSON');
  }
  if (manifest.format !== BACKUP_FORMAT || !Array.isArray(manifest.entries))
    throw damaged('dit is geen back-up van Aandenken');
  if (manifest.version !== BACKUP_VERSION)
    throw new RestoreRefused(
      `Dit archief heeft formaatversie ${manifest.version}; deze versie van Aandenken herstelt versie ${BACKUP_VERSION}.`,
    );
  for (const e of manifest.entries) {
    const got = seen.get(e.path);
    if (!got) throw damaged(`${e.path} ontbreekt`);
    if (got.size !== e.size || got.sha256 !== e.sha256)
      throw damaged(`de controlesom van ${e.path} klopt niet`);
    seen.delete(e.path);
  }
  const extra = [...seen.keys()];
  if (extra.length > 0) throw damaged(`${extra[0]} staat niet in het overzicht`);
  return manifest;
}

/** Refuses a target that holds anything: a database with tables in its schema, or stored media. */
export async function assertEmptyTarget(o: { db: Db; mediaDir: string }): Promise<void> {
  const tables = await tableNames(o.db);
  if (tables.length > 0)
    throw new RestoreRefused(
      `De database is niet leeg (${tables.length} tabellen, o.a. ${tables[0]}). Herstel alleen in een lege database; er is niets veranderd.`,
    );
  const media = await fs.readdir(o.mediaDir).catch(() => []);
  if (media.length > 0)
    throw new RestoreRefused(
      `De map met media (${o.mediaDir}) is niet leeg. Herstel alleen in een lege datamap; er is niets veranderd.`,
    );
}

/**
 * Restores an unpacked, checked archive into an empty database and media folder: the schema by the
 * archive's own migrations (which this code must have, unchanged), the rows and sequences in one
 * transaction with triggers off (the rows are already what the triggers made), then the migrations and
 * routines of this version; finally the media files move into place.
 */
export async function restoreBackup(o: {
  db: Db;
  mediaDir: string;
  stagingDir: string;
  manifest: BackupManifest;
  migrate: (db: Db, only?: ReadonlySet<string>) => Promise<unknown>;
  knownMigrations: Map<string, string>;
}): Promise<void> {
  const { db, manifest } = o;
  for (const m of manifest.migrations) {
    const known = o.knownMigrations.get(m.id);
    if (known === undefined || (m.checksum !== null && known !== m.checksum))
      throw new RestoreRefused(
        `Dit archief is gemaakt met een andere versie van Aandenken (migratie ${m.id} ${known === undefined ? 'is hier onbekend' : 'verschilt'}). Herstel het met die versie.`,
      );
  }
  await o.migrate(db, new Set(manifest.migrations.map((m) => m.id)));
  const present = new Set(await tableNames(db));
  for (const t of manifest.tables) {
    if (!present.has(t.name))
      throw new RestoreRefused(`De tabel ${t.name} uit het archief bestaat hier niet.`);
  }
  const sequences = JSON.parse(
    await fs.readFile(path.join(o.stagingDir, 'database/sequences.json'), 'utf8'),
  ) as Snapshot['sequences'];

  await db.transaction(async (tx) => {
    await tx.exec('SET LOCAL session_replication_role = replica');
    if (present.size > 0) await tx.exec(`TRUNCATE ${[...present].map(quote).join(', ')} CASCADE`);
    for (const t of manifest.tables) {
      const cols = (await writableColumns(tx, t.name)).map(quote).join(', ');
      const text = await fs.readFile(path.join(o.stagingDir, `database/${t.name}.jsonl`), 'utf8');
      const lines = text.split('\n').filter((l) => l.length > 0);
      if (lines.length !== t.rows)
        throw damaged(`${t.name} heeft ${lines.length} rijen in plaats van ${t.rows}`);
      for (let i = 0; i < lines.length; i += 500) {
        await tx.query(
          `INSERT INTO ${quote(t.name)} (${cols}) OVERRIDING SYSTEM VALUE
           SELECT ${cols} FROM json_populate_recordset(null::${quote(t.name)}, $1::json)`,
          ['[' + lines.slice(i, i + 500).join(',') + ']'],
        );
      }
    }
    for (const s of sequences) {
      await tx.query(
        `SELECT setval(quote_ident(current_schema()) || '.' || quote_ident($1), $2::bigint, $3)`,
        [s.name, s.lastValue ?? s.startValue, s.lastValue !== null],
      );
    }
  });
  await o.migrate(db);

  const mediaStaging = path.join(o.stagingDir, 'media');
  const prefixes = await fs.readdir(mediaStaging).catch(() => []);
  await fs.mkdir(o.mediaDir, { recursive: true });
  for (const prefix of prefixes) {
    await fs
      .rename(path.join(mediaStaging, prefix), path.join(o.mediaDir, prefix))
      .catch(async (err: unknown) => {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        await fs.cp(path.join(mediaStaging, prefix), path.join(o.mediaDir, prefix), { recursive: true });
      });
  }
}
