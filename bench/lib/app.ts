// The real application, in-process, for benchmark steps that seed or measure without HTTP in between.
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { SignJWT, importJWK } from 'jose';
import { buildApp, databaseRoutines } from '../../apps/server/src/app.ts';
import { loadConfig, type Config } from '../../apps/server/src/config.ts';
import { createDb, type Db } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { loadSigningKeys } from '../../apps/server/src/lib/signing-keys.ts';

export interface BenchApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  db: Db;
  config: Config;
  close(): Promise<void>;
}

/** The app on PGlite in `dataDir` (no databaseUrl) or on a PostgreSQL server, migrated, not listening. */
export async function openApp(o: {
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
}): Promise<BenchApp> {
  await fs.mkdir(o.dataDir, { recursive: true });
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: o.dataDir,
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '100000000',
    SEED_EXAMPLES: 'false',
    // Seeding in-process on a busy machine must not be shed (503 OVERLOADED) by its own long statements.
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...o.env,
  });
  const db = await createDb({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: path.join(config.DATA_DIR, 'pg'),
  });
  await migrate(db, databaseRoutines);
  const app = await buildApp({ config, db });
  await app.ready();
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

/** An account and an access token exactly as the embedded provider issues them. */
export async function userToken(b: Pick<BenchApp, 'db' | 'config'>, email: string, name: string) {
  const { rows } = await b.db.query<{ id: string }>(
    `INSERT INTO accounts (email, name, email_verified) VALUES ($1, $2, true)
     ON CONFLICT ((lower(email))) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
    [email, name],
  );
  const userId = rows[0]!.id;
  const { privateJwks } = await loadSigningKeys(b.db);
  const jwk = privateJwks[0]!;
  const token = await new SignJWT({ email, name, scope: 'openid profile email' })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'at+jwt' })
    .setIssuer(b.config.OIDC_AUTHORITY)
    .setAudience(b.config.OIDC_AUDIENCE)
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(await importJWK(jwk, 'RS256'));
  return { userId, headers: { authorization: `Bearer ${token}` } };
}

/** A multipart/form-data body as a browser's FormData sends it (fields first, then the file). */
export async function formData(
  fields: Record<string, string>,
  file: { data: Buffer; type: string; name: string },
) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append('media', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  const req = new Request('http://localhost/', { method: 'POST', body: fd });
  return {
    payload: Buffer.from(await req.arrayBuffer()),
    headers: { 'content-type': req.headers.get('content-type')! },
  };
}

/** A photo-like JPEG: soft gradients and shapes (compresses like a photo, not like noise or flat colour). */
export async function photo(width: number, height: number, seed: number): Promise<Buffer> {
  const hue = (seed * 47) % 360;
  const shapes = Array.from({ length: 24 }, (_, i) => {
    const x = ((seed + 1) * (i + 3) * 7919) % width;
    const y = ((seed + 2) * (i + 5) * 104729) % height;
    const r = 40 + (((seed + i) * 613) % Math.max(60, Math.floor(width / 6)));
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="hsl(${(hue + i * 15) % 360},55%,${35 + (i % 5) * 8}%)" fill-opacity="0.55"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},60%,70%)"/><stop offset="1" stop-color="hsl(${(hue + 120) % 360},50%,25%)"/>
    </linearGradient><filter id="f"><feTurbulence baseFrequency="0.012" numOctaves="3" seed="${seed}"/><feColorMatrix type="saturate" values="0.3"/><feBlend in="SourceGraphic" mode="multiply"/></filter></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><g filter="url(#f)">${shapes}</g></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}

/** Waits until the job queue has nothing queued or running. */
export async function jobsIdle(db: Db, timeoutMs = 600_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      // Work due now; a job planned for later (the daily look for silent owners) is not under way.
      `SELECT count(*)::int AS n FROM jobs WHERE status = 'running' OR (status = 'queued' AND run_at <= now())`,
    );
    if (rows[0]!.n === 0) return;
    if (Date.now() > until) throw new Error('background jobs did not finish in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Prints one JSON line the orchestrator reads (the last line of stdout). */
export function report(result: unknown) {
  process.stdout.write(`\n${JSON.stringify(result)}\n`);
}

export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
