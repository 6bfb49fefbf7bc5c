import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import {
  addMember,
  auth,
  createMemorial,
  createUsers,
  guestTokenFor,
  type Users,
} from './memorial-fixtures.ts';

let t: TestContext;
let u: Users;
beforeAll(async () => {
  t = await createTestApp();
  u = await createUsers(t);
});
afterAll(async () => t?.close());

/** A memorial with a member of every role; returns the membership ids. */
async function team() {
  const m = await createMemorial(t, u.owner);
  const { rows } = await t.db.query<{ id: string }>(
    'SELECT id FROM memorial_members WHERE memorial_id = $1',
    [m.id],
  );
  const members = {
    memorialId: m.id,
    owner: rows[0]!.id,
    editor: await addMember(t, m.id, u.editor, 'editor'),
    contributor: await addMember(t, m.id, u.contributor, 'contributor'),
    guest: await addMember(t, m.id, u.guest, 'guest'),
  };
  // One joining a second after the other: members added within the same clock tick (PGlite's clock is
  // coarse) would otherwise be ordered by their random ids.
  const order = [members.owner, members.editor, members.contributor, members.guest];
  for (const [i, id] of order.entries())
    await t.db.query(
      `UPDATE memorial_members SET created_at = now() + make_interval(secs => $2) WHERE id = $1`,
      [id, i],
    );
  return members;
}
const setRole = (token: string, memberId: string, role: string) =>
  t.app.inject({
    method: 'PUT',
    url: '/core/memorial/users/role',
    headers: auth(token),
    payload: { memberId, role },
  });
const remove = (token: string, memberId: string) =>
  t.app.inject({ method: 'DELETE', url: `/core/memorial/users/${memberId}`, headers: auth(token) });
const roleOf = async (memberId: string) =>
  (await t.db.query<{ role: string }>('SELECT role FROM memorial_members WHERE id = $1', [memberId])).rows[0]
    ?.role;

describe('POST /core/memorial/users/query', () => {
  it('lists members with name, e-mail and role, first joined first, paginated, in a fixed number of queries', async () => {
    const m = await team();
    const q = (payload: object, token = u.owner.token) =>
      t.app.inject({ method: 'POST', url: '/core/memorial/users/query', headers: auth(token), payload });
    await q({ memorialId: m.memorialId, limit: 1 }); // warms up the token's user row
    // The least of three: the background workers (media, mail) may poll during a request.
    const statements = async (payload: object) => {
      const counts: number[] = [];
      for (let i = 0; i < 3; i++) {
        const before = t.db.statementCount;
        await q(payload);
        counts.push(t.db.statementCount - before);
      }
      return Math.min(...counts);
    };
    const used = await statements({ memorialId: m.memorialId, limit: 3 });
    const p1 = await q({ memorialId: m.memorialId, limit: 3 });
    expect(p1.statusCode).toBe(200);
    expect(p1.json().items.map((i: { role: string }) => i.role)).toEqual(['owner', 'editor', 'contributor']);
    expect(p1.json().items[0]).toMatchObject({
      userId: u.owner.userId,
      email: u.owner.email,
      isSelf: true,
      name: expect.stringContaining('Eigenaar'),
    });
    expect(p1.json().items[1]).toMatchObject({ userId: u.editor.userId, isSelf: false });
    const p2 = await q({ memorialId: m.memorialId, limit: 3, cursor: p1.json().nextCursor });
    expect(p2.json()).toMatchObject({ items: [{ id: m.guest, role: 'guest' }], nextCursor: null });
    // Reading a page costs the same few statements however many members it holds.
    expect(await statements({ memorialId: m.memorialId, limit: 1 })).toBe(used);

    expect((await q({ memorialId: m.memorialId, role: 'guest' })).json().items).toHaveLength(1);
    const bad = await q({ memorialId: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.memorialId).toBe('Gedenkpagina is ongeldig');
    expect((await q({})).json().fields.memorialId).toBe('Gedenkpagina is verplicht');
    expect((await q({ memorialId: m.memorialId }, u.contributor.token)).statusCode).toBe(403);
  });
});

describe('GET /core/memorial/users/{id} and self/role', () => {
  it('shows a membership to managers and to the member; tells anyone who may see the page their role', async () => {
    const m = await team();
    expect(
      (await t.app.inject({ url: `/core/memorial/users/${m.guest}`, headers: auth(u.editor.token) })).json(),
    ).toMatchObject({
      id: m.guest,
      role: 'guest',
      email: u.guest.email,
    });
    expect(
      (await t.app.inject({ url: `/core/memorial/users/${m.guest}`, headers: auth(u.guest.token) })).json()
        .isSelf,
    ).toBe(true);
    expect(
      (await t.app.inject({ url: `/core/memorial/users/${m.editor}`, headers: auth(u.guest.token) }))
        .statusCode,
    ).toBe(403);
    const hidden = await t.app.inject({
      url: `/core/memorial/users/${m.editor}`,
      headers: auth(u.stranger.token),
    });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().code).toBe('MEMBER_NOT_FOUND');
    expect(
      (await t.app.inject({ url: '/core/memorial/users/geen-uuid', headers: auth(u.owner.token) }))
        .statusCode,
    ).toBe(404);

    const self = (token: string | null) =>
      t.app.inject({ url: `/core/memorial/users/self/role/${m.memorialId}`, headers: auth(token) });
    expect((await self(u.contributor.token)).json()).toEqual({
      memorialId: m.memorialId,
      role: 'contributor',
      memberId: m.contributor,
    });
    expect((await self(await guestTokenFor(t, m.memorialId))).json()).toEqual({
      memorialId: m.memorialId,
      role: 'guest',
      memberId: null,
    });
    expect((await self(u.stranger.token)).statusCode).toBe(404);
    // Asking for one's own role needs someone to ask it: anonymous is 401, as on every call that needs a caller.
    expect((await self(null)).statusCode).toBe(401);
  });
});

describe('PUT /core/memorial/users/role', () => {
  it('lets an owner change any role, and an editor only contributors and guests between those two', async () => {
    const m = await team();
    const byEditor = await setRole(u.editor.token, m.contributor, 'guest');
    expect(byEditor.statusCode).toBe(200);
    expect(byEditor.json()).toMatchObject({ id: m.contributor, role: 'guest' });
    for (const [target, role] of [
      [m.guest, 'editor'],
      [m.guest, 'owner'],
      [m.owner, 'guest'],
      [m.editor, 'contributor'],
    ] as const) {
      const res = await setRole(u.editor.token, target, role);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(
        'Als redacteur kun je alleen bijdragers en gasten een andere rol geven (bijdrager of gast).',
      );
    }
    expect((await setRole(u.contributor.token, m.guest, 'contributor')).statusCode).toBe(403);
    expect((await setRole(u.owner.token, m.editor, 'owner')).json().role).toBe('owner');
    expect((await setRole(u.editor.token, m.owner, 'editor')).json().role).toBe('editor'); // the former editor is an owner now
    const bad = await setRole(u.owner.token, m.guest, 'beheerder');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.role).toBe('Kies een geldige rol');

    const audit = await t.db.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'member.role_changed' ORDER BY seq`,
      [m.memorialId],
    );
    expect(audit.rows.map((r) => [r.details.from, r.details.to])).toEqual([
      ['contributor', 'guest'],
      ['editor', 'owner'],
      ['owner', 'editor'],
    ]);
  });

  it('keeps at least one owner', async () => {
    const m = await team();
    const res = await setRole(u.owner.token, m.owner, 'editor');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'LAST_OWNER',
      message: 'Een gedenkpagina houdt altijd minstens één eigenaar. Maak eerst iemand anders eigenaar.',
    });
    expect(await roleOf(m.owner)).toBe('owner');
  });

  it('keeps one owner when two owners demote each other at the same time', async () => {
    const m = await team();
    await setRole(u.owner.token, m.editor, 'owner');
    const [a, b] = await Promise.all([
      setRole(u.owner.token, m.editor, 'editor'),
      setRole(u.editor.token, m.owner, 'editor'),
    ]);
    // The second sees the first's change: it is either no owner any more (403) or the last one (409).
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes[0]).toBe(200);
    expect([403, 409]).toContain(codes[1]);
    const owners = await t.db.query(
      `SELECT 1 FROM memorial_members WHERE memorial_id = $1 AND role = 'owner'`,
      [m.memorialId],
    );
    expect(owners.rows).toHaveLength(1);
  });
});

describe('DELETE /core/memorial/users/{id}', () => {
  it('lets members leave, editors remove contributors and guests, owners remove anyone; never the last owner', async () => {
    const m = await team();
    expect((await remove(u.editor.token, m.owner)).statusCode).toBe(403);
    expect((await remove(u.contributor.token, m.guest)).statusCode).toBe(403);
    expect((await remove(u.editor.token, m.guest)).statusCode).toBe(204);
    expect((await remove(u.contributor.token, m.contributor)).statusCode).toBe(204);
    expect((await remove(u.owner.token, m.editor)).statusCode).toBe(204);
    const last = await remove(u.owner.token, m.owner);
    expect(last.statusCode).toBe(409);
    expect(last.json().code).toBe('LAST_OWNER');
    const left = await t.db.query<{ id: string }>('SELECT id FROM memorial_members WHERE memorial_id = $1', [
      m.memorialId,
    ]);
    expect(left.rows).toEqual([{ id: m.owner }]);
    const audit = await t.db.query<{ action: string }>(
      `SELECT action FROM memorial_audit_log WHERE memorial_id = $1 AND action LIKE 'member.%' ORDER BY seq`,
      [m.memorialId],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['member.removed', 'member.left', 'member.removed']);
    // A removed member no longer sees the private page.
    expect(
      (await t.app.inject({ url: `/core/memorial/${m.memorialId}`, headers: auth(u.guest.token) }))
        .statusCode,
    ).toBe(404);
  });

  it('lets one of two owners leave', async () => {
    const m = await team();
    const second = await issueUserToken(t, {
      email: `tweede-${Date.now()}@example.nl`,
      name: 'Tweede eigenaar',
    });
    await t.app.inject({
      url: '/core/memorial/query/partof',
      method: 'POST',
      headers: auth(second.token),
      payload: {},
    });
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO memorial_members (memorial_id, user_id, role) VALUES ($1, $2, 'owner') RETURNING id`,
      [m.memorialId, second.userId],
    );
    expect((await remove(second.token, rows[0]!.id)).statusCode).toBe(204);
    expect((await remove(u.owner.token, m.owner)).statusCode).toBe(409);
  });
});
