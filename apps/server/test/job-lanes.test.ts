/**
 * The job queue's lanes, the limits on heavy work and the rights check when a job runs
 * (docs/reliability.md, "Background jobs"): a long video render never holds up a photo, an export or a
 * mail; renders, exports and books are limited per memorial and per account, also when the requests
 * arrive together; an export or a video is not made for someone who lost their role in between.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue } from '../src/lib/jobs/job-queue.ts';
import { PRESENTATION_RENDER_JOB } from '../src/modules/presentation/service.ts';
import { createTestApp, createTestDb, type TestContext } from './helpers.ts';
import { eventually, form, jpeg } from './fixtures/content.ts';
import { addMember, auth, createMemorial, createUsers, type User } from './memorial-fixtures.ts';

const log = Fastify({ logger: false }).log;

/** A promise the test resolves itself: a job that holds its lane until then. */
function gate() {
  let open!: () => void;
  const closed = new Promise<void>((resolve) => (open = resolve));
  return { closed, open };
}

describe('lanes', () => {
  it('runs photos, files, mail and their periodic tasks while a render holds its lane', async () => {
    const db = await createTestDb();
    const queue = createJobQueue({ db, log, pollIntervalMs: 20 });
    const render = gate();
    let rendering = false;
    const ran: string[] = [];
    try {
      queue.register('test.render', 'render', async () => {
        rendering = true;
        await render.closed;
        ran.push('render');
      });
      queue.register('test.photo', 'media', async () => void ran.push('photo'));
      queue.register('test.export', 'files', async () => void ran.push('export'));
      queue.register('test.message', 'mail', async () => void ran.push('message'));
      queue.every('test.due-messages', 'mail', 60_000, async () => void ran.push('due-messages'));
      // The render is queued first, as when a render was asked for just before the others.
      await queue.enqueue(db, 'test.render', {});
      queue.start();
      await expect.poll(() => rendering, { interval: 10, timeout: 10_000 }).toBe(true);
      for (const kind of ['test.photo', 'test.export', 'test.message']) await queue.enqueue(db, kind, {});
      queue.notify();
      await Promise.all([queue.idle('media'), queue.idle('files'), queue.idle('mail')]);
      expect([...ran].sort()).toEqual(['due-messages', 'export', 'message', 'photo']);
      render.open();
      await queue.idle();
      expect(ran).toContain('render');
    } finally {
      render.open();
      await queue.stop();
      await db.close();
    }
  });

  it('renews the lock of a long job, so it is not taken up again as lost', async () => {
    const db = await createTestDb();
    const queue = createJobQueue({ db, log, pollIntervalMs: 20, staleAfterMs: 300 });
    const other = createJobQueue({ db, log, pollIntervalMs: 20, staleAfterMs: 300 });
    const hold = gate();
    let runs = 0;
    const handler = async () => {
      runs++;
      await hold.closed;
    };
    try {
      queue.register('test.long', 'render', handler);
      other.register('test.long', 'render', handler);
      await queue.enqueue(db, 'test.long', {});
      queue.start();
      await expect.poll(() => runs, { interval: 10, timeout: 10_000 }).toBe(1);
      // Well past the stale limit, another process's upkeep finds the job still locked by its worker.
      const lockedAt = async () =>
        (await db.query<{ t: Date }>(`SELECT locked_at AS t FROM jobs WHERE kind = 'test.long'`)).rows[0]!.t;
      const first = await lockedAt();
      await expect
        .poll(async () => (await lockedAt()).getTime(), { interval: 50, timeout: 10_000 })
        .toBeGreaterThan(first.getTime() + 300);
      other.start();
      await other.idle();
      expect(runs).toBe(1);
    } finally {
      hold.open();
      await queue.stop();
      await other.stop();
      await db.close();
    }
  });
});

describe('in the app', () => {
  let t: TestContext;
  let owner: User;
  let memorialId: string;
  const render = gate();

  beforeAll(async () => {
    t = await createTestApp();
    ({ owner } = await createUsers(t));
    memorialId = (await createMemorial(t, owner, { status: 'active' })).id;
  }, 60_000);
  afterAll(async () => {
    render.open();
    await t?.close();
  });

  it('makes an export and a photo’s variants while a video render is running', async () => {
    let rendering = false;
    // The render's own handler, held: what a 30-minute render does to its lane.
    t.app.deps.queue.register(PRESENTATION_RENDER_JOB, 'render', async () => {
      rendering = true;
      await render.closed;
    });
    await t.app.deps.queue.enqueue(t.db, PRESENTATION_RENDER_JOB, { videoId: crypto.randomUUID() });
    t.app.deps.queue.notify();
    await expect.poll(() => rendering, { interval: 20, timeout: 10_000 }).toBe(true);

    const url = `/core/memorial/${memorialId}/export`;
    const asked = await t.app.inject({ method: 'POST', url, headers: auth(owner.token) });
    expect(asked.statusCode).toBe(202);
    const body = await form({ memorialId }, { data: await jpeg(1600, 1200), type: 'image/jpeg' });
    const upload = await t.app.inject({
      method: 'POST',
      url: '/core/memorial-media',
      headers: { ...auth(owner.token), ...body.headers },
      payload: body.payload,
    });
    expect(upload.statusCode).toBe(201);
    const mediaId = upload.json().id as string;

    await eventually(async () => {
      const state = await t.app.inject({ method: 'GET', url, headers: auth(owner.token) });
      return state.json().status === 'ready';
    });
    await eventually(async () => {
      const { rows } = await t.db.query<{ status: string }>('SELECT status FROM media WHERE id = $1', [
        mediaId,
      ]);
      return rows[0]?.status === 'ready';
    });
    await t.smtp.waitFor((m) => m.to.includes(owner.email) && m.subject.includes('export'), 20_000);
    // The render is still holding its own lane.
    const { rows } = await t.db.query<{ status: string }>(`SELECT status FROM jobs WHERE kind = $1`, [
      PRESENTATION_RENDER_JOB,
    ]);
    expect(rows).toEqual([{ status: 'running' }]);
    render.open();
  }, 60_000);
});

describe('limits on heavy work', () => {
  let t: TestContext;

  // No render or file workers: what is queued stays queued, so the counts are exact.
  beforeAll(async () => {
    t = await createTestApp({ JOBS_RENDER_CONCURRENCY: '0', JOBS_FILES_CONCURRENCY: '0' });
  }, 60_000);
  afterAll(async () => t?.close());

  const premium = async (id: string) =>
    t.db.query(`UPDATE memorial_plans SET plan = 'premium', paid_until = NULL WHERE memorial_id = $1`, [id]);
  const jobs = async (kind: string) =>
    (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = $1`, [kind])).rows[0]!
      .n;

  it('accepts exactly three renders of one account asked for at once, and queues nothing more', async () => {
    const { owner } = await createUsers(t);
    const pages: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { id } = await createMemorial(t, owner, { status: 'active' });
      await premium(id);
      pages.push(id);
    }
    const answers = await Promise.all(
      pages.map((id) =>
        t.app.inject({
          method: 'POST',
          url: `/core/memorial/${id}/presentation/video`,
          headers: auth(owner.token),
          payload: { resolution: '720p' },
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([202, 202, 202, 429, 429, 429]);
    for (const refused of answers.filter((a) => a.statusCode === 429))
      expect(refused.json()).toEqual({
        code: 'JOB_LIMIT_REACHED',
        message: 'Je laat al genoeg video’s maken. Probeer het opnieuw als er een klaar is.',
      });
    expect(await jobs(PRESENTATION_RENDER_JOB)).toBe(3);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM presentation_videos WHERE memorial_id = ANY($1::uuid[])',
      [pages],
    );
    expect(rows[0]!.n).toBe(3);
  }, 60_000);

  it('accepts exactly two exports of one memorial asked for at once by four owners', async () => {
    const a = await createUsers(t);
    const b = await createUsers(t);
    const { id } = await createMemorial(t, a.owner, { status: 'active' });
    const owners = [a.owner, a.otherOwner, b.owner, b.otherOwner];
    for (const o of owners.slice(1)) await addMember(t, id, o, 'owner');
    const before = await jobs('export.build');
    const answers = await Promise.all(
      owners.map((o) =>
        t.app.inject({ method: 'POST', url: `/core/memorial/${id}/export`, headers: auth(o.token) }),
      ),
    );
    expect(answers.map((x) => x.statusCode).sort()).toEqual([202, 202, 429, 429]);
    expect(answers.find((x) => x.statusCode === 429)!.json()).toEqual({
      code: 'JOB_LIMIT_REACHED',
      message:
        'Er worden al genoeg exports van deze pagina gemaakt. Probeer het opnieuw als er een klaar is.',
    });
    expect((await jobs('export.build')) - before).toBe(2);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM exports WHERE memorial_id = $1',
      [id],
    );
    expect(rows[0]!.n).toBe(2);
  }, 60_000);
});

describe('rights checked again when the job runs', () => {
  let t: TestContext;

  // The jobs are run by the test (drain) once the owner has been removed.
  beforeAll(async () => {
    t = await createTestApp({ JOBS_RENDER_CONCURRENCY: '0', JOBS_FILES_CONCURRENCY: '0' });
  }, 60_000);
  afterAll(async () => t?.close());

  it('makes, stores and mails no export, video or book for an owner removed before it ran', async () => {
    const u = await createUsers(t);
    const { id } = await createMemorial(t, u.owner, { status: 'active' });
    await t.db.query(`UPDATE memorial_plans SET plan = 'premium', paid_until = NULL WHERE memorial_id = $1`, [
      id,
    ]);
    const memberId = await addMember(t, id, u.otherOwner, 'owner');
    const removed = u.otherOwner;
    const exportUrl = `/core/memorial/${id}/export`;
    const videoUrl = `/core/memorial/${id}/presentation/video`;
    expect(
      (await t.app.inject({ method: 'POST', url: exportUrl, headers: auth(removed.token) })).statusCode,
    ).toBe(202);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: videoUrl,
          headers: auth(removed.token),
          payload: { resolution: '720p' },
        })
      ).statusCode,
    ).toBe(202);

    const book = await t.app.inject({
      method: 'POST',
      url: `/core/memorial/${id}/printed-book`,
      headers: auth(removed.token),
      payload: {},
    });
    expect(book.statusCode).toBe(202);

    const removal = await t.app.inject({
      method: 'DELETE',
      url: `/core/memorial/users/${memberId}`,
      headers: auth(u.owner.token),
    });
    expect(removal.statusCode).toBeLessThan(300);
    // Added after the removal: the removed owner may no longer see it.
    const secret = await t.app.inject({
      method: 'POST',
      url: '/core/memories/concept',
      headers: auth(u.owner.token),
      payload: { memorialId: id, yearLabel: '2001', text: 'Alleen voor de familie', membersOnly: true },
    });
    expect(secret.statusCode).toBe(201);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/core/memories/publish',
          headers: auth(u.owner.token),
          payload: { id: secret.json().id },
        })
      ).statusCode,
    ).toBe(200);

    await t.app.deps.queue.drain();
    await t.app.deps.outbox.idle();

    const { rows: exportsRows } = await t.db.query<{
      id: string;
      status: string;
      storage_key: string | null;
      error: string | null;
    }>('SELECT id::text, status, storage_key, error FROM exports WHERE memorial_id = $1', [id]);
    expect(exportsRows).toEqual([
      {
        id: expect.any(String),
        status: 'failed',
        storage_key: null,
        error: 'De export is niet gemaakt: je bent geen eigenaar van deze gedenkpagina meer.',
      },
    ]);
    const { rows: videos } = await t.db.query<{ id: string; status: string; storage_key: string | null }>(
      'SELECT id::text, status, storage_key FROM presentation_videos WHERE memorial_id = $1',
      [id],
    );
    expect(videos).toEqual([{ id: expect.any(String), status: 'failed', storage_key: null }]);
    const { rows: books } = await t.db.query<{
      id: string;
      status: string;
      storage_key: string | null;
      error: string | null;
    }>('SELECT id::text, status, storage_key, error FROM printed_books WHERE memorial_id = $1', [id]);
    expect(books).toEqual([
      {
        id: expect.any(String),
        status: 'failed',
        storage_key: null,
        error: 'Het boek is niet gemaakt: wie het aanvroeg, beheert deze gedenkpagina niet meer.',
      },
    ]);
    // Nothing stored, nothing mailed.
    for (const stored of [exportsRows[0]!.id, videos[0]!.id, books[0]!.id])
      await expect(fs.stat(path.join(t.dataDir, 'media', stored))).rejects.toThrow();
    const tmp = await fs.readdir(path.join(t.dataDir, 'tmp')).catch(() => []);
    expect(tmp.filter((f) => /^(export|presentation|book)-/.test(f))).toEqual([]);
    expect(
      t.smtp.messages.filter((m) => m.to.includes(removed.email) && m.subject.includes('staat klaar')),
    ).toEqual([]);
    // The page's remaining owner sees why there is no video.
    const state = await t.app.inject({ method: 'GET', url: videoUrl, headers: auth(u.owner.token) });
    expect(state.json()).toMatchObject({
      status: 'failed',
      error:
        'De video is niet gemaakt: wie hem aanvroeg, beheert deze gedenkpagina niet meer. Vraag hem opnieuw aan.',
    });
  }, 60_000);
});
