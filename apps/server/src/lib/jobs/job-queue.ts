import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../../db/client.ts';

/**
 * A job queue in PostgreSQL (table `jobs`, migration 030), polled in-process. A worker claims one
 * due job at a time with FOR UPDATE SKIP LOCKED, so several processes share the table safely.
 * Failures are retried with exponential backoff; a job whose worker died is taken up again after
 * `staleAfterMs`. Not media-specific: mails and scheduled messages can register their own kinds.
 */
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
}

export const defaultBackoffMs = (attempt: number) =>
  Math.min(2000 * 4 ** (attempt - 1), 3_600_000) * (0.8 + Math.random() * 0.4);

export function createJobQueue(opts: JobQueueOptions) {
  const { db, log } = opts;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const backoffMs = opts.backoffMs ?? defaultBackoffMs;
  const staleAfterMs = opts.staleAfterMs ?? 10 * 60_000;
  const keepDoneMs = opts.keepDoneMs ?? 7 * 24 * 3_600_000;
  const workerId = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  const handlers = new Map<string, JobHandler>();
  /** Upkeep that every process runs now and then (no rows: deleting what expired is safe to repeat). */
  const periodic = new Map<string, { everyMs: number; lastRun: number; run: () => Promise<void> }>();

  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let lastHousekeeping = 0;
  const idleWaiters: (() => void)[] = [];

  async function claim() {
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
      [workerId, [...handlers.keys()]],
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

  async function runPeriodic() {
    for (const [name, task] of periodic) {
      if (!running || Date.now() - task.lastRun < task.everyMs) continue;
      task.lastRun = Date.now();
      await task.run().catch((err: unknown) => log.warn({ err, task: name }, 'periodic task failed'));
    }
  }

  /**
   * Runs due jobs until none is left; returns how many ran. The worker's loop stops between two jobs when
   * the queue is stopped (a safe point: the rest stay queued for the next start).
   */
  async function drain(untilStopped = false): Promise<number> {
    let ran = 0;
    for (;;) {
      if (untilStopped && !running) return ran;
      const job = await claim();
      if (!job) return ran;
      ran++;
      const handler = handlers.get(job.kind)!;
      try {
        await handler(job.payload, { id: job.id, attempt: job.attempts, maxAttempts: job.max_attempts });
        await db.query(
          `UPDATE jobs SET status = 'done', finished_at = now(), locked_at = NULL, last_error = NULL WHERE id = $1`,
          [job.id],
        );
      } catch (err) {
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
      }
    }
  }

  async function run() {
    while (running) {
      try {
        await housekeeping();
        await runPeriodic();
        await drain(true);
      } catch (err) {
        if (!running) break;
        log.error({ err }, 'job queue poll failed');
      }
      for (const resolve of idleWaiters.splice(0)) resolve();
      if (!running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }

  return {
    workerId,
    register(kind: string, handler: JobHandler) {
      handlers.set(kind, handler);
    },
    /** Runs `run` in the worker's loop about every `everyMs` (the first time soon after start). */
    every(name: string, everyMs: number, run: () => Promise<void>) {
      periodic.set(name, { everyMs, lastRun: 0, run });
    },
    /** Runs one periodic task now (tests and measurements). */
    async runNow(name: string) {
      await periodic.get(name)?.run();
    },
    /** Adds a job; pass the transaction that makes the change the job belongs to. */
    async enqueue(
      q: Queryable,
      kind: string,
      payload: Record<string, unknown>,
      o: { delayMs?: number; maxAttempts?: number } = {},
    ) {
      await q.query(
        `INSERT INTO jobs (kind, payload, run_at, max_attempts) VALUES ($1, $2, now() + make_interval(secs => $3), $4)`,
        [kind, JSON.stringify(payload), (o.delayMs ?? 0) / 1000, o.maxAttempts ?? 5],
      );
    },
    /** Wakes an idle worker now (after enqueueing, once the transaction committed). */
    notify() {
      wake?.();
    },
    start() {
      if (running || (handlers.size === 0 && periodic.size === 0)) return;
      running = true;
      loop = run();
    },
    /**
     * Stops polling and waits for the job in progress; jobs not started stay queued. With `waitMs`, a job
     * still running after that long is handed back to the queue (queued again at once, for this process
     * after a restart or for another one) and the process may exit under it: handlers are retried anyway,
     * so they already tolerate running again.
     */
    async stop(o: { waitMs?: number } = {}) {
      running = false;
      wake?.();
      const current = loop;
      if (!current) return;
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        current.then(() => true),
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
      loop = undefined;
    },
    /** Resolves after the worker has next found nothing to do (tests and measurements). */
    idle(): Promise<void> {
      if (!running) return Promise.resolve();
      const p = new Promise<void>((resolve) => idleWaiters.push(resolve));
      wake?.();
      return p;
    },
    drain: () => drain(),
  };
}
export type JobQueue = ReturnType<typeof createJobQueue>;
