import { errorCodes, roleAtLeast, type MemorialAccessRole } from '@aandenken/contract';
import type { Queryable } from '../db/client.ts';
import type { Deps } from '../lib/deps.ts';
import { AppError } from '../lib/errors.ts';
import type { JobOwner } from '../lib/jobs/job-queue.ts';
import { memorialAccessService } from './memorial-access.ts';

/** What the person sees when a limit is reached, per limit (Dutch, "je"). */
export interface HeavyJobMessages {
  memorial: string;
  account: string;
}

/**
 * Makes room for heavy work (a video render, an export, a book) of `kind`, or refuses it: when the memorial
 * or the account already has HEAVY_JOBS_PER_MEMORIAL / HEAVY_JOBS_PER_ACCOUNT of that kind queued or
 * running, 429 JOB_LIMIT_REACHED (the caller's transaction rolls back: nothing is queued). Call it first in
 * the transaction that then enqueues with `{ owner }`: it holds locks until that transaction ends, so
 * parallel requests, in any process, take turns.
 */
export async function reserveHeavyJob(
  deps: Pick<Deps, 'queue' | 'config'>,
  tx: Queryable,
  kind: string,
  owner: JobOwner,
  messages: HeavyJobMessages,
) {
  const { queue, config } = deps;
  const active = await queue.activeFor(tx, kind, owner);
  if (owner.memorialId && active.memorial >= config.HEAVY_JOBS_PER_MEMORIAL)
    throw new AppError(429, errorCodes.jobLimitReached, messages.memorial);
  if (active.account >= config.HEAVY_JOBS_PER_ACCOUNT)
    throw new AppError(429, errorCodes.jobLimitReached, messages.account);
}

/**
 * For a job that runs later on someone's behalf: whether that person still has `min` on the memorial
 * (they may have been removed, or lost their role, since they asked).
 */
export async function stillHasRole(
  q: Queryable,
  userId: string,
  memorialId: string,
  min: MemorialAccessRole,
): Promise<boolean> {
  const access = await memorialAccessService(q).resolve(
    { kind: 'user', userId, email: null, name: null },
    memorialId,
  );
  return !!access?.role && roleAtLeast(access.role, min);
}
