import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../src/db/client.ts';
import { createJobQueue } from '../src/lib/jobs/job-queue.ts';
import { createTestDb } from './helpers.ts';

/**
 * SIGTERM: requests accepted before it complete, new ones are refused cleanly, background jobs
 * stop at a safe point and are taken up after a restart, and the process exits within 10 s.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = Number(process.env.SIGTERM_TEST_PORT ?? 8198);
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

function startServer(dataDir: string) {
  const child = spawn(process.execPath, ['src/server.ts'], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      SEED_EXAMPLES: 'false',
      DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${PORT}`,
      ADMIN_EMAILS: 'team@aandenken.test',
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', // a busy test machine must not shed the requests under test
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

const healthy = () =>
  expect
    .poll(
      () =>
        fetch(`http://127.0.0.1:${PORT}/healthz`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 90_000, interval: 250 },
    )
    .toBe(200);

interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A contact message whose body arrives slowly: the first bytes now, the rest when `finish` is called. */
function slowContact(agent: http.Agent, n: number) {
  const body = JSON.stringify({
    name: `Afzender ${n}`,
    email: `afzender${n}@example.nl`,
    subject: 'general',
    message: `Bericht ${n} tijdens het stoppen`,
  });
  let finish!: () => void;
  const answer = new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: PORT,
        agent,
        method: 'POST',
        path: '/core/contact',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-forwarded-for': `10.0.0.${n}`,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 5));
    finish = () => req.end(body.slice(5));
  });
  return { answer, finish: () => finish() };
}

function get(agent: http.Agent, url: string) {
  return new Promise<Answer>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: PORT, path: url, agent }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      })
      .on('error', reject);
  });
}

describe('SIGTERM', () => {
  it(
    'finishes the requests in flight, refuses new ones, exits within 10 s and starts again with everything',
    { timeout: 240_000 },
    async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-sigterm-'));
      dirs.push(dataDir);
      const first = startServer(dataDir);
      await healthy();

      const slowAgent = new http.Agent({ keepAlive: false });
      const keptAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
      // A connection kept open by an earlier request: its next request comes after the signal.
      expect((await get(keptAlive, '/healthz')).status).toBe(200);
      const slow = [1, 2, 3].map((n) => slowContact(slowAgent, n));
      // eslint-disable-next-line no-restricted-syntax -- the server shows no sign of having accepted them
      await new Promise((r) => setTimeout(r, 300)); // the requests have been accepted

      const signalledAt = Date.now();
      first.child.kill('SIGTERM');
      // eslint-disable-next-line no-restricted-syntax -- the signal's handling is what is timed
      await new Promise((r) => setTimeout(r, 200));

      // New requests: on a new connection refused, on the kept-alive one (if still open) a Dutch 503.
      const fresh = await get(new http.Agent({ keepAlive: false }), '/healthz').catch(
        (err: NodeJS.ErrnoException) => err.code,
      );
      expect(fresh).toBe('ECONNREFUSED');
      const reused = await get(keptAlive, '/healthz').catch(
        (err: NodeJS.ErrnoException) => err.code ?? 'ERR',
      );
      console.info(
        'kept-alive connection after SIGTERM:',
        typeof reused === 'string' ? reused : reused.status,
      );
      if (typeof reused === 'string') expect(['ECONNRESET', 'ECONNREFUSED', 'EPIPE']).toContain(reused);
      else {
        expect(reused.status).toBe(503);
        expect(reused.headers.connection).toBe('close');
        expect(JSON.parse(reused.body)).toEqual({
          code: 'SHUTTING_DOWN',
          message: expect.stringContaining('opnieuw'),
        });
      }

      // The requests accepted before the signal complete.
      for (const s of slow) s.finish();
      const answers = await Promise.all(slow.map((s) => s.answer));
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
      const ids = answers.map((a) => (JSON.parse(a.body) as { id: string }).id);

      expect(await first.exited).toBe(0);
      expect(Date.now() - signalledAt).toBeLessThan(10_000);
      keptAlive.destroy();

      // After a restart on the same data folder: every acknowledged message is there and its mail was sent
      // (the mail jobs were either done before the signal or taken up after the restart).
      const second = startServer(dataDir);
      await healthy();
      // eslint-disable-next-line no-restricted-syntax -- the embedded database is the running server's alone until it stops
      await new Promise((r) => setTimeout(r, 1500));
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      const db = await createDb({ pgliteDir: path.join(dataDir, 'pg') });
      try {
        const { rows } = await db.query<{ id: string }>(`SELECT id FROM contact_messages ORDER BY id`);
        expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
        const jobs = await db.query<{ status: string; n: number }>(
          `SELECT status, count(*)::int AS n FROM jobs WHERE kind = 'mail.send' GROUP BY status`,
        );
        expect(jobs.rows).toEqual([{ status: 'done', n: 3 }]);
      } finally {
        await db.close();
      }
    },
  );
});

describe('the job queue on stop', () => {
  it('stops between jobs, leaves the rest queued, and a new worker takes them up', async () => {
    const db = await createTestDb();
    const log = { warn: () => {}, error: () => {}, info: () => {} } as never;
    try {
      const ran: number[] = [];
      const handler = async (payload: Record<string, unknown>) => {
        // eslint-disable-next-line no-restricted-syntax -- a job that takes a while is the subject
        await new Promise((r) => setTimeout(r, 150));
        ran.push(Number(payload.n));
      };
      const queue = createJobQueue({ db, log, pollIntervalMs: 50 });
      queue.register('test.slow', 'system', handler);
      for (let n = 1; n <= 5; n++) await queue.enqueue(db, 'test.slow', { n });
      queue.start();
      await expect.poll(() => ran.length, { interval: 10 }).toBeGreaterThanOrEqual(1);
      await queue.stop();
      const done = ran.length;
      expect(done).toBeLessThan(5);
      const states = await db.query<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM jobs WHERE kind = 'test.slow' GROUP BY status ORDER BY status`,
      );
      expect(states.rows).toEqual([
        { status: 'done', n: done },
        { status: 'queued', n: 5 - done },
      ]);

      // "After the restart": another worker runs what was left.
      const again = createJobQueue({ db, log, pollIntervalMs: 50 });
      again.register('test.slow', 'system', handler);
      again.start();
      await again.idle();
      await again.stop();
      expect([...ran].sort()).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await db.close();
    }
  });

  it('hands a job that does not finish in time back to the queue', async () => {
    const db = await createTestDb();
    const log = { warn: () => {}, error: () => {}, info: () => {} } as never;
    try {
      const queue = createJobQueue({ db, log, pollIntervalMs: 50 });
      let started = false;
      queue.register('test.stuck', 'system', async () => {
        started = true;
        // eslint-disable-next-line no-restricted-syntax -- a job that hangs is the subject
        await new Promise((r) => setTimeout(r, 5000));
      });
      await queue.enqueue(db, 'test.stuck', {});
      queue.start();
      await expect.poll(() => started, { interval: 10 }).toBe(true);
      const t0 = Date.now();
      await queue.stop({ waitMs: 200 });
      expect(Date.now() - t0).toBeLessThan(2000);
      const { rows } = await db.query<{ status: string; attempts: number; locked_by: string | null }>(
        `SELECT status, attempts, locked_by FROM jobs WHERE kind = 'test.stuck'`,
      );
      expect(rows).toEqual([{ status: 'queued', attempts: 0, locked_by: null }]);
    } finally {
      await db.close();
    }
  });
});
