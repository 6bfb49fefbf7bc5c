import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ACCESS_CODE_FAILURES_PER_MINUTE } from '@aandenken/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../src/db/client.ts';
import { memorialService } from '../src/modules/memorials/service.ts';
import { form, jpeg } from './fixtures/content.ts';
import { Browser, registerThroughProvider, endpoints } from './identity-flow.ts';
import { startSmtpSink } from './smtp-sink.ts';
import { startS3StandIn, type S3StandIn } from './support/s3-standin.ts';

/**
 * Two app processes (the real server, `src/server.ts`) on two ports, sharing one PostgreSQL
 * server, Redis and an S3-compatible bucket, with requests spread over both (docs/scale-out.md). Needs the
 * PostgreSQL server of TEST_DATABASE_URL (CI's database pass) and the Redis of TEST_REDIS_URL (default the local
 * one); skipped without a PostgreSQL server, since two processes cannot share an embedded database.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** The parts of Fastify's `inject` the identity helpers use, over real HTTP to one of the processes. */
function over(port: () => number) {
  return {
    async inject(o: {
      method?: string;
      url: string;
      headers?: Record<string, string | undefined>;
      payload?: string | Buffer | object;
    }) {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(o.headers ?? {})) if (v !== undefined) headers[k] = v;
      let body: string | Buffer | undefined;
      if (Buffer.isBuffer(o.payload) || typeof o.payload === 'string') body = o.payload;
      else if (o.payload !== undefined) {
        body = JSON.stringify(o.payload);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`http://127.0.0.1:${port()}${o.url}`, {
        method: o.method ?? 'GET',
        headers,
        body: body === undefined ? undefined : new Uint8Array(Buffer.from(body)),
        redirect: 'manual',
      });
      const text = Buffer.from(await res.arrayBuffer());
      const out: Record<string, string | string[]> = {};
      res.headers.forEach((v, k) => (out[k] = v));
      out['set-cookie'] = res.headers.getSetCookie();
      return {
        statusCode: res.status,
        headers: out,
        body: text.toString(),
        rawPayload: text,
        json: () => JSON.parse(text.toString()),
      } as unknown as LightMyRequestResponse;
    },
  } as unknown as FastifyInstance;
}

interface Proc {
  port: number;
  child: ChildProcess;
  exited: Promise<number | null>;
}

describe.skipIf(!adminUrl)('two app processes on one PostgreSQL server, Redis and bucket', () => {
  const name = `two_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let admin: pg.Client;
  let db: Db;
  let s3: S3StandIn;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let a: Proc;
  let b: Proc;
  const dirs: string[] = [];
  let token = '';
  let userId = '';
  let memorialId = '';

  async function start(env: Record<string, string>): Promise<Proc> {
    const port = await freePort();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-two-'));
    dirs.push(dataDir);
    const child = spawn(process.execPath, ['src/server.ts'], {
      cwd: serverDir,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir },
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { port, child, exited };
  }
  const healthy = async (p: Proc) => {
    for (let i = 0; i < 600; i++) {
      const ok = await fetch(`http://127.0.0.1:${p.port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`process on ${p.port} did not become healthy`);
  };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    s3 = await startS3StandIn();
    smtp = await startSmtpSink();
    const bucket = await s3.bucket();
    const env = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      // Behind one load balancer: one public address for both.
      PUBLIC_URL: 'http://localhost:8080',
      DATABASE_URL: url.toString(),
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: `${name}:`,
      S3_ENDPOINT: bucket.endpoint,
      S3_BUCKET: bucket.bucket,
      S3_REGION: bucket.region,
      S3_ACCESS_KEY_ID: bucket.accessKeyId,
      S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
      SMTP_URL: smtp.url,
      SEED_EXAMPLES: 'false',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '100000',
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    };
    // Both start at once: the migrations run once (an advisory lock), the other waits and finds them done.
    [a, b] = await Promise.all([start(env), start(env)]);
    await Promise.all([healthy(a), healthy(b)]);
    db = await createDb({ databaseUrl: url.toString(), poolSize: 2 });
  }, 180_000);

  afterAll(async () => {
    for (const p of [a, b]) if (p && p.child.exitCode === null) p.child.kill('SIGTERM');
    await Promise.all([a?.exited, b?.exited]);
    await db?.close();
    await s3?.close();
    await smtp?.close();
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin?.end();
    for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
  });

  it('a sign-in begun on one process is finished on the other, and its token is valid on both', async () => {
    // The provider's interaction, the code and the tokens live in PostgreSQL: each request goes to the other
    // process than the one before.
    let turn = 0;
    const alternating = over(() => (turn++ % 2 ? b.port : a.port));
    const { tokens } = await registerThroughProvider(
      alternating,
      { name: 'Sanne Twee', email: `sanne-${name}@example.nl`, password: 'Zonnebloem-kade-1987!' },
      new Browser(alternating),
    );
    token = tokens.access_token;
    for (const p of [a, b]) {
      const info = await over(() => p.port).inject({
        url: endpoints.userinfo,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(info.statusCode).toBe(200);
      userId = info.json().sub;
      const roles = await over(() => p.port).inject({
        url: '/core/account/roles',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(roles.statusCode).toBe(200);
    }
    const service = memorialService({ db });
    const caller = { kind: 'user' as const, userId, email: `sanne-${name}@example.nl`, name: null };
    ({ id: memorialId } = await service.createConcept(caller, { firstName: 'Bram', lastName: 'Twee' }));
    await service.update(caller, { id: memorialId, status: 'active' });
    await service.update(caller, { id: memorialId, visibility: 'public' });
  });

  it('a photo uploaded through one is served by the other', async () => {
    const body = await form({ memorialId }, { data: await jpeg(), type: 'image/jpeg', name: 'foto.jpg' });
    const up = await over(() => a.port).inject({
      method: 'POST',
      url: '/core/memorial-media',
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${token}` },
    });
    expect(up.statusCode, up.body).toBe(201);
    const item = up.json();
    let ready: { variants: { url: string }[] } | undefined;
    for (let i = 0; i < 300 && !ready; i++) {
      const r = await over(() => b.port).inject({
        url: `/core/memorial-media/${item.id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      if (r.json().status === 'ready') ready = r.json();
      else await new Promise((res) => setTimeout(res, 100));
    }
    expect(ready).toBeDefined();
    const link = new URL(ready!.variants[0]!.url);
    const file = await over(() => b.port).inject({ url: `${link.pathname}${link.search}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^image\//);
  });

  it("a candle lit through one shows on the other's cached page", async () => {
    const read = async () =>
      (await over(() => b.port).inject({ url: `/core/memorial/${memorialId}` })).json().counts
        .candles as number;
    const before = await read();
    expect(await read()).toBe(before); // now from B's response cache
    const lit = await over(() => a.port).inject({
      method: 'POST',
      url: `/core/candles/${memorialId}`,
      payload: { name: 'Oma', kind: 'candle' },
    });
    expect(lit.statusCode, lit.body).toBe(201);
    let now = before;
    for (let i = 0; i < 100 && now === before; i++) {
      await new Promise((r) => setTimeout(r, 50));
      now = await read();
    }
    expect(now).toBe(before + 1);
  });

  it('wrong access codes spread over both count together: refused (429) well within 21', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const code = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
      const res = await over(() => (i % 2 ? b.port : a.port)).inject({
        method: 'POST',
        url: '/core/guest/token',
        payload: { accessCode: code },
      });
      statuses.push(res.statusCode);
      expect(res.statusCode).toBeLessThan(500);
    }
    // The limit per address and minute counts the failures of both processes (PostgreSQL): the first refusal
    // comes right after it, where two separate counts would have allowed twice as many.
    expect(statuses.slice(0, ACCESS_CODE_FAILURES_PER_MINUTE).every((s) => s === 404)).toBe(true);
    expect(statuses[ACCESS_CODE_FAILURES_PER_MINUTE]).toBe(429);
    expect(statuses.at(-1)).toBe(429);
  });

  it('a process killed under load leaves the other serving, with no failed request to it', async () => {
    const results: number[] = [];
    let stop = false;
    const load = (async () => {
      while (!stop) {
        const r = await over(() => b.port).inject({ url: `/core/memorial/${memorialId}` });
        results.push(r.statusCode);
      }
    })();
    // eslint-disable-next-line no-restricted-syntax -- load on B before and after A dies
    await new Promise((r) => setTimeout(r, 300));
    a.child.kill('SIGKILL');
    await a.exited;
    // eslint-disable-next-line no-restricted-syntax -- load on B before and after A dies
    await new Promise((r) => setTimeout(r, 700));
    // B still writes (its own connections to the database, Redis and the bucket are untouched).
    const lit = await over(() => b.port).inject({
      method: 'POST',
      url: `/core/candles/${memorialId}`,
      payload: { name: 'Opa', kind: 'candle' },
    });
    stop = true;
    await load;
    expect(lit.statusCode).toBe(201);
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((s) => s === 200)).toBe(true);
  });
});
