import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseRoutines } from '../src/app.ts';
import { createDb } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { createTestDb } from './helpers.ts';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations');
const url = process.env.TEST_DATABASE_URL;
const tmpDirs: string[] = [];

afterAll(async () => {
  for (const dir of tmpDirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('migrate', () => {
  it.skipIf(!url)(
    'lets two processes start at once on the PostgreSQL server: both succeed, each migration is applied once',
    { timeout: 120_000 },
    async () => {
      const schema = `t_migrate_${randomBytes(4).toString('hex')}`;
      const [a, b] = [
        await createDb({ databaseUrl: url, schema, poolSize: 2 }),
        await createDb({ databaseUrl: url, schema, poolSize: 2 }),
      ];
      try {
        const [fromA, fromB] = await Promise.all([
          migrate(a, databaseRoutines),
          migrate(b, databaseRoutines),
        ]);
        const files = (await fs.readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
        expect([...fromA, ...fromB].sort()).toEqual(files);
        const { rows } = await a.query<{ n: number; checked: number }>(
          'SELECT count(*)::int AS n, count(checksum)::int AS checked FROM schema_migrations',
        );
        expect(rows[0]).toEqual({ n: files.length, checked: files.length });
      } finally {
        await a.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await a.close();
        await b.close();
      }
    },
  );

  it('refuses to start when an applied migration has changed, and accepts it unchanged', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-migrations-'));
    tmpDirs.push(dir);
    await fs.cp(migrationsDir, dir, { recursive: true });
    const db = await createTestDb();
    try {
      expect(await migrate(db, databaseRoutines, dir)).toEqual([]);
      await fs.appendFile(path.join(dir, '020-memorials.sql'), '\n-- changed afterwards\n');
      await expect(migrate(db, databaseRoutines, dir)).rejects.toThrow(
        /Migratie 020-memorials\.sql is gewijzigd nadat hij is toegepast/,
      );
    } finally {
      await db.close();
    }
  });

  it('gives the rows of a database from before the checksums theirs at its first run', async () => {
    const db = await createTestDb();
    try {
      await db.exec('UPDATE schema_migrations SET checksum = NULL');
      expect(await migrate(db, databaseRoutines)).toEqual([]);
      const { rows } = await db.query<{ missing: number }>(
        'SELECT count(*)::int AS missing FROM schema_migrations WHERE checksum IS NULL',
      );
      expect(rows[0]!.missing).toBe(0);
    } finally {
      await db.close();
    }
  });
});
