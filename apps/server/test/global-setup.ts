import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDb, dumpPglite } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { databaseRoutines } from '../src/app.ts';
import { adminQuery } from './admin-query.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

/**
 * Migrates one database and keeps it as the template every test file copies, instead of replaying all
 * migrations per file (about half a second on PGlite and 4–5 s on the PostgreSQL server on these machines):
 * on PGlite a dump that each file loads; with TEST_DATABASE_URL a database on that server that each file
 * copies with `CREATE DATABASE … TEMPLATE` (helpers.ts `createTestDb`), dropped after the run.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `template_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const admin = (sql: string) => adminQuery(url, sql);
    await admin(`CREATE DATABASE "${name}"`);
    const own = new URL(url);
    own.pathname = `/${name}`;
    const db = await createDb({ databaseUrl: own.toString(), poolSize: 1 });
    try {
      await migrate(db, databaseRoutines);
    } finally {
      await db.close();
    }
    project.provide('postgresTemplate', name);
    return async () => {
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    };
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-pglite-template-'));
  const file = path.join(dir, 'template.tar');
  const db = await createDb({ pgliteDir: 'memory://' });
  await migrate(db, databaseRoutines);
  const dump = await dumpPglite(db);
  await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await db.close();
  project.provide('pgliteTemplate', file);
  return async () => {
    await fs.rm(dir, { recursive: true, force: true });
  };
}
