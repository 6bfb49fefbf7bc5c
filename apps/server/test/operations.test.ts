import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('static assets and the outbox (no SMTP_URL)', () => {
  let t: TestContext;
  let dist: string;
  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(
      path.join(dist, 'index.html'),
      '<!doctype html><html><body><h1>Aandenken</h1></body></html>',
    );
    await fs.writeFile(path.join(dist, 'assets', 'index-B7x9kQ2a.js'), 'console.log("aandenken")');
    await fs.writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp({ WEB_DIST_DIR: dist, SMTP_URL: '' });
  });
  afterAll(async () => {
    await t?.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('serves a hashed asset under /assets/ cached for a year, immutable; other files for an hour', async () => {
    const asset = await t.app.inject({ url: '/assets/index-B7x9kQ2a.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("aandenken")');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await t.app.inject({ url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
    expect((await t.app.inject({ url: '/' })).headers['cache-control']).toBe('no-cache');
  });

  it('writes mail to DATA_DIR/outbox when SMTP_URL is not set', async () => {
    expect(t.config.SMTP_URL).toBeUndefined();
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/contact',
      payload: {
        name: 'Piet',
        email: 'piet@example.nl',
        subject: 'general',
        message: 'Een vraag voor de outbox.',
      },
    });
    expect(res.statusCode).toBe(201);
    const outbox = path.join(t.dataDir, 'outbox');
    const files = async () => (await fs.readdir(outbox).catch(() => [])).filter((f) => f.endsWith('.eml'));
    await expect.poll(files, { timeout: 10_000 }).toHaveLength(1);
    const eml = await fs.readFile(path.join(outbox, (await files())[0]!), 'utf8');
    expect(eml).toMatch(/^To: team@aandenken\.test$/m);
    expect(eml).toMatch(/^Subject: Contactformulier: Algemene vraag$/m);
    expect(eml).toContain('Een vraag voor de outbox.');
    expect(t.smtp.messages).toHaveLength(0);
  });
});

describe('/healthz', () => {
  it('answers 503 with { code, message } when the database does not answer', async () => {
    const t = await createTestApp();
    try {
      expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
      await t.db.close();
      const res = await t.app.inject({ url: '/healthz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: 'DATABASE_UNAVAILABLE', message: 'De database antwoordt niet.' });
    } finally {
      await t.app.close();
      await t.smtp.close();
      await fs.rm(t.dataDir, { recursive: true, force: true });
    }
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** `node src/server.ts`, as npm start runs it, on a fresh data folder with embedded PGlite. */
function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['src/server.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      SEED_EXAMPLES: 'false',
      // A busy test machine must not shed the requests under test (503 OVERLOADED).
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('the server process', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
  });

  it('stops with a readable list and a non-zero exit code for an invalid environment', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-proc-'));
    dirs.push(dataDir);
    const proc = startServer({
      DATA_DIR: dataDir,
      PORT: 'achtduizend',
      PUBLIC_URL: 'geen-url',
      ADMIN_EMAILS: 'x@',
    });
    children.push(proc.child);
    const code = await proc.exited;
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    const out = proc.output();
    expect(out).toContain('Ongeldige configuratie:');
    expect(out).toMatch(/^ {2}- PORT: .+$/m);
    expect(out).toMatch(/^ {2}- PUBLIC_URL: .+$/m);
    expect(out).toMatch(/^ {2}- ADMIN_EMAILS.*: ADMIN_EMAILS bevat een ongeldig e-mailadres$/m);
    expect(out).not.toMatch(/\n\s+at /); // no stack trace
    await expect(fs.readdir(dataDir)).resolves.toEqual([]);
  });

  it('on SIGTERM answers the request in flight, then exits 0', { timeout: 120_000 }, async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-proc-'));
    dirs.push(dataDir);
    const port = await freePort();
    // Only PORT set, as a newcomer does: the public address follows it.
    const proc = startServer({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    children.push(proc.child);
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/healthz`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 90_000, interval: 250 },
      )
      .toBe(200);
    const discovery = await fetch(
      `http://127.0.0.1:${port}/realms/aandenken/.well-known/openid-configuration`,
    ).then((r) => r.json() as Promise<{ issuer: string }>);
    expect(discovery.issuer).toBe(`http://localhost:${port}/realms/aandenken`);
    expect(proc.output()).not.toContain('PUBLIC_URL');

    // A request whose body is still arriving when the signal comes.
    const body = JSON.stringify({ name: '', email: '', message: '' });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/core/contact',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        proc.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 500);
      }, 300);
    });
    const answer = await response;
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(await proc.exited).toBe(0);
    // Closed for new connections once it has stopped.
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});
