import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './client.ts';
import { installRoutines } from './routines.ts';
import { wallRoutine } from '../modules/memories/repository.ts';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Functions made from the application's own statements (db/routines.ts), installed after the migrations. */
const routines = [wallRoutine];

/**
 * Applies numbered, forward-only SQL files (NNN-name.sql) in order, each in its own transaction, then
 * installs the routines that are missing. A failure throws: the process must not start on a half-migrated
 * schema.
 */
export async function migrate(db: Db, dir = migrationsDir): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const files = (await fs.readdir(dir)).filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f)).sort();
  const { rows } = await db.query<{ id: string }>('SELECT id FROM schema_migrations');
  const done = new Set(rows.map((r) => r.id));
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const sql = await fs.readFile(path.join(dir, file), 'utf8');
    try {
      await db.transaction(async (tx) => {
        await tx.exec(sql);
        await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [file]);
      });
    } catch (err) {
      throw new Error(`Migratie ${file} is mislukt: ${(err as Error).message}`, { cause: err });
    }
    applied.push(file);
  }
  await installRoutines(db, routines);
  return applied;
}
