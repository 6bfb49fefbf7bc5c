import type { Queryable } from '../../db/client.ts';
import type { JobContext, JobLane, JobOwner, JobQueue } from './job-queue.ts';
import { isUuid } from '../ids.ts';

/**
 * A kind of background job with a typed payload: its name, its lane, how often it is tried, and how a
 * stored payload is read back (a payload that does not read is skipped, never run with wrong values).
 * Declared once, next to the code that queues it; the module binds its handler with `handle` and registers
 * all its jobs and periodic tasks in one `registerJobs` call.
 */
export interface JobKind<P> {
  readonly kind: string;
  readonly lane: JobLane;
  readonly maxAttempts: number;
  parse(payload: Record<string, unknown>): P | null;
}

/** What a handler knows about the attempt it runs in; `last` is the final one (mark the work failed). */
export interface JobRun extends JobContext {
  last: boolean;
}

export type JobBinding =
  | { type: 'job'; job: JobKind<unknown>; run: (payload: unknown, job: JobRun) => Promise<void> }
  | { type: 'every'; name: string; lane: JobLane; everyMs: number; run: () => Promise<void> };

const DAY_MS = 24 * 3_600_000;

export function jobKind<P>(o: {
  kind: string;
  lane: JobLane;
  maxAttempts?: number;
  parse: (payload: Record<string, unknown>) => P | null;
}): JobKind<P> {
  return { kind: o.kind, lane: o.lane, maxAttempts: o.maxAttempts ?? 5, parse: o.parse };
}

/** A job whose payload is one id (`{ [field]: uuid }`), the common case. */
export function idJob<F extends string>(
  kind: string,
  lane: JobLane,
  field: F,
  maxAttempts?: number,
): JobKind<Record<F, string>> {
  return jobKind({
    kind,
    lane,
    maxAttempts,
    parse: (p) => {
      const v = p[field];
      return typeof v === 'string' && isUuid(v) ? ({ [field]: v } as Record<F, string>) : null;
    },
  });
}

/** Binds a handler to a job kind. */
export function handle<P>(job: JobKind<P>, run: (payload: P, job: JobRun) => Promise<void>): JobBinding {
  return { type: 'job', job, run: run as (payload: unknown, job: JobRun) => Promise<void> };
}

/** Upkeep run in the lane's first worker about every `everyMs` (see `JobQueue.every`). */
export function every(name: string, lane: JobLane, everyMs: number, run: () => Promise<void>): JobBinding {
  return { type: 'every', name, lane, everyMs, run };
}

/**
 * A job that runs once a day as one queued row (so it survives restarts and runs once across processes):
 * after each run, failed or not, the next is queued a day later. `scheduleNext` queues one if none is (call
 * it when the app is ready).
 */
export function dailyJob(
  deps: { db: Queryable; queue: Pick<JobQueue, 'enqueue'> },
  kind: string,
  lane: JobLane,
  run: () => Promise<unknown>,
) {
  const job = jobKind<Record<string, never>>({ kind, lane, maxAttempts: 3, parse: () => ({}) });
  const scheduleNext = async () => {
    const { rows } = await deps.db.query(`SELECT 1 FROM jobs WHERE kind = $1 AND status = 'queued' LIMIT 1`, [
      kind,
    ]);
    if (rows.length === 0) await addJob(deps.queue, deps.db, job, {}, { delayMs: DAY_MS });
  };
  const binding = handle(job, async () => {
    try {
      await run();
    } finally {
      await scheduleNext();
    }
  });
  return { binding, scheduleNext };
}

/** Registers a module's jobs and periodic tasks with the queue: the one place a module names its jobs. */
export function registerJobs(queue: JobQueue, bindings: JobBinding[]) {
  for (const b of bindings) {
    if (b.type === 'every') {
      queue.every(b.name, b.lane, b.everyMs, b.run);
      continue;
    }
    const { job, run } = b;
    queue.register(job.kind, job.lane, async (raw, ctx) => {
      const payload = job.parse(raw);
      if (payload !== null) await run(payload, { ...ctx, last: ctx.attempt >= ctx.maxAttempts });
    });
  }
}

/** Queues a job of `job`'s kind in `q` (the transaction of the change it belongs to). */
export function addJob<P extends Record<string, unknown>>(
  queue: Pick<JobQueue, 'enqueue'>,
  q: Queryable,
  job: JobKind<P>,
  payload: P,
  o: { delayMs?: number; maxAttempts?: number; owner?: JobOwner } = {},
) {
  return queue.enqueue(q, job.kind, payload, { maxAttempts: job.maxAttempts, ...o });
}
