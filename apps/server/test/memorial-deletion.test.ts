/**
 * An owner deletes a memorial (docs/privacy.md): gone at once for everyone, the owners mailed
 * with the restore link and the date, restorable by an owner for 30 days, then removed with its media by
 * the scheduled job; what remains is that it happened (who, when), not what it held.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';
import {
  addMember,
  auth,
  createMemorial,
  createUsers,
  createWorld,
  guestTokenFor,
  type Users,
  type World,
} from './memorial-fixtures.ts';
import { candle, galleryPhoto, memory } from './fixtures/content-matrix.ts';

let t: TestContext;
let users: Users;
let w: World;
let photoId: string;

const del = (token: string | null, confirmation = 'VERWIJDEREN', id = w.memorialId) =>
  t.app.inject({
    method: 'POST',
    url: `/core/memorial/${id}/delete`,
    headers: auth(token),
    payload: { confirmation },
  });
const restore = (token: string | null, id = w.memorialId) =>
  t.app.inject({ method: 'POST', url: `/core/memorial/${id}/restore`, headers: auth(token) });
const read = (token: string | null) =>
  t.app.inject({ method: 'GET', url: `/core/memorial/${w.memorialId}`, headers: auth(token) });
const deletedList = async (token: string) => {
  const res = await t.app.inject({ method: 'GET', url: '/core/memorial/deleted', headers: auth(token) });
  expect(res.statusCode).toBe(200);
  return (res.json() as { items: { id: string; removeAfter: string }[] }).items;
};
const runPurgeNow = async () => {
  await t.db.query(
    `UPDATE jobs SET run_at = now() WHERE kind = 'memorial.purge-deleted' AND status = 'queued'`,
  );
  await t.app.deps.queue.idle();
  await t.app.deps.queue.idle();
};

beforeAll(async () => {
  t = await createTestApp();
  users = await createUsers(t);
  const other = await createMemorial(t, users.otherOwner, { status: 'active' });
  w = await createWorld(
    t,
    users,
    { memorialId: other.id, guestToken: await guestTokenFor(t, other.id) },
    { visibility: 'public' },
  );
  // A second owner, who is mailed too and may restore.
  await addMember(t, w.memorialId, users.otherOwner, 'owner');
  photoId = await galleryPhoto(t, w);
  await memory(t, w);
  await candle(t, w);
  await t.app.deps.queue.idle();
}, 60_000);
afterAll(() => t?.close());

describe('deleting a memorial', () => {
  it('needs the typed confirmation, and only an owner may', async () => {
    const wrong = await del(users.owner.token, 'ja');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toContain('VERWIJDEREN');
    expect((await del(users.editor.token)).statusCode).toBe(403);
    expect((await del(w.tokens.guestThis)).statusCode).toBe(403);
    expect((await del(users.stranger.token)).statusCode).toBe(403); // a visitor of the public page
    expect((await del(null)).statusCode).toBe(401);
    expect((await read(null)).statusCode).toBe(200); // still there
  });

  it('is gone at once for visitors, guests and members; the owners are mailed with the link and the date', async () => {
    const res = await del(users.owner.token);
    expect(res.statusCode).toBe(200);
    const removeAfter = new Date(res.json().removeAfter);
    expect(removeAfter.getTime() - Date.now()).toBeGreaterThan(29.9 * 24 * 3600_000);

    // A guest token for it stops working (the page is no longer active).
    expect((await read(w.tokens.guestThis)).statusCode).toBe(401);
    for (const token of [null, users.stranger.token, users.editor.token, users.owner.token]) {
      const r = await read(token);
      expect(r.statusCode).toBe(404);
      expect(r.json().code).toBe('MEMORIAL_NOT_FOUND');
    }
    // Not in anyone's lists, and its access code opens nothing.
    const mine = await t.app.inject({
      method: 'GET',
      url: '/core/memorial/query/partof',
      headers: auth(users.editor.token),
    });
    expect(JSON.stringify(mine.json())).not.toContain(w.memorialId);
    const pub = await t.app.inject({ method: 'GET', url: '/core/memorial/query' });
    expect(JSON.stringify(pub.json())).not.toContain(w.memorialId);
    const code = await t.app.inject({
      method: 'POST',
      url: '/core/guest/token',
      payload: { accessCode: w.accessCode },
    });
    expect(code.statusCode).toBe(404);
    // Writing is refused as on a missing page.
    const lit = await t.app.inject({
      method: 'POST',
      url: `/core/candles/${w.memorialId}`,
      headers: auth(users.editor.token),
      payload: { name: 'Iemand' },
    });
    expect(lit.statusCode).toBe(404);

    for (const owner of [users.owner, users.otherOwner]) {
      const mail = await t.smtp.waitFor(
        (m) => m.to.includes(owner.email) && m.subject.includes('is verwijderd'),
      );
      expect(mail.text).toContain(`${t.config.APP_URL}/mijn-paginas#verwijderd`);
      expect(mail.text).toMatch(/Tot \d+ \w+ \d{4} kan elke eigenaar de pagina terugzetten/);
    }
    expect(
      t.smtp.messages.some((m) => m.to.includes(users.editor.email) && m.subject.includes('verwijderd')),
    ).toBe(false);
  });

  it("lists it under the owners' deleted pages only; a non-owner cannot restore it", async () => {
    expect((await deletedList(users.owner.token)).map((m) => m.id)).toEqual([w.memorialId]);
    expect((await deletedList(users.otherOwner.token)).map((m) => m.id)).toEqual([w.memorialId]);
    expect(await deletedList(users.editor.token)).toEqual([]);
    expect((await restore(users.editor.token)).statusCode).toBe(404);
    expect((await restore(users.stranger.token)).statusCode).toBe(404);
    expect((await restore(w.tokens.guestThis)).statusCode).toBe(401);
    expect((await read(null)).statusCode).toBe(404);
  });

  it('an owner restores it as it was, and the job that comes later leaves it alone', async () => {
    const res = await restore(users.otherOwner.token);
    expect(res.statusCode).toBe(200);
    const page = await read(null);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ status: 'active', visibility: 'public' });
    expect(await deletedList(users.owner.token)).toEqual([]);
    await runPurgeNow();
    expect((await read(null)).statusCode).toBe(200);
    const audit = await t.db.query<{ action: string }>(
      `SELECT action FROM memorial_audit_log WHERE memorial_id = $1 AND action LIKE 'memorial.%' ORDER BY seq`,
      [w.memorialId],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['memorial.deleted', 'memorial.restored']),
    );
  });

  it('after 30 days it cannot be restored; the job removes it with its media and keeps only who and when', async () => {
    expect((await del(users.owner.token)).statusCode).toBe(200);
    // A job that runs early waits again.
    await runPurgeNow();
    expect((await t.db.query('SELECT 1 FROM memorials WHERE id = $1', [w.memorialId])).rows).toHaveLength(1);

    const { rows: files } = await t.db.query<{ storage_key: string }>(
      'SELECT storage_key FROM media_variants WHERE media_id = $1',
      [photoId],
    );
    expect(files.length).toBeGreaterThan(0);
    await t.db.query(`UPDATE memorials SET remove_after = now() - interval '1 second' WHERE id = $1`, [
      w.memorialId,
    ]);
    const late = await restore(users.owner.token);
    expect(late.statusCode).toBe(410);
    expect(late.json().code).toBe('MEMORIAL_REMOVED');

    await runPurgeNow();
    expect((await t.db.query('SELECT 1 FROM memorials WHERE id = $1', [w.memorialId])).rows).toEqual([]);
    for (const table of ['memories', 'candles', 'media', 'memorial_members', 'memorial_audit_log']) {
      const { rows } = await t.db.query(`SELECT 1 FROM ${table} WHERE memorial_id = $1`, [w.memorialId]);
      expect(rows, table).toEqual([]);
    }
    await t.app.deps.queue.idle();
    for (const f of files)
      await expect(fs.stat(path.join(t.dataDir, 'media', f.storage_key))).rejects.toThrow();

    const { rows: removal } = await t.db.query<Record<string, unknown>>(
      'SELECT * FROM memorial_removals WHERE memorial_id = $1',
      [w.memorialId],
    );
    expect(removal).toHaveLength(1);
    expect(removal[0]).toMatchObject({ deleted_by: users.owner.userId });
    expect(Object.keys(removal[0]!).sort()).toEqual([
      'deleted_at',
      'deleted_by',
      'memorial_id',
      'removed_at',
    ]);
    expect(await deletedList(users.owner.token)).toEqual([]);
  });
});
