/**
 * Deleting one's own account (docs/privacy.md): sign-in ends everywhere, what the person
 * left on memorials stays from "een voormalig lid", a memorial they alone owned passes on or is removed
 * after 30 days, the address is gone from every table and can register again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMER_MEMBER_NAME } from '@aandenken/contract';
import { ORPHANED_MEMORIAL_JOB } from '../src/modules/account/service.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { refresh, registerThroughProvider } from './identity-flow.ts';
import { addMember, auth, createMemorial, createUsers, type Users } from './memorial-fixtures.ts';

let t: TestContext;
let n = 0;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const PASSWORD = 'een lang en sterk wachtwoord 42';

/** A person who registers through the embedded provider (so they have sessions and a refresh token). */
async function register(name = 'Marieke Jansen') {
  const email = `verwijder-${++n}-${Date.now().toString(36)}@example.nl`;
  const { tokens } = await registerThroughProvider(t.app, { name, email, password: PASSWORD });
  const me = await t.app.inject({
    method: 'POST',
    url: '/core/memorial/query/partof',
    headers: auth(tokens.access_token),
    payload: {},
  });
  expect(me.statusCode).toBe(200);
  const { rows } = await t.db.query<{ id: string }>('SELECT id::text FROM accounts WHERE email = $1', [
    email,
  ]);
  return { email, name, token: tokens.access_token, refreshToken: tokens.refresh_token, userId: rows[0]!.id };
}

const deleteAccount = (token: string | null, confirmation: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/core/account/delete',
    headers: auth(token),
    payload: { confirmation } as object,
  });

async function writeMemory(token: string, memorialId: string, text: string) {
  const concept = await t.app.inject({
    method: 'POST',
    url: '/core/memories/concept',
    headers: auth(token),
    payload: { memorialId, yearLabel: '1982', text },
  });
  expect(concept.statusCode, concept.body).toBe(201);
  const id = concept.json().id as string;
  const published = await t.app.inject({
    method: 'POST',
    url: '/core/memories/publish',
    headers: auth(token),
    payload: { id },
  });
  expect(published.statusCode, published.body).toBe(200);
  return id;
}

async function wall(memorialId: string, token: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/core/memories/query-memorial',
    headers: auth(token),
    payload: { memorialId, limit: 50 },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as { id: string; text: string; author: { name: string; isYou: boolean } }[];
}

async function roleOf(memorialId: string, userId: string) {
  const { rows } = await t.db.query<{ role: string }>(
    'SELECT role FROM memorial_members WHERE memorial_id = $1 AND user_id = $2',
    [memorialId, userId],
  );
  return rows[0]?.role ?? null;
}

/** Every place in the schema a text could hold the address: each text, text[] and jsonb column of every table. */
async function tablesHolding(needle: string): Promise<string[]> {
  const { rows: columns } = await t.db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND tb.table_type = 'BASE TABLE'
        AND c.data_type IN ('text', 'ARRAY', 'jsonb', 'character varying')`,
  );
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${table}" WHERE strpos(lower("${column}"::text), $1) > 0`,
      [needle.toLowerCase()],
    );
    if (rows[0]!.n > 0) found.push(`${table}.${column}`);
  }
  return found;
}

describe('POST /core/account/delete', () => {
  let users: Users;
  beforeAll(async () => {
    users = await createUsers(t);
  });

  it('refuses without a sign-in (401) and without the right confirmation (400), changing nothing', async () => {
    expect((await deleteAccount(null, 'VERWIJDEREN')).statusCode).toBe(401);
    const person = await register();
    for (const confirmation of ['', 'verwijder', 'iemand-anders@example.nl', 42]) {
      const res = await deleteAccount(person.token, confirmation);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
    }
    const { rows } = await t.db.query('SELECT 1 FROM accounts WHERE id = $1', [person.userId]);
    expect(rows).toHaveLength(1);
    const still = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/query/partof',
      headers: auth(person.token),
      payload: {},
    });
    expect(still.statusCode).toBe(200);
  });

  it('ends sign-in everywhere: the access token and the refresh token are refused after it', async () => {
    const person = await register();
    const res = await deleteAccount(person.token, person.email.toUpperCase());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ deleted: true, memorialsPassedOn: 0, memorialsToBeRemoved: 0 });

    const after = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/query/partof',
      headers: auth(person.token),
      payload: {},
    });
    expect(after.statusCode).toBe(401);
    expect((await deleteAccount(person.token, 'VERWIJDEREN')).statusCode).toBe(401);
    const renewed = await refresh(t.app, person.refreshToken);
    expect(renewed.statusCode).toBe(400);
    expect(renewed.json().error).toBe('invalid_grant');
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM oidc_models WHERE payload->>'accountId' = $1`,
      [person.userId],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it("keeps their memories on the page, from 'een voormalig lid' without name, and removes their concepts", async () => {
    const page = await createMemorial(t, users.owner);
    const person = await register('Pieter Bakker');
    await addMember(
      t,
      page.id,
      { ...users.owner, userId: person.userId, email: person.email },
      'contributor',
    );
    const memoryId = await writeMemory(person.token, page.id, 'Die zomer aan zee.');
    const concept = await t.app.inject({
      method: 'POST',
      url: '/core/memories/concept',
      headers: auth(person.token),
      payload: { memorialId: page.id, yearLabel: '1990', text: 'Nog niet af.' },
    });
    expect(concept.statusCode).toBe(201);
    const lit = await t.app.inject({
      method: 'POST',
      url: `/core/candles/${page.id}`,
      headers: auth(person.token),
      payload: { name: 'Pieter Bakker', kind: 'candle' },
      remoteAddress: '10.9.0.1',
    });
    expect(lit.statusCode, lit.body).toBe(201);
    const before = await wall(page.id, users.owner.token);
    expect(before.find((m) => m.id === memoryId)?.author.name).toBe('Pieter Bakker');

    expect((await deleteAccount(person.token, 'VERWIJDEREN')).statusCode).toBe(200);

    const items = await wall(page.id, users.owner.token);
    const kept = items.find((m) => m.id === memoryId);
    expect(kept).toMatchObject({ text: 'Die zomer aan zee.', author: { name: FORMER_MEMBER_NAME } });
    expect(JSON.stringify(items)).not.toContain('Pieter');
    const candles = await t.app.inject({
      method: 'POST',
      url: '/core/candles/query',
      headers: auth(users.owner.token),
      payload: { memorialId: page.id },
    });
    expect(candles.body).not.toContain('Pieter');
    const { rows } = await t.db.query('SELECT 1 FROM memories WHERE id = $1', [concept.json().id]);
    expect(rows).toHaveLength(0);
    expect(await roleOf(page.id, person.userId)).toBeNull();
  });

  it('passes a page they alone own to the next member, editor first; a shared page keeps its other owner', async () => {
    const person = await register();
    const asUser = { ...users.owner, userId: person.userId, email: person.email, token: person.token };
    const alone = await createMemorial(t, asUser);
    await addMember(t, alone.id, users.contributor, 'contributor');
    await addMember(t, alone.id, users.editor, 'editor');
    const shared = await createMemorial(t, asUser);
    await addMember(t, shared.id, users.otherOwner, 'owner');
    await addMember(t, shared.id, users.editor, 'editor');

    const res = await deleteAccount(person.token, 'VERWIJDEREN');
    expect(res.json()).toEqual({ deleted: true, memorialsPassedOn: 1, memorialsToBeRemoved: 0 });

    expect(await roleOf(alone.id, users.editor.userId)).toBe('owner');
    expect(await roleOf(alone.id, users.contributor.userId)).toBe('contributor');
    expect(await roleOf(shared.id, users.otherOwner.userId)).toBe('owner');
    expect(await roleOf(shared.id, users.editor.userId)).toBe('editor');
    // The new owner manages the page; the audit log says why, without the old owner's name or address.
    const audit = await t.app.inject({
      url: `/core/memorial/${alone.id}/audit`,
      headers: auth(users.editor.token),
    });
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.body).toContain('member.owner_succeeded');
    expect(audit.body).not.toContain(person.email);
    expect(audit.body).not.toContain(person.name);
  });

  it('keeps a page with no member left read-only for 30 days, then the scheduled job removes it', async () => {
    const person = await register();
    const asUser = { ...users.owner, userId: person.userId, email: person.email, token: person.token };
    const lone = await createMemorial(t, asUser, { visibility: 'public' });
    const res = await deleteAccount(person.token, 'VERWIJDEREN');
    expect(res.json()).toEqual({ deleted: true, memorialsPassedOn: 0, memorialsToBeRemoved: 1 });

    const state = await t.db.query<{ status: string; days: number }>(
      `SELECT status, round(extract(epoch FROM remove_after - now()) / 86400)::int AS days FROM memorials WHERE id = $1`,
      [lone.id],
    );
    expect(state.rows[0]).toEqual({ status: 'archived', days: 30 });
    // Archived: nobody sees or changes it any more.
    expect((await t.app.inject({ url: `/core/memorial/${lone.id}` })).statusCode).toBe(404);

    const exists = async () =>
      (await t.db.query('SELECT 1 FROM memorials WHERE id = $1', [lone.id])).rows.length === 1;
    const due = () =>
      t.db.query(
        `UPDATE jobs SET run_at = now() WHERE kind = $1 AND status = 'queued' AND payload->>'memorialId' = $2`,
        [ORPHANED_MEMORIAL_JOB, lone.id],
      );
    // Not yet due: nothing happens.
    await t.app.deps.queue.drain();
    expect(await exists()).toBe(true);
    // A job that runs early (the queue's clock ahead of ours) leaves the page and waits again.
    await due();
    await t.app.deps.queue.drain();
    expect(await exists()).toBe(true);
    // 31 days later.
    const clock = t.app.deps.clock;
    t.app.deps.clock = { now: () => new Date(Date.now() + 31 * 24 * 3_600_000) };
    try {
      await due();
      await t.app.deps.queue.drain();
    } finally {
      t.app.deps.clock = clock;
    }
    expect(await exists()).toBe(false);
  });

  it('leaves the address in no table, and the address can register again as a new account', async () => {
    const person = await register('Anna de Vries');
    const asUser = { ...users.owner, userId: person.userId, email: person.email, token: person.token };
    const page = await createMemorial(t, users.owner);
    // Invited to a page, a member of it, named in the audit log, a failed sign-in.
    const invite = await t.app.inject({
      method: 'POST',
      url: `/core/guest-invite/${page.id}`,
      headers: auth(users.owner.token),
      payload: { email: person.email, name: 'Anna de Vries', role: 'contributor' },
    });
    expect(invite.statusCode, invite.body).toBe(201);
    await addMember(t, page.id, asUser, 'editor');
    await t.db.query('INSERT INTO login_failures (email, failures, last_failure_at) VALUES ($1, 1, now())', [
      person.email,
    ]);
    expect(await tablesHolding(person.email)).not.toEqual([]);

    expect((await deleteAccount(person.token, person.email)).statusCode).toBe(200);

    // Only the mails that still count against the address's daily limit stay, a day long (without body).
    const left = await tablesHolding(person.email);
    expect(left.every((c) => c.startsWith('mail_outbox.'))).toBe(true);
    const { rows: kept } = await t.db.query<{ text_body: string | null; status: string }>(
      `SELECT text_body, status FROM mail_outbox WHERE $1 = ANY(to_addresses)`,
      [person.email],
    );
    expect(kept.length).toBeGreaterThan(0);
    await t.db.query(
      `UPDATE jobs SET run_at = now() WHERE kind = 'account.forget-mail' AND status = 'queued'`,
    );
    await t.app.deps.queue.drain();
    expect(await tablesHolding(person.email)).toEqual([]);
    expect(await tablesHolding('Anna de Vries')).toEqual([]);

    // The same address registers again: a new account, with nothing of the old one.
    const again = await registerThroughProvider(t.app, {
      name: 'Anna de Vries',
      email: person.email,
      password: PASSWORD,
    });
    const { rows } = await t.db.query<{ id: string }>('SELECT id::text FROM accounts WHERE email = $1', [
      person.email,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(person.userId);
    const partOf = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/query/partof',
      headers: auth(again.tokens.access_token),
      payload: {},
    });
    expect(partOf.statusCode).toBe(200);
    expect(partOf.json().items).toEqual([]);
  });
});
