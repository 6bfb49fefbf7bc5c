import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Queryable } from '../db/client.ts';
import type { Caller } from './auth.ts';
import type { Deps } from './deps.ts';
import { AppError, notFound } from './errors.ts';
import type { JobLane, JobOwner } from './jobs/job-queue.ts';
import { addJob, handle, idJob, type JobBinding } from './jobs/typed-jobs.ts';
import type { Mail } from './mailer.ts';
import { streamStored } from './media/storage.ts';
import { signedLinks } from './signed-links.ts';

/**
 * One way to make a file in the background for someone (docs/decisions/022-generated-files.md):
 * request → job → stored file → signed link → mail → expiry and clean-up. A kind (an export, the printed
 * book, the presentation video, …) gives its table's few statements (`FileStore`), how to make the file
 * (`make`) and its mail; the pipeline keeps the order of the steps, the temporary file, the requester's
 * rights checked when the job starts and again when the file is marked ready, the file removed when the
 * row went meanwhile, the expiry job, and the signed link and its checks.
 */

/** The row a job works on: whose it is and for which memorial. */
export interface FileJobRow {
  id: string;
  memorialId: string | null;
  requestedBy: string | null;
}

export interface FileRecipient {
  email: string | null;
  name: string | null;
}

/** A stored, ready file behind a link. */
export interface ReadyFileRow {
  storageKey: string | null;
  sizeBytes: number;
  ready: boolean;
  /** null: the file lives until it is replaced (no expiry). */
  expiresAt: Date | null;
}

/** The statements of a kind's table; each keeps the kind's own statuses and columns. */
export interface FileStore<R extends FileJobRow, M, F extends ReadyFileRow> {
  /** Marks the row as being made; undefined when there is nothing (left) to make. */
  claim(id: string): Promise<R | undefined>;
  /** The share of the work done (0–1). */
  progress?(id: string, fraction: number): Promise<unknown>;
  /** The requester may no longer have it: failed with `message`, nothing made. */
  refuse(q: Queryable, id: string, message: string): Promise<unknown>;
  /**
   * Marks it ready with its stored file, in `tx`; returns whom to mail, undefined when the row was
   * replaced or deleted meanwhile.
   */
  ready(
    tx: Queryable,
    id: string,
    file: { key: string; size: number; expiresAt: Date | null },
    made: M,
  ): Promise<FileRecipient | undefined>;
  /** After a failed attempt: `final` marks it failed (with `message` when given), else it waits for the retry. */
  failed(id: string, o: { final: boolean; message: string | null }): Promise<unknown>;
  /** When its link (and file) expires; undefined when the row is gone. */
  expiresAt(id: string): Promise<Date | null | undefined>;
  /** Deletes the row once expired (the row's delete trigger removes the file). */
  deleteExpired(id: string): Promise<unknown>;
  /** The ready file behind a signed link, with what names it. */
  file(id: string): Promise<F | undefined>;
}

/** The codes and Dutch messages of a kind's signed link. */
export interface FileLinkMessages {
  invalid: { code: string; message: string };
  expired: { code: string; message: string };
  /** The file (or its row) is gone. */
  gone: string;
}

export interface GeneratedFileKind<R extends FileJobRow, M, F extends ReadyFileRow> {
  /** Names temporary files and logs: 'export', 'book', 'presentation'. */
  name: string;
  /** The making job: its kind (also counted by the heavy-job quotas), lane, attempts and payload field. */
  job: { kind: string; lane: JobLane; maxAttempts: number; idField: string };
  /** The clean-up job when the file expires; none when the file lives until it is replaced. */
  expireJob?: string;
  /** `<id>/<storageName>` in media storage. */
  storageName: string;
  /** How long the mailed link and the file last from when it is stored; none: no expiry. */
  ttlMs?: number;
  /** The signed link: its key in server_secrets, its scope, and the URL path before `?`. */
  link: { secretName: string; scope: string; path: (id: string) => string };
  linkMessages: FileLinkMessages;
  store: FileStore<R, M, F>;
  /** Whether the requester still has the rights the file needs (checked before and after making it). */
  stillAllowed(q: Queryable, row: R): Promise<boolean>;
  /** Stored in the row when they no longer have. */
  refusedMessage: string;
  /**
   * Makes the file at `output` (in a working directory of its own that is removed afterwards);
   * returns what the store and the mail need.
   */
  make(
    row: R,
    ctx: { output: string; workDir: string; progress: (fraction: number) => Promise<unknown> },
  ): Promise<M>;
  /** The mail to the requester, written in the transaction that marks it ready. */
  mail(
    to: FileRecipient & { email: string },
    made: M,
    link: { url: string | null; expiresAt: Date | null },
  ): Mail;
  /** How a failure ends: not retried (`retry: false`) and with a message for the row. Default: retried. */
  onFailure?(err: unknown): { retry: boolean; message: string | null };
  /** Who may open the file behind a valid link (the link opens without signing in); throws when not. */
  mayOpen(caller: Caller, file: F): Promise<void>;
  /** The downloaded file's name. */
  fileName(file: F): string;
}

/** A file name's part from a name: ASCII letters, digits and dashes, at most 60 characters. */
export const fileSlug = (s: string, fallback: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .toLowerCase()
    .slice(0, 60) || fallback;

const uuidLike = /^[0-9a-f-]{36}$/i;

export function generatedFiles<R extends FileJobRow, M, F extends ReadyFileRow>(
  deps: Pick<Deps, 'db' | 'config' | 'storage' | 'outbox' | 'queue'> & {
    log?: { warn: (o: object, msg: string) => void };
  },
  kind: GeneratedFileKind<R, M, F>,
) {
  const { db, config, storage, outbox, queue } = deps;
  const { store } = kind;
  const signer = signedLinks(db, kind.link.secretName, kind.link.scope);
  const makeJob = idJob(kind.job.kind, kind.job.lane, kind.job.idField, kind.job.maxAttempts);
  const expireJob = kind.expireJob ? idJob(kind.expireJob, 'system', kind.job.idField, 10) : null;
  const tmpDir = path.join(config.DATA_DIR, 'tmp');

  /** The signed link to the file until `expiresAt`; `extra` is added to the query (`download=1`). */
  async function linkTo(id: string, expiresAt: Date | number, extra = '') {
    return `${config.API_URL}${kind.link.path(id)}?${await signer.sign(id, expiresAt)}${extra}`;
  }

  /** The job: the rights, the file, storage, and in one transaction the rights again, ready, expiry, mail. */
  async function run(id: string, attempt: { last: boolean }) {
    const row = await store.claim(id);
    if (!row) return;
    // Made on the requester's behalf: only while they still may (nothing is read, stored or mailed).
    if (!(await kind.stillAllowed(db, row))) {
      await store.refuse(db, id, kind.refusedMessage);
      return;
    }
    const workDir = path.join(tmpDir, `${kind.name}-${id}-${crypto.randomUUID()}`);
    const output = path.join(workDir, kind.storageName);
    try {
      await fs.mkdir(workDir, { recursive: true });
      const made = await kind.make(row, {
        output,
        workDir,
        progress: (fraction) => store.progress?.(id, fraction) ?? Promise.resolve(),
      });
      const { size } = await fs.stat(output);
      const key = `${id}/${kind.storageName}`;
      await storage.putFile(key, output);
      const expiresAt = kind.ttlMs === undefined ? null : new Date(Date.now() + kind.ttlMs);
      // Signed before the transaction: the key is read with a query of its own.
      const url = expiresAt ? await linkTo(id, expiresAt) : null;
      const done = await db.transaction(async (tx) => {
        // Their rights went while it was made: the file goes and nothing is mailed.
        if (!(await kind.stillAllowed(tx, row))) {
          await store.refuse(tx, id, kind.refusedMessage);
          return false;
        }
        const to = await store.ready(tx, id, { key, size, expiresAt }, made);
        if (!to) return false;
        if (expireJob && expiresAt)
          await addJob(
            queue,
            tx,
            expireJob,
            { [kind.job.idField]: id },
            {
              delayMs: expiresAt.getTime() - Date.now(),
            },
          );
        if (to.email)
          await outbox.enqueue(tx, kind.mail({ ...to, email: to.email }, made, { url, expiresAt }));
        return true;
      });
      // Refused, replaced or deleted while it was made: its file goes too.
      if (!done) await storage.deletePrefix(id);
    } catch (err) {
      const outcome = kind.onFailure?.(err) ?? { retry: true, message: null };
      await store.failed(id, { final: attempt.last || !outcome.retry, message: outcome.message });
      deps.log?.warn({ id, kind: kind.job.kind, err: (err as Error).message }, 'generated file failed');
      if (outcome.retry) throw err;
    } finally {
      await fs.rm(workDir, { recursive: true, force: true });
    }
  }

  /** The clean-up job: an expired file goes with its row; one that runs early waits again. */
  async function expire(id: string) {
    const expiresAt = await store.expiresAt(id);
    if (!expiresAt) return; // gone already (replaced, or its memorial or requester deleted)
    const wait = expiresAt.getTime() - Date.now();
    if (wait > 0) {
      await addJob(queue, db, expireJob!, { [kind.job.idField]: id }, { delayMs: wait });
      return;
    }
    await store.deleteExpired(id);
  }

  return {
    /** The making job's kind (the heavy-job quotas count it). */
    jobKind: kind.job.kind,
    /** The jobs to register with the module's others. */
    jobs(): JobBinding[] {
      const field = kind.job.idField;
      return [
        handle(makeJob, (p, job) => run(p[field]!, job)),
        ...(expireJob ? [handle(expireJob, (p) => expire(p[field]!))] : []),
      ];
    },
    /** Queues the making of `id` in the request's transaction (`owner` counts it against the limits). */
    enqueue: (tx: Queryable, id: string, owner: JobOwner) =>
      addJob(queue, tx, makeJob, { [kind.job.idField]: id }, { owner }),
    /** Wakes the workers once the request's transaction committed. */
    notify: () => queue.notify(),
    linkTo,
    run,
    expire,
    /**
     * The file behind a signed link: the signature, then the row (ready, not expired), then who may open
     * it. The link is the key (it opens from a mail, without sign-in).
     */
    async open(o: {
      id: string;
      exp?: string;
      sig?: string;
      caller: () => Promise<Caller>;
    }): Promise<{ filename: string; size: number; body: Readable; file: F }> {
      if (!uuidLike.test(o.id)) throw notFound();
      const id = o.id.toLowerCase();
      const m = kind.linkMessages;
      const check = await signer.check(id, o.exp, o.sig);
      if (check === 'invalid') throw new AppError(403, m.invalid.code, m.invalid.message);
      if (check === 'expired') throw new AppError(403, m.expired.code, m.expired.message);
      const file = await store.file(id);
      if (!file || !file.ready || !file.storageKey) throw notFound(m.gone);
      if (kind.ttlMs !== undefined && (!file.expiresAt || file.expiresAt.getTime() <= Date.now()))
        throw new AppError(403, m.expired.code, m.expired.message);
      await kind.mayOpen(await o.caller(), file);
      const body = await streamStored(storage, file.storageKey, () => notFound(m.gone));
      return { filename: kind.fileName(file), size: file.sizeBytes, body, file };
    },
  };
}
export type GeneratedFiles = ReturnType<typeof generatedFiles>;
