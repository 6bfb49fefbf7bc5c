/**
 * Pages outlive their administrators (docs/roles.md): an owner names a successor; when
 * the only owner deletes their account, or stays silent for a year through two reminders, the successor
 * becomes owner (an address without an account gets an ownership invitation). The team hands a page to a
 * family member on request, recorded in the audit log.
 */
import { randomBytes } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInactivityCheck } from '../src/modules/successors/service.ts';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { addMember, auth, createMemorial, guestTokenFor, type User } from './memorial-fixtures.ts';

let t: TestContext;
let team: string;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'team@aandenken.test' });
  team = (await issueUserToken(t, { email: 'team@aandenken.test', name: 'Team' })).token;
});
afterAll(async () => t?.close());

async function person(role: string): Promise<User & { name: string }> {
  const email = `${role}-${randomBytes(4).toString('hex')}@example.nl`;
  const name = `${role[0]!.toUpperCase()}${role.slice(1)} ${randomBytes(2).toString('hex')}`;
  const u = await issueUserToken(t, { email, name });
  await t.db.query(`INSERT INTO users (id, email, name) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`, [
    u.userId,
    email,
    name,
  ]);
  return { ...u, email, name };
}

const call = (method: InjectOptions['method'], url: string, token: string | null, payload?: object) =>
  t.app.inject({ method, url, headers: auth(token), ...(payload ? { payload } : {}) });
const successorUrl = (id: string) => `/core/memorial/${id}/successor`;

async function roleOf(memorialId: string, userId: string) {
  const { rows } = await t.db.query<{ role: string }>(
    'SELECT role FROM memorial_members WHERE memorial_id = $1 AND user_id = $2',
    [memorialId, userId],
  );
  return rows[0]?.role ?? null;
}
async function auditOf(memorialId: string, action: string) {
  const { rows } = await t.db.query<{
    actor_kind: string;
    actor_user_id: string | null;
    details: Record<string, unknown>;
  }>(
    'SELECT actor_kind, actor_user_id, details FROM memorial_audit_log WHERE memorial_id = $1 AND action = $2 ORDER BY seq',
    [memorialId, action],
  );
  return rows;
}
const deleteAccount = (token: string) =>
  call('POST', '/core/account/delete', token, { confirmation: 'VERWIJDEREN' });

describe('naming a successor', () => {
  it('lets an owner name a member or an address, change and remove it, all in the audit log', async () => {
    const owner = await person('eigenaar');
    const editor = await person('redacteur');
    const { id } = await createMemorial(t, owner);
    await addMember(t, id, editor, 'editor');

    expect((await call('GET', successorUrl(id), owner.token)).json()).toEqual({ successor: null });
    const named = await call('PUT', successorUrl(id), owner.token, { userId: editor.userId });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json().successor).toMatchObject({ userId: editor.userId, name: editor.name });

    // By the member's address: recognised as that member.
    const byMail = await call('PUT', successorUrl(id), owner.token, { email: editor.email.toUpperCase() });
    expect(byMail.json().successor).toMatchObject({ userId: editor.userId });

    // A named member who leaves the page is no longer the successor.
    await t.db.query('DELETE FROM memorial_members WHERE memorial_id = $1 AND user_id = $2', [
      id,
      editor.userId,
    ]);
    expect((await call('GET', successorUrl(id), owner.token)).json()).toEqual({ successor: null });
    await addMember(t, id, editor, 'editor');

    const outside = await call('PUT', successorUrl(id), owner.token, { email: 'Dochter@Example.nl' });
    expect(outside.statusCode).toBe(200);
    expect(outside.json().successor).toMatchObject({ userId: null, email: 'dochter@example.nl' });

    const removed = await call('DELETE', successorUrl(id), owner.token);
    expect(removed.json()).toEqual({ successor: null });
    expect((await call('GET', successorUrl(id), owner.token)).json()).toEqual({ successor: null });

    expect((await auditOf(id, 'successor.named')).map((e) => e.details)).toEqual([
      { userId: editor.userId },
      { userId: editor.userId },
      { email: 'dochter@example.nl' },
    ]);
    expect(await auditOf(id, 'successor.removed')).toHaveLength(1);
  });

  it('refuses bad input (400) and everyone but owners (editors 403, strangers 404, anonymous 401)', async () => {
    const owner = await person('eigenaar');
    const editor = await person('redacteur');
    const stranger = await person('vreemde');
    const { id } = await createMemorial(t, owner);
    await addMember(t, id, editor, 'editor');
    for (const payload of [
      {},
      { email: 'geen-adres' },
      { userId: stranger.userId },
      { userId: owner.userId },
      { email: owner.email },
    ]) {
      const res = await call('PUT', successorUrl(id), owner.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
    }
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const body = method === 'PUT' ? { email: 'x@example.nl' } : undefined;
      expect((await call(method, successorUrl(id), null, body)).statusCode).toBe(401);
      expect((await call(method, successorUrl(id), await guestTokenFor(t, id), body)).statusCode).toBe(403);
      expect((await call(method, successorUrl(id), editor.token, body)).statusCode).toBe(403);
      expect((await call(method, successorUrl(id), stranger.token, body)).statusCode).toBe(404);
    }
    expect((await call('GET', successorUrl('geen-uuid'), owner.token)).statusCode).toBe(404);
    const { rows } = await t.db.query('SELECT 1 FROM memorial_successors WHERE memorial_id = $1', [id]);
    expect(rows).toHaveLength(0);
  });
});

describe('when the only owner deletes their account', () => {
  it('the named member takes over before anyone else (an editor would otherwise be first)', async () => {
    const owner = await person('eigenaar');
    const editor = await person('redacteur');
    const guest = await person('gast');
    const { id } = await createMemorial(t, owner);
    await addMember(t, id, editor, 'editor');
    await addMember(t, id, guest, 'guest');
    expect((await call('PUT', successorUrl(id), owner.token, { userId: guest.userId })).statusCode).toBe(200);

    const res = await deleteAccount(owner.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ memorialsPassedOn: 1, memorialsToBeRemoved: 0 });
    expect(await roleOf(id, guest.userId)).toBe('owner');
    expect(await roleOf(id, editor.userId)).toBe('editor');
    expect((await auditOf(id, 'member.owner_succeeded')).map((e) => e.details)).toEqual([
      { userId: guest.userId, reason: 'account_deleted', successor: true, outcome: 'owner' },
    ]);
  });

  it('an address without an account gets an ownership invitation; the page is kept, not archived', async () => {
    const owner = await person('eigenaar');
    const { id } = await createMemorial(t, owner, { firstName: 'Gerrit', lastName: 'Bakker' });
    const address = `zoon-${randomBytes(3).toString('hex')}@example.nl`;
    expect((await call('PUT', successorUrl(id), owner.token, { email: address })).statusCode).toBe(200);

    const res = await deleteAccount(owner.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ memorialsToBeRemoved: 0 });
    const { rows } = await t.db.query<{ status: string; remove_after: Date | null }>(
      'SELECT status, remove_after FROM memorials WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({ status: 'active', remove_after: null });

    const mail = await t.smtp.waitFor((m) => m.to.includes(address));
    expect(mail.subject).toBe('Je wordt eigenaar van de gedenkpagina van Gerrit Bakker');
    const code = /\/uitnodiging\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;

    // The person registers (any account) and accepts: owner of the page.
    const heir = await person('erfgenaam');
    const accepted = await call('POST', `/core/guest-invite/accept/${code}`, heir.token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ memorialId: id, role: 'owner' });
    expect(await roleOf(id, heir.userId)).toBe('owner');
    expect((await auditOf(id, 'successor.invited'))[0]?.details).toMatchObject({
      reason: 'account_deleted',
      outcome: 'invited',
    });
  });
});

describe('when the only owner stays silent for a year', () => {
  const run = () => runInactivityCheck(t.app.deps);
  const lastSeen = (userId: string, daysAgo: number) =>
    t.db.query(`UPDATE users SET last_seen_at = now() - make_interval(days => $2) WHERE id = $1`, [
      userId,
      daysAgo,
    ]);
  const remindedAgo = (userId: string, daysAgo: number) =>
    t.db.query(`UPDATE users SET inactivity_reminded_at = now() - make_interval(days => $2) WHERE id = $1`, [
      userId,
      daysAgo,
    ]);

  it('reminds twice, two weeks apart, then the successor becomes owner', async () => {
    const owner = await person('eigenaar');
    const editor = await person('redacteur');
    const { id } = await createMemorial(t, owner, { firstName: 'Truus', lastName: 'Visser' });
    await addMember(t, id, editor, 'editor');
    await t.db.query('INSERT INTO memorial_successors (memorial_id, user_id, named_by) VALUES ($1, $2, $3)', [
      id,
      editor.userId,
      owner.userId,
    ]);

    await lastSeen(owner.userId, 300);
    await run();
    expect(t.smtp.messages.filter((m) => m.to.includes(owner.email))).toHaveLength(0);

    await lastSeen(owner.userId, 366);
    await run();
    const first = await t.smtp.waitFor((m) => m.to.includes(owner.email));
    expect(first.subject).toBe('Je gedenkpagina bij Aandenken: ben je er nog?');
    expect(first.text).toContain('de gedenkpagina van Truus Visser');
    await run(); // not due again yet
    await remindedAgo(owner.userId, 10);
    await run();
    expect(t.smtp.messages.filter((m) => m.to.includes(owner.email))).toHaveLength(1);

    await remindedAgo(owner.userId, 14);
    await run();
    await t.smtp.waitFor((m) => m.to.includes(owner.email) && m.subject.startsWith('Tweede herinnering'));
    expect(await roleOf(id, editor.userId)).toBe('editor');

    await remindedAgo(owner.userId, 14);
    expect((await run()).handedOver).toBe(1);
    expect(await roleOf(id, editor.userId)).toBe('owner');
    expect(await roleOf(id, owner.userId)).toBe('owner');
    expect((await auditOf(id, 'member.owner_succeeded')).map((e) => e.details)).toEqual([
      { userId: editor.userId, reason: 'inactive', successor: true, outcome: 'owner' },
    ]);
    const { rows } = await t.db.query('SELECT 1 FROM memorial_successors WHERE memorial_id = $1', [id]);
    expect(rows).toHaveLength(0);
  });

  it('signing in starts the count again', async () => {
    const owner = await person('eigenaar');
    const editor = await person('redacteur');
    const { id } = await createMemorial(t, owner);
    await addMember(t, id, editor, 'editor');
    await t.db.query('INSERT INTO memorial_successors (memorial_id, user_id, named_by) VALUES ($1, $2, $3)', [
      id,
      editor.userId,
      owner.userId,
    ]);
    await lastSeen(owner.userId, 400);
    await run();
    await remindedAgo(owner.userId, 14);
    await run();
    const { rows: before } = await t.db.query<{ n: number }>(
      'SELECT inactivity_reminders AS n FROM users WHERE id = $1',
      [owner.userId],
    );
    expect(before[0]!.n).toBe(2);

    // The owner signs in (uses the app with their token).
    expect((await call('POST', '/core/memorial/query/partof', owner.token, {})).statusCode).toBe(200);
    await remindedAgo(owner.userId, 14);
    expect((await run()).handedOver).toBe(0);
    expect(await roleOf(id, editor.userId)).toBe('editor');
    const { rows: after } = await t.db.query<{ n: number; at: Date | null }>(
      'SELECT inactivity_reminders AS n, inactivity_reminded_at AS at FROM users WHERE id = $1',
      [owner.userId],
    );
    expect(after[0]).toEqual({ n: 0, at: null });
  });

  it('keeps last_seen_at current from the tokens the API sees', async () => {
    const owner = await person('eigenaar');
    await lastSeen(owner.userId, 400);
    expect((await call('POST', '/core/memorial/query/partof', owner.token, {})).statusCode).toBe(200);
    const { rows } = await t.db.query<{ recent: boolean }>(
      `SELECT last_seen_at > now() - interval '1 minute' AS recent FROM users WHERE id = $1`,
      [owner.userId],
    );
    expect(rows[0]!.recent).toBe(true);
  });
});

describe('the team hands a page over on request', () => {
  it('makes a verified account owner, with the reason in the audit log and a mail', async () => {
    const owner = await person('eigenaar');
    const daughter = await person('dochter');
    const { id } = await createMemorial(t, owner, { firstName: 'Kees', lastName: 'de Wit' });
    const url = `/core/team/memorials/${id}/hand-over`;
    expect((await call('POST', url, team, { email: daughter.email })).statusCode).toBe(400);
    expect((await call('POST', url, team, { email: daughter.email, reason: ' ' })).statusCode).toBe(400);
    const res = await call('POST', url, team, {
      email: daughter.email,
      reason: 'Verzoek van de dochter; de beheerder is overleden (akte gezien).',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ outcome: 'owner', memorialId: id });
    expect(await roleOf(id, daughter.userId)).toBe('owner');
    const [entry] = await auditOf(id, 'memorial.handed_over');
    expect(entry).toMatchObject({
      actor_kind: 'user',
      details: {
        email: daughter.email,
        reason: 'team',
        outcome: 'owner',
        note: 'Verzoek van de dochter; de beheerder is overleden (akte gezien).',
      },
    });
    const mail = await t.smtp.waitFor((m) => m.to.includes(daughter.email));
    expect(mail.subject).toBe('Je bent nu eigenaar van de gedenkpagina van Kees de Wit');
    expect(mail.text.split('\n')[0]).toBe(`Beste ${daughter.name},`);
  });

  it('invites an address without a verified account', async () => {
    const owner = await person('eigenaar');
    const { id } = await createMemorial(t, owner);
    const address = `neef-${randomBytes(3).toString('hex')}@example.nl`;
    const res = await call('POST', `/core/team/memorials/${id}/hand-over`, team, {
      email: address,
      reason: 'Verzoek van de familie',
    });
    expect(res.json()).toEqual({ outcome: 'invited', memorialId: id });
    const mail = await t.smtp.waitFor((m) => m.to.includes(address));
    expect(mail.text).toContain('Op verzoek van de familie');
    expect((await auditOf(id, 'memorial.handed_over'))[0]?.details).toMatchObject({ outcome: 'invited' });
  });

  it('never gives the page to an account whose address is unproven: that address is invited instead', async () => {
    const owner = await person('eigenaar');
    const { id } = await createMemorial(t, owner);
    const impostor = await person('indringer');
    await t.db.query('UPDATE accounts SET email_verified = false WHERE id::text = $1', [impostor.userId]);
    const res = await call('POST', `/core/team/memorials/${id}/hand-over`, team, {
      email: impostor.email,
      reason: 'Verzoek van de familie',
    });
    expect(res.json()).toEqual({ outcome: 'invited', memorialId: id });
    expect(await roleOf(id, impostor.userId)).toBeNull();
  });

  it('is for the team only: anonymous 401, owners and others 403; a missing page 404', async () => {
    const owner = await person('eigenaar');
    const { id } = await createMemorial(t, owner);
    const url = `/core/team/memorials/${id}/hand-over`;
    const body = { email: 'iemand@example.nl', reason: 'Verzoek' };
    expect((await call('POST', url, null, body)).statusCode).toBe(401);
    expect((await call('POST', url, await guestTokenFor(t, id), body)).statusCode).toBe(401);
    const refused = await call('POST', url, owner.token, body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Alleen het team van Aandenken kan dit doen.');
    expect(
      (await call('POST', `/core/team/memorials/${crypto.randomUUID()}/hand-over`, team, body)).statusCode,
    ).toBe(404);
    expect((await call('POST', '/core/team/memorials/geen-uuid/hand-over', team, body)).statusCode).toBe(404);
    expect(await auditOf(id, 'memorial.handed_over')).toHaveLength(0);
  });
});
