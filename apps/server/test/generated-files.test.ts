/**
 * The generated-file pipeline (lib/generated-files.ts) on its own, with a kind made here (a card, as the
 * announcement cards will be) on the real database, storage, job queue, outbox and SMTP sink: request → job
 * → stored file → signed link → mail → expiry and clean-up, and the requester's rights checked when the job
 * runs and again before the file is marked ready.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  fileSlug,
  generatedFiles,
  type FileJobRow,
  type GeneratedFiles,
  type ReadyFileRow,
} from '../src/lib/generated-files.ts';
import type { App } from '../src/app.ts';
import { AppError } from '../src/lib/errors.ts';
import { dailyJob, handle, idJob, registerJobs } from '../src/lib/jobs/typed-jobs.ts';
import { signedFileRoute } from '../src/lib/signed-file-route.ts';
import { stillHasRole } from '../src/shared/heavy-jobs.ts';
import { createTestApp, forgeSignature, type TestContext } from './helpers.ts';
import { addMember, auth, createMemorial, createUsers, type Users } from './memorial-fixtures.ts';

let t: TestContext;
let users: Users;
let memorialId: string;
let cards: GeneratedFiles;
/** What `make` does besides writing the card, per test. */
let during: (row: { id: string }) => Promise<void> = async () => undefined;
let failWith: Error | null = null;
const made: string[] = [];
const TTL_MS = 3 * 24 * 3600_000;

type CardRow = {
  id: string;
  memorial_id: string;
  requested_by: string;
  status: string;
  progress: number;
  storage_key: string | null;
  size_bytes: string | null;
  expires_at: Date | null;
  error: string | null;
};
type CardFile = ReadyFileRow & { requestedBy: string; title: string };
const card = async (id: string) =>
  (await t.db.query<CardRow>('SELECT * FROM test_cards WHERE id = $1', [id])).rows[0];

function cardKind(deps: App['deps']) {
  const { db } = deps;
  return generatedFiles<FileJobRow, { title: string }, CardFile>(deps, {
    name: 'card',
    job: { kind: 'test.card', lane: 'files', maxAttempts: 2, idField: 'cardId' },
    expireJob: 'test.card-expire',
    storageName: 'card.txt',
    ttlMs: TTL_MS,
    link: { secretName: 'test-card-url-key', scope: 'test-card', path: (id) => `/core/test-card/${id}` },
    linkMessages: {
      invalid: { code: 'CARD_LINK_INVALID', message: 'Deze link klopt niet.' },
      expired: { code: 'CARD_LINK_EXPIRED', message: 'Deze link is verlopen.' },
      gone: 'Deze kaart bestaat niet meer.',
    },
    stillAllowed: (q, row) => stillHasRole(q, row.requestedBy!, row.memorialId!, 'editor'),
    refusedMessage: 'Niet gemaakt: je beheert deze pagina niet meer.',
    async make(row, { output, progress }) {
      await progress(0.5);
      made.push(row.id);
      await during(row);
      if (failWith) throw failWith;
      await fs.writeFile(output, `Kaart voor ${row.memorialId}`);
      return { title: 'Kaart voor Jan' };
    },
    mail: (to, m, link) => ({
      to: to.email,
      subject: `${m.title} staat klaar`,
      text: `Hallo ${to.name},\n\n${link.url}\n\nTot ${link.expiresAt!.toISOString()}`,
    }),
    onFailure: (err) =>
      err instanceof AppError ? { retry: false, message: err.message } : { retry: true, message: null },
    async mayOpen(caller, file) {
      if (caller.kind === 'user' && caller.userId !== file.requestedBy)
        throw new AppError(403, 'CARD_NOT_YOURS', 'Deze kaart is voor iemand anders.');
    },
    fileName: (file) => `kaart-${fileSlug(file.title, 'kaart')}.txt`,
    store: {
      async claim(id) {
        const { rows } = await db.query<CardRow>(
          `UPDATE test_cards SET status = 'making' WHERE id = $1 AND status IN ('queued', 'making') RETURNING *`,
          [id],
        );
        const r = rows[0];
        return r && { id: r.id, memorialId: r.memorial_id, requestedBy: r.requested_by };
      },
      progress: (id, fraction) =>
        db.query('UPDATE test_cards SET progress = $2 WHERE id = $1', [id, fraction]),
      refuse: (q, id, message) =>
        q.query(`UPDATE test_cards SET status = 'failed', error = $2 WHERE id = $1`, [id, message]),
      async ready(tx, id, file) {
        const { rows } = await tx.query<{ email: string | null; name: string | null }>(
          `UPDATE test_cards c SET status = 'ready', storage_key = $2, size_bytes = $3, expires_at = $4
             FROM users u WHERE c.id = $1 AND c.status = 'making' AND u.id = c.requested_by
           RETURNING u.email, u.name`,
          [id, file.key, file.size, file.expiresAt],
        );
        return rows[0];
      },
      failed: (id, o) =>
        db.query(`UPDATE test_cards SET status = $2, error = $3 WHERE id = $1`, [
          id,
          o.final ? 'failed' : 'queued',
          o.message,
        ]),
      async expiresAt(id) {
        return (await card(id))?.expires_at;
      },
      deleteExpired: (id) => db.query('DELETE FROM test_cards WHERE id = $1 AND expires_at <= now()', [id]),
      async file(id) {
        const r = await card(id);
        return (
          r && {
            storageKey: r.storage_key,
            sizeBytes: Number(r.size_bytes),
            ready: r.status === 'ready',
            expiresAt: r.expires_at,
            requestedBy: r.requested_by,
            title: 'Kaart voor Jan',
          }
        );
      },
    },
  });
}

/** The request step: the row and its job in one transaction. */
async function request(userId: string) {
  const id = await t.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      'INSERT INTO test_cards (memorial_id, requested_by) VALUES ($1, $2) RETURNING id::text',
      [memorialId, userId],
    );
    await cards.enqueue(tx, rows[0]!.id, { memorialId, userId });
    return rows[0]!.id;
  });
  cards.notify();
  return id;
}

const pathOf = (url: string) => url.replace(t.config.API_URL, '');
const fileOf = (id: string) => t.app.deps.storage.exists(`${id}/card.txt`);
const mailsTo = (email: string) => t.smtp.messages.filter((m) => m.to.includes(email));

beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    cards = cardKind((app as App).deps);
    signedFileRoute(app, {
      pattern: '/core/test-card/:cardId',
      idParam: 'cardId',
      params: z.object({ cardId: z.string() }),
      querystring: z.object({ exp: z.string().optional(), sig: z.string().optional() }),
      tags: ['test'],
      summary: 'Een testkaart',
      description: 'Een testkaart',
      contentType: 'text/plain',
      contentDescription: 'De kaart',
      open: (o) => cards.open(o),
    });
  });
  registerJobs(t.app.deps.queue, cards.jobs());
  await t.db.exec(`
    CREATE TABLE test_cards (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
      requested_by text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'queued',
      progress real NOT NULL DEFAULT 0,
      storage_key text, size_bytes bigint, expires_at timestamptz, error text);
    CREATE TRIGGER test_cards_delete_files AFTER DELETE ON test_cards
      FOR EACH ROW EXECUTE FUNCTION media_enqueue_file_deletion();`);
  users = await createUsers(t);
  memorialId = (await createMemorial(t, users.owner, { status: 'active' })).id;
  await addMember(t, memorialId, users.editor, 'editor');
}, 60_000);
afterAll(() => t?.close());

describe('a generated file', () => {
  it('is made by the job, stored, mailed as a signed link, opened by it, and removed when it expires', async () => {
    const id = await request(users.owner.userId);
    await t.app.deps.queue.idle();
    const row = (await card(id))!;
    expect(row).toMatchObject({ status: 'ready', progress: 0.5, storage_key: `${id}/card.txt` });
    expect(await fileOf(id)).toBe(true);
    // Expires after the kind's time to live; its clean-up job is queued for that moment.
    expect(Math.abs(row.expires_at!.getTime() - Date.now() - TTL_MS)).toBeLessThan(60_000);
    const { rows: expiry } = await t.db.query<{ run_at: Date }>(
      `SELECT run_at FROM jobs WHERE kind = 'test.card-expire' AND payload->>'cardId' = $1 AND status = 'queued'`,
      [id],
    );
    expect(Math.abs(expiry[0]!.run_at.getTime() - row.expires_at!.getTime())).toBeLessThan(60_000);

    // The mail through the SMTP sink carries the link, which opens without signing in.
    const mail = await t.smtp.waitFor((m) => m.to.includes(users.owner.email) && m.subject.includes('Kaart'));
    expect(mail.subject).toBe('Kaart voor Jan staat klaar');
    const url = /https?:\/\/\S+\/core\/test-card\/\S+/.exec(mail.text)![0];
    const res = await t.app.inject({ method: 'GET', url: pathOf(url) });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`Kaart voor ${memorialId}`);
    expect(res.headers['content-disposition']).toBe('attachment; filename="kaart-kaart-voor-jan.txt"');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    // Someone else signed in, or a changed signature: refused.
    const other = await t.app.inject({ method: 'GET', url: pathOf(url), headers: auth(users.editor.token) });
    expect(other.statusCode).toBe(403);
    expect(other.json().code).toBe('CARD_NOT_YOURS');
    const forged = await t.app.inject({ method: 'GET', url: pathOf(forgeSignature(url)) });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().code).toBe('CARD_LINK_INVALID');

    // Once its time is up, the link says so, and the clean-up job removes the row and its file.
    await t.db.query(`UPDATE test_cards SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    const late = await t.app.inject({ method: 'GET', url: pathOf(url) });
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({ code: 'CARD_LINK_EXPIRED', message: 'Deze link is verlopen.' });
    await t.db.query(
      `UPDATE jobs SET run_at = now() WHERE kind = 'test.card-expire' AND payload->>'cardId' = $1`,
      [id],
    );
    t.app.deps.queue.notify();
    await t.app.deps.queue.idle();
    expect(await card(id)).toBeUndefined();
    expect(await fileOf(id)).toBe(false);
    const gone = await t.app.inject({ method: 'GET', url: pathOf(url) });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('Deze kaart bestaat niet meer.');
  });

  it('an early clean-up waits again for the expiry', async () => {
    const id = await request(users.owner.userId);
    await t.app.deps.queue.idle();
    await cards.expire(id);
    expect((await card(id))?.status).toBe('ready');
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE kind = 'test.card-expire' AND payload->>'cardId' = $1 AND status = 'queued'`,
      [id],
    );
    expect(rows[0]!.n).toBe(2);
  });

  it('is not made, stored or mailed for a member removed before the job runs', async () => {
    const before = mailsTo(users.editor.email).length;
    const ran = made.length;
    const id = await t.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        'INSERT INTO test_cards (memorial_id, requested_by) VALUES ($1, $2) RETURNING id::text',
        [memorialId, users.editor.userId],
      );
      await cards.enqueue(tx, rows[0]!.id, { memorialId, userId: users.editor.userId });
      // Removed in the same moment, before any worker sees the job.
      await tx.query('DELETE FROM memorial_members WHERE memorial_id = $1 AND user_id = $2', [
        memorialId,
        users.editor.userId,
      ]);
      return rows[0]!.id;
    });
    cards.notify();
    await t.app.deps.queue.idle();
    expect(made.length).toBe(ran); // nothing was read or made
    expect(await card(id)).toMatchObject({
      status: 'failed',
      error: 'Niet gemaakt: je beheert deze pagina niet meer.',
      storage_key: null,
    });
    expect(await fileOf(id)).toBe(false);
    expect(mailsTo(users.editor.email).length).toBe(before);
    await addMember(t, memorialId, users.editor, 'editor');
  });

  it('is not mailed, and its file goes, for a member removed while it is made', async () => {
    const before = mailsTo(users.editor.email).length;
    during = async () => {
      await t.db.query('DELETE FROM memorial_members WHERE memorial_id = $1 AND user_id = $2', [
        memorialId,
        users.editor.userId,
      ]);
    };
    try {
      const id = await request(users.editor.userId);
      await t.app.deps.queue.idle();
      expect(await card(id)).toMatchObject({ status: 'failed', storage_key: null });
      expect(await fileOf(id)).toBe(false);
      expect(mailsTo(users.editor.email).length).toBe(before);
    } finally {
      during = async () => undefined;
      await addMember(t, memorialId, users.editor, 'editor');
    }
  });

  it('is retried after a failure, then failed; a failure that says so is not retried', async () => {
    failWith = new Error('disk full');
    try {
      const id = await request(users.owner.userId);
      const ran = made.length;
      await t.app.deps.queue.idle();
      // The first attempt leaves it queued for the retry (after a backoff): run that now.
      expect((await card(id))?.status).toBe('queued');
      await t.db.query(
        `UPDATE jobs SET run_at = now() WHERE kind = 'test.card' AND payload->>'cardId' = $1`,
        [id],
      );
      t.app.deps.queue.notify();
      await t.app.deps.queue.idle();
      expect(made.length).toBe(ran + 2);
      expect(await card(id)).toMatchObject({ status: 'failed', storage_key: null });

      failWith = new AppError(422, 'CARD_TOO_BIG', 'De kaart is te groot.');
      const once = await request(users.owner.userId);
      await t.app.deps.queue.idle();
      expect(await card(once)).toMatchObject({ status: 'failed', error: 'De kaart is te groot.' });
      const { rows } = await t.db.query<{ status: string; attempts: number }>(
        `SELECT status, attempts FROM jobs WHERE kind = 'test.card' AND payload->>'cardId' = $1`,
        [once],
      );
      expect(rows[0]).toEqual({ status: 'done', attempts: 1 });
    } finally {
      failWith = null;
    }
  });
});

describe('typed jobs', () => {
  it('skips a payload that does not read, and runs one that does', async () => {
    const seen: string[] = [];
    const job = idJob('test.typed', 'system', 'thingId');
    registerJobs(t.app.deps.queue, [handle(job, async (p) => void seen.push(p.thingId))]);
    const id = crypto.randomUUID();
    await t.app.deps.queue.enqueue(t.db, 'test.typed', { thingId: 'no-uuid' });
    await t.app.deps.queue.enqueue(t.db, 'test.typed', { thingId: id });
    t.app.deps.queue.notify();
    await t.app.deps.queue.idle();
    expect(seen).toEqual([id]);
  });

  it('a daily job keeps exactly one run queued, a day ahead, also after a run that failed', async () => {
    let runs = 0;
    const daily = dailyJob(t.app.deps, 'test.daily', 'system', async () => {
      runs++;
      throw new Error('mail server away');
    });
    registerJobs(t.app.deps.queue, [daily.binding]);
    const queued = async () =>
      (
        await t.db.query<{ run_at: Date }>(
          `SELECT run_at FROM jobs WHERE kind = 'test.daily' AND status = 'queued'`,
        )
      ).rows;
    await daily.scheduleNext();
    await daily.scheduleNext();
    expect(await queued()).toHaveLength(1);
    await t.db.query(`UPDATE jobs SET run_at = now() WHERE kind = 'test.daily'`);
    t.app.deps.queue.notify();
    await t.app.deps.queue.idle();
    expect(runs).toBe(1);
    // The failed run is retried later by the queue; the next day's run is queued beside it only once.
    const rows = await queued();
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.some((r) => Math.abs(r.run_at.getTime() - Date.now() - 24 * 3_600_000) < 60_000)).toBe(true);
  });

  it('are registered through registerJobs; the files still calling queue.register only go down', async () => {
    // Left to move (each a line or two); a file leaves this list when it moves, none joins it.
    const notYet = ['lib/mail-outbox.ts', 'modules/account/service.ts'];
    const src = path.join(import.meta.dirname, '../src');
    const found: string[] = [];
    for (const file of await fs.readdir(src, { recursive: true })) {
      if (!file.endsWith('.ts') || file.startsWith(path.join('lib', 'jobs'))) continue;
      if (/\bqueue\.register\(/.test(await fs.readFile(path.join(src, file), 'utf8')))
        found.push(file.split(path.sep).join('/'));
    }
    expect(found.filter((f) => !notYet.includes(f))).toEqual([]);
  });
});
