import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp, databaseRoutines, type App, type BuildOptions } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { createDb, type Db } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { adminQuery } from './admin-query.ts';
import { startSmtpSink } from './smtp-sink.ts';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a database of its own on the
 * PostgreSQL server named by TEST_DATABASE_URL (dropped again by `close`). Both start as a copy of a database
 * migrated once per run (global-setup.ts); `migrate` then only confirms that nothing is left to apply.
 */
export async function createTestDb(): Promise<Db> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const template = inject('pgliteTemplate');
    const loadDataDir = template ? new Blob([await fs.readFile(template)]) : undefined;
    const db = await createDb({ pgliteDir: 'memory://', loadDataDir });
    await migrate(db, databaseRoutines);
    return db;
  }
  const template = inject('postgresTemplate');
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  if (!template) {
    // No PostgreSQL template: the PGlite pass, where a suite that needs a server anyway (db-outage.test.ts)
    // points TEST_DATABASE_URL at one itself. A schema of its own, migrated from the start.
    const db = await createDb({ databaseUrl: url, schema: name, poolSize: 5 });
    await migrate(db, databaseRoutines);
    const close = db.close.bind(db);
    return Object.assign(db, {
      close: async () => {
        await db.exec(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
        await close();
      },
    });
  }
  await adminQuery(url, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  const db = await createDb({ databaseUrl: own.toString(), poolSize: 5 });
  await migrate(db, databaseRoutines);
  const close = db.close.bind(db);
  return Object.assign(db, {
    close: async () => {
      await close();
      await adminQuery(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  });
}

export interface TestContext {
  app: App;
  db: Db;
  config: Config;
  smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  dataDir: string;
  close(): Promise<void>;
}

/** The real app on a real database, mailing to a real SMTP sink on loopback. */
export async function createTestApp(
  env: Record<string, string> = {},
  setup?: (app: FastifyInstance) => void,
  build: Pick<BuildOptions, 'onRoute'> = {},
): Promise<TestContext> {
  const smtp = await startSmtpSink();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    ADMIN_EMAILS: 'team@aandenken.test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:8080',
    RATE_LIMIT_MAX: '10000',
    // No load shedding on event-loop delay: on a shared, busy test machine it would answer 503 at random
    // (load-shedding.test.ts turns it on).
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
  const db = await createTestDb();
  const app = await buildApp({ config, db, ...build });
  setup?.(app);
  await app.ready();
  return {
    app,
    db,
    config,
    smtp,
    dataDir,
    async close() {
      await app.close();
      await db.close();
      await smtp.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Creates an account and returns an access token exactly as the embedded provider issues it
 * (same keys, issuer, audience and claims), for API tests that are not about signing in itself.
 */
export async function issueUserToken(
  t: Pick<TestContext, 'db' | 'config'>,
  user: { email: string; name?: string },
  /** How long the token lasts (jose's notation: seconds, or '15m'). */
  expiresIn: number | string = '15m',
): Promise<{ token: string; userId: string }> {
  const { SignJWT, importJWK } = await import('jose');
  const { loadSigningKeys } = await import('../src/lib/signing-keys.ts');
  const name = user.name ?? user.email.split('@')[0]!;
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO accounts (email, name, email_verified) VALUES ($1, $2, true)
     ON CONFLICT ((lower(email))) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
    [user.email, name],
  );
  const userId = rows[0]!.id;
  const { privateJwks } = await loadSigningKeys(t.db);
  const jwk = privateJwks[0]!;
  const key = await importJWK(jwk, 'RS256');
  const token = await new SignJWT({ email: user.email, name, scope: 'openid profile email' })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'at+jwt' })
    .setIssuer(t.config.OIDC_AUTHORITY)
    .setAudience(t.config.OIDC_AUDIENCE)
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(typeof expiresIn === 'number' ? Math.floor(Date.now() / 1000) + expiresIn : expiresIn)
    .setJti(crypto.randomUUID())
    .sign(key);
  return { token, userId };
}

/** The same signed link with a signature that differs for certain: its first character changed. */
export function forgeSignature(url: string): string {
  return url.replace(/sig=(.)/, (_all, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`);
}
