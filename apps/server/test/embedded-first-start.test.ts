import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { exampleMemorialIds } from '@aandenken/contract';
import { databaseRoutines } from '../src/app.ts';
import { createDb } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { prepareEmbeddedDatabase } from '../src/embedded-first-start.ts';
import { MEDIA_VARIANTS_JOB } from '../src/modules/media/service.ts';

/**
 * A first start on PGlite makes and migrates the database in a child process, then opens it in its own
 * (docs/decisions/015-memory.md): nothing of it may be lost or left to do, and an existing database is never
 * touched by a child.
 */
const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

/** A data folder of its own, removed after the file. */
async function newDataDir() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-first-start-'));
  dirs.push(dataDir);
  return dataDir;
}

describe('a new embedded database', () => {
  it(
    'is made and migrated by a child process; the server finds nothing left to do and keeps what it writes',
    { timeout: 180_000 },
    async () => {
      const dataDir = await newDataDir();
      const dir = path.join(dataDir, 'pg');

      expect(await prepareEmbeddedDatabase(dir)).toBe(true);
      const files = (await fs.readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
      let db = await createDb({ pgliteDir: dir });
      try {
        const { rows } = await db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
        expect(rows.map((r) => r.id)).toEqual(files);
        // What the server runs after opening it: every migration and routine is there already.
        expect(await migrate(db, databaseRoutines)).toEqual([]);
        const routines = await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_proc WHERE proname = ANY($1)',
          [databaseRoutines.map((r) => r.name)],
        );
        expect(routines.rows[0]!.n).toBe(databaseRoutines.length);
        await db.query(
          'INSERT INTO contact_messages (name, email, subject, message) VALUES ($1, $2, $3, $4)',
          ['Afzender', 'afzender@example.nl', 'general', 'Na de eerste start'],
        );
      } finally {
        await db.close();
      }

      // An existing database: no child, the data stays as it was.
      expect(await prepareEmbeddedDatabase(dir)).toBe(false);
      db = await createDb({ pgliteDir: dir });
      try {
        const { rows } = await db.query<{ message: string }>('SELECT message FROM contact_messages');
        expect(rows).toEqual([{ message: 'Na de eerste start' }]);
      } finally {
        await db.close();
      }
    },
  );

  it(
    'with the examples: the child makes them with every photo processed, and the server has nothing left to do',
    { timeout: 300_000 },
    async () => {
      const dataDir = await newDataDir();
      const dir = path.join(dataDir, 'pg');
      // The child reads the server's configuration: its photos go to this data folder's media store.
      const before = process.env.DATA_DIR;
      process.env.DATA_DIR = dataDir;
      try {
        expect(await prepareEmbeddedDatabase(dir, { seedExamples: true })).toBe(true);
      } finally {
        if (before === undefined) delete process.env.DATA_DIR;
        else process.env.DATA_DIR = before;
      }
      const db = await createDb({ pgliteDir: dir });
      try {
        const memorials = await db.query<{ id: string; status: string }>(
          'SELECT id, status FROM memorials WHERE id = ANY($1) ORDER BY id',
          [Object.values(exampleMemorialIds)],
        );
        expect(memorials.rows).toEqual(
          Object.values(exampleMemorialIds)
            .sort()
            .map((id) => ({ id, status: 'active' })),
        );
        const media = await db.query<{ status: string; n: number }>(
          'SELECT status, count(*)::int AS n FROM media GROUP BY status',
        );
        expect(media.rows).toEqual([{ status: 'ready', n: expect.any(Number) }]);
        expect(media.rows[0]!.n).toBeGreaterThan(10);
        // Every variant is in the store; no job waits for the server.
        const stored = await fs.readdir(path.join(dataDir, 'media'));
        expect(stored.length).toBeGreaterThanOrEqual(media.rows[0]!.n);
        const jobs = await db.query<{ status: string; n: number }>(
          'SELECT status, count(*)::int AS n FROM jobs WHERE kind = $1 GROUP BY status',
          [MEDIA_VARIANTS_JOB],
        );
        expect(jobs.rows).toEqual([{ status: 'done', n: media.rows[0]!.n }]);
      } finally {
        await db.close();
      }
    },
  );

  it('that cannot be made stops the start with a message', { timeout: 60_000 }, async () => {
    const dataDir = await newDataDir();
    // A file where the database's directory should be: the child cannot create it.
    await fs.writeFile(path.join(dataDir, 'pg'), 'geen map');
    await expect(prepareEmbeddedDatabase(path.join(dataDir, 'pg'))).rejects.toThrow(
      /de database kon niet worden aangemaakt/,
    );
  });
});
