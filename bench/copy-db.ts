// Copies the seeded benchmark data from PGlite (a DATA_DIR) into an empty, migrated PostgreSQL database, so
// both databases serve exactly the same memorial without running the media pipeline twice.
// Usage: node --import tsx bench/copy-db.ts --data-dir DIR --database-url URL
import path from 'node:path';
import { createDb } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { databaseRoutines } from '../apps/server/src/app.ts';
import { arg, report } from './lib/app.ts';

/** Parents before children (foreign keys); the rest of the schema starts empty in both. */
const TABLES = [
  'server_secrets',
  'accounts',
  'users',
  'memorials',
  'memorial_members',
  'memories',
  'media',
  'media_variants',
];

const from = await createDb({ pgliteDir: path.join(arg('data-dir')!, 'pg') });
const to = await createDb({ databaseUrl: arg('database-url')! });
await migrate(to, databaseRoutines);
const counts: Record<string, number> = {};
for (const table of TABLES) {
  const { rows } = await from.query<{ rows: unknown[] | null }>(`SELECT json_agg(t) AS rows FROM ${table} t`);
  const data = rows[0]?.rows ?? [];
  await to.query(`DELETE FROM ${table}`);
  if (data.length > 0)
    await to.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1::json)`, [
      JSON.stringify(data),
    ]);
  counts[table] = data.length;
}
await from.close();
await to.close();
report(counts);
