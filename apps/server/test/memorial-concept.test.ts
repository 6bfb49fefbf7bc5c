import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';

let t: TestContext;
let owner: { token: string; userId: string };
let stranger: { token: string; userId: string };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp();
  owner = await issueUserToken(t, { email: 'els@example.nl', name: 'Els Jansen' });
  stranger = await issueUserToken(t, { email: 'vreemde@example.nl', name: 'Vreemde' });
});
afterAll(async () => t?.close());

const count = async (sql: string, params: unknown[] = []) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]!.n;

describe('POST /core/memorial/concept', () => {
  it('creates a private concept with the caller as owner and an 8-digit access code only managers see', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/concept',
      headers: auth(owner.token),
      payload: { firstName: '  Jan ', lastName: 'de Vries' },
    });
    expect(res.statusCode).toBe(201);
    const { id } = res.json();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const { rows } = await t.db.query(
      `SELECT m.first_name, m.last_name, m.status, m.visibility, mm.role, mm.user_id, m.access_code_hash, m.access_code_encrypted
         FROM memorials m JOIN memorial_members mm ON mm.memorial_id = m.id WHERE m.id = $1`,
      [id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      first_name: 'Jan',
      last_name: 'de Vries',
      status: 'concept',
      visibility: 'private',
      role: 'owner',
      user_id: owner.userId,
    });

    const got = await t.app.inject({ url: `/core/memorial/${id}`, headers: auth(owner.token) });
    expect(got.statusCode).toBe(200);
    const m = got.json();
    expect(m).toMatchObject({
      id,
      firstName: 'Jan',
      lastName: 'de Vries',
      status: 'concept',
      visibility: 'private',
      role: 'owner',
    });
    expect(m.accessCode).toMatch(/^\d{8}$/);
    expect(m.counts).toEqual({ memories: 0, media: 0, candles: 0, members: 1 });
    // Stored neither in clear nor as a plain hash of the code.
    expect(JSON.stringify(rows[0])).not.toContain(m.accessCode);
    const audit = await t.db.query(
      'SELECT action, actor_user_id FROM memorial_audit_log WHERE memorial_id = $1',
      [id],
    );
    expect(audit.rows).toEqual([{ action: 'memorial.created', actor_user_id: owner.userId }]);
  });

  it('refuses without a valid token (401) and with missing names (400, Dutch field errors), storing nothing', async () => {
    const before = await count('memorials');
    const anon = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/concept',
      payload: { firstName: 'A', lastName: 'B' },
    });
    expect(anon.statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/concept',
      headers: auth('not-a-token'),
      payload: { firstName: 'A', lastName: 'B' },
    });
    expect(bad.statusCode).toBe(401);
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/concept',
      headers: auth(owner.token),
      payload: { firstName: ' ', lastName: '' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: { firstName: 'Voornaam is verplicht', lastName: 'Achternaam is verplicht' },
    });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/concept',
      headers: auth(owner.token),
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toMatchObject({
      firstName: 'Voornaam is verplicht',
      lastName: 'Achternaam is verplicht',
    });
    expect(await count('memorials')).toBe(before);
  });

  it('is idempotent per user and Idempotency-Key: a retry returns the same memorial', async () => {
    const before = await count('memorials');
    const send = (token: string, key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/core/memorial/concept',
        headers: { ...auth(token), 'idempotency-key': key },
        payload: { firstName: 'Marie', lastName: 'Bakker' },
      });
    const first = await send(owner.token, 'create-1');
    const again = await send(owner.token, 'create-1');
    const parallel = await Promise.all([send(owner.token, 'create-2'), send(owner.token, 'create-2')]);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(parallel[0].json().id).toBe(parallel[1].json().id);
    expect(await count('memorials')).toBe(before + 2);

    // Another user with the same key gets their own memorial.
    const other = await send(stranger.token, 'create-1');
    expect(other.statusCode).toBe(201);
    expect(other.json().id).not.toBe(first.json().id);

    // After 24 hours the key may be used again.
    await t.db.query(
      `UPDATE memorial_idempotency_keys SET created_at = now() - interval '25 hours' WHERE idempotency_key = 'create-1'`,
    );
    const later = await send(owner.token, 'create-1');
    expect(later.json().id).not.toBe(first.json().id);

    const badKey = await send(owner.token, 'x'.repeat(300));
    expect(badKey.statusCode).toBe(400);
  });
});

describe('GET /core/memorial/{id}', () => {
  it('answers 404 for strangers, anonymous callers, malformed and unknown ids alike', async () => {
    const { id } = (
      await t.app.inject({
        method: 'POST',
        url: '/core/memorial/concept',
        headers: auth(owner.token),
        payload: { firstName: 'A', lastName: 'B' },
      })
    ).json();
    for (const [url, headers] of [
      [`/core/memorial/${id}`, auth(stranger.token)],
      [`/core/memorial/${id}`, {}],
      ['/core/memorial/niet-een-uuid', auth(owner.token)],
      ['/core/memorial/00000000-0000-4000-8000-000000000000', auth(owner.token)],
    ] as const) {
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('MEMORIAL_NOT_FOUND');
    }
  });
});

describe('POST /core/memorial/query/partof', () => {
  it('lists the caller’s memorials with role, status and counts, paginated', async () => {
    const u = await issueUserToken(t, { email: 'lijst@example.nl', name: 'Lijst' });
    const ids: string[] = [];
    for (const n of ['Een', 'Twee', 'Drie']) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/core/memorial/concept',
        headers: auth(u.token),
        payload: { firstName: n, lastName: 'X' },
      });
      ids.push(r.json().id);
    }
    const page1 = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/query/partof',
      headers: auth(u.token),
      payload: { limit: 2 },
    });
    expect(page1.statusCode).toBe(200);
    const p1 = page1.json();
    expect(p1.items).toHaveLength(2);
    expect(p1.items[0]).toMatchObject({
      id: ids[2],
      firstName: 'Drie',
      role: 'owner',
      status: 'concept',
      visibility: 'private',
    });
    expect(p1.items[0].counts.members).toBe(1);
    expect(p1.nextCursor).toEqual(expect.any(String));
    const page2 = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/query/partof',
      headers: auth(u.token),
      payload: { limit: 2, cursor: p1.nextCursor },
    });
    expect(page2.json().items.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    expect(page2.json().nextCursor).toBeNull();

    expect(
      (await t.app.inject({ method: 'POST', url: '/core/memorial/query/partof', payload: {} })).statusCode,
    ).toBe(401);
    const tooMany = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/query/partof',
      headers: auth(u.token),
      payload: { limit: 1000 },
    });
    expect(tooMany.statusCode).toBe(400);
    const badCursor = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/query/partof',
      headers: auth(u.token),
      payload: { cursor: 'zzz' },
    });
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().fields.cursor).toBe('Ongeldige cursor');
  });
});
