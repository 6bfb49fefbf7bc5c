import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailOutbox } from '../src/lib/mail-outbox.ts';
import { createMailer } from '../src/lib/mailer.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { auth, createMemorial, createUsers, type Users } from './memorial-fixtures.ts';

let t: TestContext;
let u: Users;
beforeAll(async () => {
  t = await createTestApp({ APP_URL: 'https://app.aandenken.test' });
  u = await createUsers(t);
});
afterAll(async () => t?.close());

let n = 0;
const freshEmail = () => `outbox-${Date.now().toString(36)}-${++n}@example.nl`;

const mailRows = async (to: string) =>
  (
    await t.db.query<{ id: string; status: string; attempts: number; last_error: string | null }>(
      `SELECT id::text AS id, status, attempts, last_error FROM mail_outbox WHERE $1 = ANY(to_addresses)`,
      [to],
    )
  ).rows;

/** A second worker on the same database, as another process would run it. */
function otherWorker(smtpUrl: string) {
  const mailer = createMailer({
    smtpUrl,
    from: t.config.MAIL_FROM,
    outboxDir: path.join(t.dataDir, 'outbox'),
    log: t.app.log,
  });
  const outbox = createMailOutbox({
    db: t.db,
    mailer,
    log: t.app.log,
    maxAttempts: 5,
    perRecipientPerDay: 10,
  });
  return {
    outbox,
    async close() {
      await outbox.stop();
      mailer.close();
    },
  };
}

describe('mail through the outbox', () => {
  it('with the mail server down an invitation succeeds at once; when it is back the mail arrives, once', async () => {
    const m = await createMemorial(t, u.owner, { firstName: 'Grietje', lastName: 'Mulder' });
    const email = freshEmail();
    await t.smtp.stop();
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: `/core/guest-invite/${m.id}`,
        headers: auth(u.owner.token),
        payload: { email, role: 'contributor' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ email, status: 'pending', mailSent: true, sendCount: 1 });
      // The request left the mail queued; the worker's first attempt is refused.
      await expect
        .poll(async () => (await mailRows(email))[0], { timeout: 10_000 })
        .toMatchObject({ status: 'queued', attempts: 1, last_error: expect.any(String) });
    } finally {
      await t.smtp.restart();
    }
    const mail = await t.smtp.waitFor((x) => x.to.includes(email), 15_000);
    expect(mail.subject).toContain('Grietje Mulder');
    await expect
      .poll(async () => (await mailRows(email))[0], { timeout: 5000 })
      .toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    // Nothing is left that could send it again.
    const { rows: open } = await t.db.query(
      `SELECT id FROM jobs WHERE kind = 'mail.send' AND status IN ('queued', 'running')`,
    );
    expect(open).toEqual([]);
    expect(t.smtp.messages.filter((x) => x.to.includes(email))).toHaveLength(1);
    // A sent mail keeps no body: its links and codes are secrets.
    const { rows } = await t.db.query('SELECT text_body, html_body, sent_at FROM mail_outbox WHERE id = $1', [
      (await mailRows(email))[0]!.id,
    ]);
    expect(rows[0]).toMatchObject({ text_body: null, html_body: null, sent_at: expect.anything() });
  });

  it('answers without waiting for a mail server that accepts the connection and never speaks', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const t3 = await createTestApp({
      SMTP_URL: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`,
    });
    try {
      // Waiting for the greeting would take 30 s (the mailer's timeout), past this test's limit.
      const res = await t3.app.inject({
        method: 'POST',
        url: '/core/contact',
        payload: { name: 'Kees', email: 'kees@example.nl', subject: 'general', message: 'Geen haast.' },
      });
      expect(res.statusCode).toBe(201);
      await expect.poll(() => sockets.size).toBeGreaterThan(0);
      const { rows } = await t3.db.query('SELECT status, attempts FROM mail_outbox');
      expect(rows).toEqual([{ status: 'queued', attempts: 0 }]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await t3.close();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('never sends a mail enqueued in a transaction that rolls back', async () => {
    const worker = otherWorker(t.smtp.url);
    await worker.outbox.start();
    try {
      const rolledBack = freshEmail();
      const committed = freshEmail();
      await expect(
        t.db.transaction(async (tx) => {
          await worker.outbox.enqueue(tx, { to: rolledBack, subject: 'Teruggedraaid', text: 'Nooit.' });
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      await t.db.transaction(async (tx) => {
        await worker.outbox.enqueue(tx, { to: committed, subject: 'Vastgelegd', text: 'Wel.' });
      });
      await t.smtp.waitFor((x) => x.to.includes(committed));
      await worker.outbox.idle();
      expect(await mailRows(rolledBack)).toEqual([]);
      expect(t.smtp.messages.filter((x) => x.to.includes(rolledBack))).toEqual([]);
    } finally {
      await worker.close();
    }
  });

  it('keeps a mail that failed every attempt, marked failed with the error and its body', async () => {
    const t2 = await createTestApp({ MAIL_MAX_ATTEMPTS: '2' });
    try {
      await t2.smtp.stop();
      const res = await t2.app.inject({
        method: 'POST',
        url: '/core/contact',
        payload: { name: 'Kees', email: 'kees@example.nl', subject: 'general', message: 'Komt niet aan.' },
      });
      expect(res.statusCode).toBe(201);
      const row = async () =>
        (
          await t2.db.query<{ status: string; attempts: number; text_body: string | null }>(
            `SELECT status, attempts, text_body, last_error, failed_at FROM mail_outbox`,
          )
        ).rows;
      // Retried once after the default backoff (about 2 s), then given up.
      await expect.poll(row, { timeout: 15_000 }).toEqual([
        expect.objectContaining({
          status: 'failed',
          attempts: 2,
          text_body: expect.stringContaining('Komt niet aan.'),
          last_error: expect.any(String),
          failed_at: expect.anything(),
        }),
      ]);
      const { rows: jobs } = await t2.db.query(`SELECT status FROM jobs WHERE kind = 'mail.send'`);
      expect(jobs).toEqual([{ status: 'failed' }]);
    } finally {
      await t2.close();
    }
  });
});
