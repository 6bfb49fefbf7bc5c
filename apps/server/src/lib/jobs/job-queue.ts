import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../../db/client.ts';

/**
 * A job queue in PostgreSQL (table `jobs`, migration 030), polled in-process. Every kind belongs to a
 * lane; each lane has its own workers (`concurrency`), which claim only that lane's kinds, one due job at
 * a time with FOR UPDATE SKIP LOCKED, so several processes share the table safely and a 30-minute video
 * render never holds up a photo, an export or a mail. Failures are retried with exponential backoff; a
 * running job's worker renews its lock, and a job whose worker died is taken up again after `staleAfterMs`.
 */
export type JobLane = 'media' | 'render' | 'files' | 'mail' | 'system';
/**
 * media: photo and video variants; render: presentation videos (MP4); files: exports and printed books;
 * mail: mail and scheduled messages; system: upkeep (expiry, purges, clean-ups).
 */
export const jobLanes: readonly JobLane[] = ['media', 'render', 'files', 'mail', 'system'];

export interface JobContext {
  id: string;
  attempt: number;
  maxAttempts: number;
}
export type JobHandler = (payload: Record<string, unknown>, job: JobContext) => Promise<void>;

export interface JobQueueOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** How often an idle worker looks for due jobs. */
  pollIntervalMs?: number;
  /** Retry delay after the n-th failed attempt (1-based). */
  backoffMs?: (attempt: number) => number;
  /** A running job not finished after this long is assumed lost and queued again. */
  staleAfterMs?: number;
  /** Finished jobs are kept this long (timings for measurement), then deleted. */
  keepDoneMs?: number;
  /** Workers per lane (default 1); 0 leaves the lane's jobs (and periodic tasks) to other processes. */
  concurrency?: Partial<Record<JobLane, number>>;
}

/** Whom a job of heavy work is for: counted against the memorial's and the account's limits. */
export interface JobOwner {
  memorialId: string | null;
  userId: string;
}

/** Two-key advisory locks in their own key space (the mail outbox uses 5098). */
const QUOTA_LOCK_CLASS = 5099;

export const defaultBackoffMs = (attempt: number) =>
  Math.min(2000 * 4 ** (attempt - 1), 3_600_000) * (0.8 + Math.random() * 0.4);

export function createJobQueue(opts: JobQueueOptions) {
  const { db, log } = opts;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const backoffMs = opts.backoffMs ?? defaultBackoffMs;
  const staleAfterMs = opts.staleAfterMs ?? 10 * 60_000;
  const keepDoneMs = opts.keepDoneMs ?? 7 * 24 * 3_600_000;
  const workerId = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  const handlers = new Map<string, { lane: JobLane; handler: JobHandler }>();
  /** Upkeep that every process runs now and then (no rows: deleting what expired is safe to repeat). */
  const periodic = new Map<
    string,
    { lane: JobLane; everyMs: number; lastRun: number; run: () => Promise<void> }
  >();

  /** One loop of a lane: the first of each lane also runs the lane's periodic tasks. */
  interface Worker {
    lane: JobLane;
    first: boolean;
    loop?: Promise<void>;
    wake?: () => void;
    idleWaiters: (() => void)[];
  }
  let workers: Worker[] = [];
  let running = false;
  let lastHousekeeping = 0;
  /** Jobs finished by this process's workers; `idle` compares it before and after a round. */
  let finishedCount = 0;

  const kindsOf = (lane?: JobLane) =>
    [...handlers].filter(([, h]) => !lane || h.lane === lane).map(([kind]) => kind);

  async function claim(kinds: string[]) {
    const { rows } = await db.query<{
      id: string;
      kind: string;
      payload: Record<string, unknown>;
      attempts: number;
      max_attempts: number;
    }>(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_at = now(), locked_by = $1,
              started_at = coalesce(started_at, now())
        WHERE id = (SELECT id FROM jobs
                     WHERE status = 'queued' AND run_at <= now() AND kind = ANY($2::text[])
                     ORDER BY run_at, id
                     LIMIT 1
                     FOR UPDATE SKIP LOCKED)
       RETURNING id::text AS id, kind, payload, attempts, max_attempts`,
      [workerId, kinds],
    );
    return rows[0];
  }

  async function housekeeping() {
    if (Date.now() - lastHousekeeping < 60_000) return;
    lastHousekeeping = Date.now();
    await db.query(
      `UPDATE jobs SET status = 'queued', locked_at = NULL, locked_by = NULL, run_at = now()
        WHERE status = 'running' AND locked_at < now() - make_interval(secs => $1)`,
      [staleAfterMs / 1000],
    );
    await db.query(
      `DELETE FROM jobs WHERE status IN ('done', 'failed') AND finished_at < now() - make_interval(secs => $1)`,
      [keepDoneMs / 1000],
    );
  }

  async function runPeriodic(lane: JobLane) {
    for (const [name, task] of periodic) {
      if (task.lane !== lane || !running || Date.now() - task.lastRun < task.everyMs) continue;
      task.lastRun = Date.now();
      await task.run().catch((err: unknown) => log.warn({ err, task: name }, 'periodic task failed'));
    }
  }

  /**
   * Runs due jobs of `kinds` until none is left; returns how many ran. A worker's loop stops between two
   * jobs when the queue is stopped (a safe point: the rest stay queued for the next start).
   */
  async function drain(kinds: string[], untilStopped = false): Promise<number> {
    let ran = 0;
    if (kinds.length === 0) return ran; // a lane with periodic tasks only
    for (;;) {
      if (untilStopped && !running) return ran;
      const job = await claim(kinds);
      if (!job) return ran;
      ran++;
      const { handler } = handlers.get(job.kind)!;
      // The lock is renewed while the job runs, so a long one (a video render) is not taken for lost.
      const heartbeat = setInterval(
        () =>
          void db
            .query(
              `UPDATE jobs SET locked_at = now() WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
              [job.id, workerId],
            )
            .catch(() => undefined),
        Math.max(staleAfterMs / 3, 10),
      );
      heartbeat.unref();
      try {
        await handler(job.payload, { id: job.id, attempt: job.attempts, maxAttempts: job.max_attempts });
        clearInterval(heartbeat);
        await db.query(
          `UPDATE jobs SET status = 'done', finished_at = now(), locked_at = NULL, last_error = NULL WHERE id = $1`,
          [job.id],
        );
      } catch (err) {
        clearInterval(heartbeat);
        const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
        const final = job.attempts >= job.max_attempts;
        log.warn({ jobId: job.id, kind: job.kind, attempt: job.attempts, final, err: message }, 'job failed');
        await db.query(
          final
            ? `UPDATE jobs SET status = 'failed', finished_at = now(), locked_at = NULL, last_error = $2 WHERE id = $1`
            : `UPDATE jobs SET status = 'queued', locked_at = NULL, locked_by = NULL, last_error = $2,
                      run_at = now() + make_interval(secs => $3) WHERE id = $1`,
          final ? [job.id, message] : [job.id, message, backoffMs(job.attempts) / 1000],
        );
      } finally {
        finishedCount++;
      }
    }
  }

  async function run(w: Worker) {
    while (running) {
      try {
        await housekeeping();
        if (w.first) await runPeriodic(w.lane);
        await drain(kindsOf(w.lane), true);
      } catch (err) {
        if (!running) break;
        log.error({ err, lane: w.lane }, 'job queue poll failed');
      }
      for (const resolve of w.idleWaiters.splice(0)) resolve();
      if (!running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        w.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      w.wake = undefined;
    }
    for (const resolve of w.idleWaiters.splice(0)) resolve();
  }

  /** Resolves after each of `ws` has next looked for work and found none. */
  const nextIdle = (ws: Worker[]) =>
    Promise.all(
      ws.map((w) => {
        const p = new Promise<void>((resolve) => w.idleWaiters.push(resolve));
        w.wake?.();
        return p;
      }),
    );

  return {
    workerId,
    /** Registers a kind's handler; the lane decides which workers run it. */
    register(kind: string, lane: JobLane, handler: JobHandler) {
      handlers.set(kind, { lane, handler });
    },
    /** Runs `run` in the lane's first worker about every `everyMs` (the first time soon after start). */
    every(name: string, lane: JobLane, everyMs: number, run: () => Promise<void>) {
      periodic.set(name, { lane, everyMs, lastRun: 0, run });
    },
    /** Runs one periodic task now (tests and measurements). */
    async runNow(name: string) {
      await periodic.get(name)?.run();
    },
    /**
     * Adds a job; pass the transaction that makes the change the job belongs to. `owner` marks heavy
     * work, counted by `activeFor`.
     */
    async enqueue(
      q: Queryable,
      kind: string,
      payload: Record<string, unknown>,
      o: { delayMs?: number; maxAttempts?: number; owner?: JobOwner } = {},
    ) {
      await q.query(
        `INSERT INTO jobs (kind, payload, run_at, max_attempts, memorial_id, requested_by)
         VALUES ($1, $2, now() + make_interval(secs => $3), $4, $5, $6)`,
        [
          kind,
          JSON.stringify(payload),
          (o.delayMs ?? 0) / 1000,
          o.maxAttempts ?? 5,
          o.owner?.memorialId ?? null,
          o.owner?.userId ?? null,
        ],
      );
    },
    /**
     * How many jobs of `kind` are queued or running for the memorial and for the account. Locks both for
     * this kind (the memorial first) until `q` ends, so parallel requests, in any process, count one after
     * the other: call it in the transaction that then enqueues, and compare with the limits there.
     */
    async activeFor(q: Queryable, kind: string, owner: JobOwner) {
      if (owner.memorialId)
        await q.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [
          QUOTA_LOCK_CLASS,
          `${kind}:memorial:${owner.memorialId}`,
        ]);
      await q.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [
        QUOTA_LOCK_CLASS,
        `${kind}:account:${owner.userId}`,
      ]);
      const { rows } = await q.query<{ memorial: number; account: number }>(
        `SELECT (SELECT count(*)::int FROM jobs WHERE kind = $1 AND memorial_id = $2::uuid AND status IN ('queued', 'running')) AS memorial,
                (SELECT count(*)::int FROM jobs WHERE kind = $1 AND requested_by = $3 AND status IN ('queued', 'running')) AS account`,
        [kind, owner.memorialId, owner.userId],
      );
      return rows[0]!;
    },
    /** Wakes the idle workers now (after enqueueing, once the transaction committed). */
    notify() {
      for (const w of workers) w.wake?.();
    },
    start() {
      if (running || (handlers.size === 0 && periodic.size === 0)) return;
      running = true;
      const used = new Set<JobLane>([
        ...[...handlers.values()].map((h) => h.lane),
        ...[...periodic.values()].map((p) => p.lane),
      ]);
      workers = jobLanes
        .filter((lane) => used.has(lane))
        .flatMap((lane) =>
          Array.from({ length: opts.concurrency?.[lane] ?? 1 }, (_, i) => ({
            lane,
            first: i === 0,
            idleWaiters: [],
          })),
        );
      for (const w of workers) w.loop = run(w);
    },
    /**
     * Stops polling and waits for the job in progress; jobs not started stay queued. With `waitMs`, a job
     * still running after that long is handed back to the queue (queued again at once, for this process
     * after a restart or for another one) and the process may exit under it: handlers are retried anyway,
     * so they already tolerate running again.
     */
    async stop(o: { waitMs?: number } = {}) {
      running = false;
      const stopping = workers;
      for (const w of stopping) w.wake?.();
      if (stopping.length === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        Promise.all(stopping.map((w) => w.loop)).then(() => true),
        ...(o.waitMs === undefined
          ? []
          : [new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), o.waitMs)))]),
      ]);
      clearTimeout(timer);
      if (!finished) {
        const { rowCount } = await db.query(
          `UPDATE jobs SET status = 'queued', locked_at = NULL, locked_by = NULL, run_at = now(),
                  attempts = greatest(attempts - 1, 0)
            WHERE locked_by = $1 AND status = 'running'`,
          [workerId],
        );
        log.warn(
          { released: rowCount },
          'job queue stopped with a job still running; handed back to the queue',
        );
      }
      workers = [];
    },
    /**
     * Resolves once the workers (of `lane`, or all) have looked for work and found none, with no job
     * finishing in between (a job of one lane may queue one for another) (tests and measurements).
     */
    async idle(lane?: JobLane): Promise<void> {
      for (;;) {
        const ws = workers.filter((w) => !lane || w.lane === lane);
        if (!running || ws.length === 0) return;
        const before = finishedCount;
        await nextIdle(ws);
        if (finishedCount === before || new Set(ws.map((w) => w.lane)).size === 1) return;
      }
    },
    /** Runs every due job of every registered kind here and now (tests and measurements). */
    drain: () => drain(kindsOf()),
  };
}
export type JobQueue = ReturnType<typeof createJobQueue>;
