import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { createJobQueue } from '../src/lib/jobs/job-queue.ts';
import { localMediaStorage } from '../src/lib/media/storage.ts';
import { registerMediaJobs } from '../src/modules/media/jobs.ts';
import { createTestDb } from './helpers.ts';
import { eventually } from './fixtures/content.ts';

/** The PostgreSQL job queue on its own (no app, so no other worker takes these jobs). */
let db: Db;
const log = Fastify({ logger: false }).log;

beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => db?.close());

const job = async (id: string) =>
  (
    await db.query<{ status: string; attempts: number; last_error: string | null; finished_at: Date | null }>(
      'SELECT status, attempts, last_error, finished_at FROM jobs WHERE id = $1',
      [id],
    )
  ).rows[0]!;
const lastJobId = async (kind: string) =>
  (
    await db.query<{ id: string }>(
      'SELECT id::text AS id FROM jobs WHERE kind = $1 ORDER BY id DESC LIMIT 1',
      [kind],
    )
  ).rows[0]!.id;

describe('job queue', () => {
  it('retries a failing job with backoff until it succeeds', async () => {
    const queue = createJobQueue({ db, log, pollIntervalMs: 20, backoffMs: (n) => 100 * n });
    const runs: number[] = [];
    queue.register('test.flaky', 'system', async (payload, ctx) => {
      runs.push(Date.now());
      expect(payload).toEqual({ n: 1 });
      if (ctx.attempt < 3) throw new Error(`poging ${ctx.attempt} mislukt`);
    });
    await queue.enqueue(db, 'test.flaky', { n: 1 });
    const id = await lastJobId('test.flaky');
    queue.start();
    try {
      await eventually(async () => (await job(id)).status === 'done');
    } finally {
      await queue.stop();
    }
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 3, last_error: null });
    expect(runs).toHaveLength(3);
    expect(runs[1]! - runs[0]!).toBeGreaterThanOrEqual(90);
    expect(runs[2]! - runs[1]!).toBeGreaterThanOrEqual(190);
  });

  it('gives up after the last attempt and keeps the error', async () => {
    const queue = createJobQueue({ db, log, backoffMs: () => 60_000 });
    queue.register('test.broken', 'system', async () => {
      throw new Error('kapot');
    });
    await queue.enqueue(db, 'test.broken', {}, { maxAttempts: 2 });
    const id = await lastJobId('test.broken');
    expect(await queue.drain()).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'queued', attempts: 1, last_error: 'kapot' });
    expect(await queue.drain()).toBe(0); // not due before its backoff has passed
    await db.query(`UPDATE jobs SET run_at = now() WHERE id = $1`, [id]);
    expect(await queue.drain()).toBe(1);
    const done = await job(id);
    expect(done).toMatchObject({ status: 'failed', attempts: 2, last_error: 'kapot' });
    expect(done.finished_at).not.toBeNull();
    expect(await queue.drain()).toBe(0);
  });

  it('runs each job once with two workers polling the same table', async () => {
    const seen = new Map<number, number>();
    const handler = async (payload: Record<string, unknown>) => {
      const n = payload.n as number;
      seen.set(n, (seen.get(n) ?? 0) + 1);
      // eslint-disable-next-line no-restricted-syntax -- a job that takes a moment, so the two workers overlap
      await new Promise((r) => setTimeout(r, 5));
    };
    const a = createJobQueue({ db, log, pollIntervalMs: 10 });
    const b = createJobQueue({ db, log, pollIntervalMs: 10 });
    a.register('test.once', 'system', handler);
    b.register('test.once', 'system', handler);
    for (let n = 0; n < 30; n++) await a.enqueue(db, 'test.once', { n });
    a.start();
    b.start();
    try {
      await eventually(async () => {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM jobs WHERE kind = 'test.once' AND status <> 'done'`,
        );
        return rows[0]!.n === 0;
      });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect([...seen.keys()].sort((x, y) => x - y)).toEqual([...Array(30).keys()]);
    expect([...seen.values()].every((v) => v === 1)).toBe(true);
    const workers = await db.query(`SELECT DISTINCT locked_by FROM jobs WHERE kind = 'test.once'`);
    expect(workers.rows.length).toBeGreaterThanOrEqual(1);
  });

  it('takes up a job whose worker died', async () => {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO jobs (kind, payload, status, attempts, locked_at, locked_by)
       VALUES ('test.orphan', '{}', 'running', 1, now() - interval '1 hour', 'dead-worker') RETURNING id::text AS id`,
    );
    const queue = createJobQueue({ db, log, pollIntervalMs: 20, staleAfterMs: 60_000 });
    let ran = false;
    queue.register('test.orphan', 'system', async () => {
      ran = true;
    });
    queue.start();
    try {
      await eventually(async () => (await job(rows[0]!.id)).status === 'done');
    } finally {
      await queue.stop();
    }
    expect(ran).toBe(true);
    expect((await job(rows[0]!.id)).attempts).toBe(2);
  });

  it('marks media failed (usable with what exists) when its variants cannot be made, and deletes the source', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-jobs-'));
    try {
      const storage = localMediaStorage(dir);
      const queue = createJobQueue({ db, log });
      registerMediaJobs(queue, { db, storage, log });
      const user = `u-${crypto.randomUUID()}`;
      await db.query(`INSERT INTO users (id, name) VALUES ($1, 'Test')`, [user]);
      const memorial = await db.query<{ id: string }>(
        `INSERT INTO memorials (first_name, last_name, access_code_hash, access_code_encrypted, created_by)
         VALUES ('A', 'B', md5(random()::text), 'v1.x', $1) RETURNING id`,
        [user],
      );
      const mediaId = crypto.randomUUID();
      // A source that is not an image at all: every attempt fails.
      await storage.put(`${mediaId}/source`, Buffer.from('geen afbeelding'));
      await db.query(
        `INSERT INTO media (id, memorial_id, kind, content_type, size_bytes, sha256, width, height, position, source_key)
         VALUES ($1, $2, 'image', 'image/jpeg', 15, 'x', 4000, 3000, 0, $3)`,
        [mediaId, memorial.rows[0]!.id, `${mediaId}/source`],
      );
      await queue.enqueue(db, 'media.variants', { mediaId }, { maxAttempts: 1 });
      await queue.drain();
      const media = await db.query('SELECT status, source_key FROM media WHERE id = $1', [mediaId]);
      expect(media.rows[0]).toEqual({ status: 'failed', source_key: null });
      expect(await storage.exists(`${mediaId}/source`)).toBe(false);
      expect((await job(await lastJobId('media.variants'))).status).toBe('failed');

      // Deleting the row queues removal of its folder.
      await storage.put(`${mediaId}/w320.webp`, Buffer.from('x'));
      await db.query('DELETE FROM media WHERE id = $1', [mediaId]);
      expect(await queue.drain()).toBe(1);
      expect(await fs.readdir(dir)).toEqual([]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
