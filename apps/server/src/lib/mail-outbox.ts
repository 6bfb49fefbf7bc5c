import type { FastifyBaseLogger } from 'fastify';
import type { Db, Listener, Queryable } from '../db/client.ts';
import { createJobQueue, defaultBackoffMs, type JobContext, type JobQueueOptions } from './jobs/job-queue.ts';
import type { Mail, Mailer } from './mailer.ts';

/** Committed mail wakes the workers of every process at once; polling is only the fallback. */
export const MAIL_CHANNEL = 'mail_outbox';
const MAIL_JOB = 'mail.send';
const RELISTEN_MS = 1000;
/**
 * New mail and due retries wake the worker themselves, so its polling is only a fallback (mail from a
 * process that died before its retry, a lost LISTEN connection) and can be rare.
 */
const FALLBACK_POLL_MS = 10_000;

export interface MailOutboxOptions {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Attempts before a mail is given up (kept in `mail_outbox` with status 'failed' and logged). */
  maxAttempts: number;
  pollIntervalMs?: number;
  backoffMs?: JobQueueOptions['backoffMs'];
  /** Mails of one recipient-limit group one address may get in 24 hours, whoever causes them. */
  perRecipientPerDay: number;
}

/**
 * Mails to an address that has not proven itself count against that address, per group, whoever causes
 * them: 'invitation' (invitations, access-code mails, partner confirmations: someone else typed the
 * address), 'account' (verification and reset mails) and 'visitor' (confirming a memory a visitor left on
 * a public page). Separate groups, so that invitations sent to someone cannot keep them from resetting
 * their password.
 */
export type RecipientLimitGroup = 'invitation' | 'account' | 'visitor';

/** Two-key advisory locks in their own key space (the migrations use one-key locks). */
const RECIPIENT_LOCK_CLASS = 5098;

export interface MailOutbox {
  /**
   * Writes the rendered mail in `q`, the transaction of the change that causes it: it is sent once that
   * transaction commits, and never when it rolls back. Never talks to the mail server.
   */
  enqueue(q: Queryable, mail: Mail): Promise<void>;
  /**
   * As `enqueue`, for a mail to one address that has not proven itself: counted against that address in
   * its group. When the address already got `perRecipientPerDay` mails of the group in the last 24 hours,
   * writes nothing and answers false; the caller decides between a 429 (its transaction rolled back) and
   * dropping the mail silently. Holds a lock on the address until `q` ends, so that parallel transactions
   * (in any process) count one after the other.
   */
  enqueueLimited(q: Queryable, mail: Mail, group: RecipientLimitGroup): Promise<boolean>;
  /** Starts delivering (listens for new mail, polls for retries). */
  start(): Promise<void>;
  /** Stops delivering; waits for a mail being handed over to the mail server. */
  stop(): Promise<void>;
  /** Resolves after the worker has next found nothing to do (tests). */
  idle(): Promise<void>;
}

/**
 * The mail outbox (docs/decisions/010-mail-outbox.md): a row in `mail_outbox` plus a `mail.send` job in
 * the same transaction; the job queue delivers it with retries and backoff. A mail is marked sent right
 * after the mail server accepted it; a crash between the two sends it again once the job is taken up again.
 */
export function createMailOutbox(opts: MailOutboxOptions): MailOutbox {
  const { db, mailer, log, maxAttempts, perRecipientPerDay } = opts;
  const backoffMs = opts.backoffMs ?? defaultBackoffMs;
  const retryTimers = new Set<NodeJS.Timeout>();
  const queue = createJobQueue({
    db,
    log,
    pollIntervalMs: opts.pollIntervalMs ?? FALLBACK_POLL_MS,
    // A failed attempt wakes this worker when its retry is due.
    backoffMs: (attempt) => {
      const ms = backoffMs(attempt);
      if (running) {
        const timer = setTimeout(() => {
          retryTimers.delete(timer);
          wake();
        }, ms + 20).unref();
        retryTimers.add(timer);
      }
      return ms;
    },
  });
  let listener: Listener | undefined;
  let relisten: NodeJS.Timeout | undefined;
  let running = false;
  /**
   * Wakes the worker for a pass that sees what was just committed: a sleeping worker at once; a busy one
   * may have looked before the commit, so it makes one more pass after the current one.
   */
  const wake = () => void queue.idle().then(() => queue.notify());

  queue.register(MAIL_JOB, 'mail', (payload, job) => deliver(String(payload.mailId), job));

  async function deliver(mailId: string, job: JobContext) {
    const { rows } = await db.query<{
      to_addresses: string[];
      reply_to: string | null;
      subject: string;
      text_body: string;
      html_body: string | null;
      status: string;
      headers: Record<string, string> | null;
    }>(
      'SELECT to_addresses, reply_to, subject, text_body, html_body, status, headers FROM mail_outbox WHERE id = $1',
      [mailId],
    );
    const row = rows[0];
    // Already sent (the job ran again after a crash before it was marked done) or given up by hand.
    if (!row || row.status !== 'queued') return;
    try {
      await mailer.send({
        to: row.to_addresses,
        subject: row.subject,
        text: row.text_body,
        ...(row.html_body !== null ? { html: row.html_body } : {}),
        ...(row.reply_to !== null ? { replyTo: row.reply_to } : {}),
        ...(row.headers !== null ? { headers: row.headers } : {}),
      });
    } catch (err) {
      const final = job.attempt >= job.maxAttempts;
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      await db.query(
        `UPDATE mail_outbox SET attempts = $2, last_error = $3,
                status = CASE WHEN $4::boolean THEN 'failed' ELSE status END,
                failed_at = CASE WHEN $4::boolean THEN now() ELSE failed_at END
          WHERE id = $1`,
        [mailId, job.attempt, message, final],
      );
      if (final) {
        log.error(
          { mailId, subject: row.subject, attempts: job.attempt, err: message },
          'mail not delivered after the last attempt; kept in mail_outbox',
        );
      }
      throw err;
    }
    await db.query(
      `UPDATE mail_outbox SET status = 'sent', sent_at = now(), attempts = $2, last_error = NULL,
              text_body = NULL, html_body = NULL
        WHERE id = $1`,
      [mailId, job.attempt],
    );
  }

  async function listen() {
    relisten = undefined;
    try {
      const l = await db.listen(MAIL_CHANNEL, wake, (err) => {
        log.warn({ err }, 'mail outbox: lost the notifications; polling until listening again');
        listener = undefined;
        if (running) relisten = setTimeout(() => void listen(), RELISTEN_MS);
      });
      if (!running) return void (await l.close());
      listener = l;
      // Mail committed while nobody listened.
      wake();
    } catch (err) {
      log.warn({ err }, 'mail outbox: could not listen for new mail; polling');
      if (running) relisten = setTimeout(() => void listen(), RELISTEN_MS);
    }
  }

  async function insert(q: Queryable, mail: Mail, recipientLimitKey: string | null) {
    const to = Array.isArray(mail.to) ? mail.to : [mail.to];
    const { rows } = await q.query<{ id: string }>(
      `INSERT INTO mail_outbox (to_addresses, reply_to, subject, text_body, html_body, recipient_limit_key, headers)
       VALUES ($1::text[], $2, $3, $4, $5, $6, $7::jsonb) RETURNING id::text AS id`,
      [
        to,
        mail.replyTo ?? null,
        mail.subject,
        mail.text,
        mail.html ?? null,
        recipientLimitKey,
        mail.headers ? JSON.stringify(mail.headers) : null,
      ],
    );
    await queue.enqueue(q, MAIL_JOB, { mailId: rows[0]!.id }, { maxAttempts });
    // Delivered to the listeners (this process's too) only if and when the transaction commits.
    await q.query('SELECT pg_notify($1, $2)', [MAIL_CHANNEL, rows[0]!.id]);
  }

  return {
    enqueue: (q, mail) => insert(q, mail, null),
    async enqueueLimited(q, mail, group) {
      const to = Array.isArray(mail.to) ? mail.to : [mail.to];
      if (to.length !== 1) throw new Error('a mail counted against its recipient has exactly one');
      const key = `${group}:${to[0]!.trim().toLowerCase()}`;
      await q.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [RECIPIENT_LOCK_CLASS, key]);
      const { rows } = await q.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM mail_outbox
          WHERE recipient_limit_key = $1 AND created_at > now() - interval '24 hours'`,
        [key],
      );
      if (rows[0]!.n >= perRecipientPerDay) return false;
      await insert(q, mail, key);
      return true;
    },
    async start() {
      if (running) return;
      running = true;
      await listen();
      queue.start();
    },
    async stop() {
      running = false;
      clearTimeout(relisten);
      for (const timer of retryTimers) clearTimeout(timer);
      retryTimers.clear();
      await listener?.close();
      listener = undefined;
      await queue.stop();
    },
    idle: () => queue.idle(),
  };
}

/** What account deletion forgets of an address in the outbox (the rows that count against its limit stay a day). */
export const outboxForgetting = {
  /** The rows of the last day that count against these per-address limit keys. */
  async countingAgainstLimit(q: Queryable, limitKeys: string[]): Promise<string[]> {
    const { rows } = await q.query<{ id: string }>(
      `SELECT id::text AS id FROM mail_outbox
        WHERE recipient_limit_key = ANY($1::text[]) AND created_at > now() - interval '24 hours'`,
      [limitKeys],
    );
    return rows.map((r) => r.id);
  },

  /** Mail to or from the address goes, but for the rows kept. */
  async deleteMailOf(q: Queryable, email: string, kept: string[]) {
    await q.query(
      `DELETE FROM mail_outbox
        WHERE (EXISTS (SELECT 1 FROM unnest(to_addresses) a WHERE lower(a) = $1) OR lower(reply_to) = $1)
          AND NOT (id::text = ANY($2::text[]))`,
      [email, kept],
    );
  },

  async deleteMails(q: Queryable, ids: string[]) {
    await q.query('DELETE FROM mail_outbox WHERE id::text = ANY($1::text[])', [ids]);
  },
};
