import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db, Tx } from './client.ts';
import { installRoutines, type Routine } from './routines.ts';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Every step runs in a transaction holding this lock (per schema: tests share one server), so processes
 * starting together on one database take turns and each migration is applied once. A transaction-scoped
 * lock needs no connection of its own, which a pool (or PGlite) does not promise.
 */
async function lock(tx: Tx) {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('aandenken:migrate:' || current_schema()))", []);
}

const sha256 = (sql: string) => createHash('sha256').update(sql).digest('hex');

/**
 * Applies numbered, forward-only SQL files (NNN-name.sql) in order, each in its own transaction, then
 * installs the given routines (db/routines.ts) that are missing. Refuses to run when a migration that was
 * applied has changed since (its sha256 is kept). A failure throws: the process must not start on a
 * half-migrated schema.
 */
export async function migrate(
  db: Db,
  routines: readonly Routine[],
  dir = migrationsDir,
  options: { only?: ReadonlySet<string> } = {},
): Promise<string[]> {
  const files = (await fs.readdir(dir))
    .filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f) && (!options.only || options.only.has(f)))
    .sort();
  const sql = new Map<string, string>();
  for (const file of files) sql.set(file, await fs.readFile(path.join(dir, file), 'utf8'));

  await db.transaction(async (tx) => {
    await lock(tx);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    // The checksum column comes with a migration of its own: read it as JSON so a database from before it works.
    const { rows } = await tx.query<{ id: string; checksum: string | null }>(
      "SELECT id, to_jsonb(s) ->> 'checksum' AS checksum FROM schema_migrations s",
    );
    for (const row of rows) {
      const text = sql.get(row.id);
      if (row.checksum && text !== undefined && sha256(text) !== row.checksum)
        throw new Error(
          `Migratie ${row.id} is gewijzigd nadat hij is toegepast (sha256 verschilt). Migraties zijn ` +
            'alleen vooruit: zet de wijziging in een nieuwe, genummerde migratie en herstel dit bestand.',
        );
    }
  });

  const applied: string[] = [];
  for (const file of files) {
    try {
      const done = await db.transaction(async (tx) => {
        await lock(tx);
        const { rows } = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [file]);
        if (rows.length > 0) return false;
        await tx.exec(sql.get(file)!);
        await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [file]);
        return true;
      });
      if (done) applied.push(file);
    } catch (err) {
      throw new Error(`Migratie ${file} is mislukt: ${(err as Error).message}`, { cause: err });
    }
  }

  // Rows from before the checksum column (and those just applied) get their file's checksum.
  await db.transaction(async (tx) => {
    await lock(tx);
    await tx.query(
      `UPDATE schema_migrations s SET checksum = f.checksum
         FROM unnest($1::text[], $2::text[]) AS f(id, checksum)
        WHERE s.id = f.id AND s.checksum IS NULL`,
      [files, files.map((f) => sha256(sql.get(f)!))],
    );
  });
  // A restore first builds the schema of its archive's migrations only (lib/backup); routines follow later.
  if (!options.only) await installRoutines(db, routines);
  return applied;
}

/** Every migration file of this version with its sha256 (a back-up may be restored only where they match). */
export async function migrationChecksums(dir = migrationsDir): Promise<Map<string, string>> {
  const files = (await fs.readdir(dir)).filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f)).sort();
  const out = new Map<string, string>();
  for (const file of files) out.set(file, sha256(await fs.readFile(path.join(dir, file), 'utf8')));
  return out;
}
