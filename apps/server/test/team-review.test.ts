/**
 * The team: reviewing partner applications (approve, reject with a reason), the company made
 * from an approved one and its first partner user, suspending and restoring it, who may read it, and
 * the audit log of every change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';

let t: TestContext;
let team: string;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'team@aandenken.test' });
  team = (await issueUserToken(t, { email: 'team@aandenken.test', name: 'Team' })).token;
});
afterAll(async () => t?.close());

const bearer = (token?: string) => (token ? { authorization: `Bearer ${token}` } : {});
let seq = 0;
async function apply(overrides: Record<string, string> = {}) {
  seq++;
  const email = overrides.email ?? `aanvrager-${seq}-${crypto.randomUUID().slice(0, 6)}@uitvaart.nl`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/core/companies/request',
    payload: {
      companyType: 'FuneralDirector',
      firstName: 'Anna',
      lastName: 'de Vries',
      companyName: 'Uitvaartzorg De Linde',
      streetName: 'Lindelaan',
      houseNumber: '12',
      postalCode: '3511 AB',
      phoneNumber: '030 123 4567',
      email,
      additionalInfo: 'Wij werken in Utrecht en omstreken.',
      ...overrides,
    },
  });
  expect(res.statusCode).toBe(201);
  return { id: res.json().id as string, email };
}
const approve = (id: string, token = team) =>
  t.app.inject({ method: 'POST', url: `/core/team/applications/${id}/approve`, headers: bearer(token) });
const reject = (id: string, reason: unknown, token = team) =>
  t.app.inject({
    method: 'POST',
    url: `/core/team/applications/${id}/reject`,
    headers: bearer(token),
    payload: { reason },
  });
const roles = (token: string) => t.app.inject({ url: '/core/account/roles', headers: bearer(token) });
const getCompany = (id: string, token?: string) =>
  t.app.inject({ url: `/core/companies/${id}`, headers: bearer(token) });
const setState = (id: string, action: 'suspend' | 'restore', token = team) =>
  t.app.inject({ method: 'POST', url: `/core/team/companies/${id}/${action}`, headers: bearer(token) });
const auditOf = async (id: string) =>
  (
    await t.db.query<{ action: string; actor_kind: string; actor_name: string | null }>(
      'SELECT action, actor_kind, actor_name FROM company_audit_log WHERE company_id = $1 ORDER BY seq',
      [id],
    )
  ).rows;
/** An account whose address was never verified (anyone can register any address). */
async function unverifiedToken(email: string) {
  await t.db.query('INSERT INTO accounts (email, name, email_verified) VALUES ($1, $2, false)', [
    email,
    'Iemand',
  ]);
  return (await issueUserToken(t, { email, name: 'Iemand' })).token;
}

describe('the review of applications', () => {
  it('lists pending applications with every field to the team only', async () => {
    const { id } = await apply();
    const res = await t.app.inject({ url: '/core/team/applications', headers: bearer(team) });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.find((a: { id: string }) => a.id === id)).toMatchObject({
      id,
      status: 'pending',
      companyName: 'Uitvaartzorg De Linde',
      companyType: 'FuneralDirector',
      firstName: 'Anna',
      streetName: 'Lindelaan',
      houseNumber: '12',
      postalCode: '3511 AB',
      phoneNumber: '030 123 4567',
      additionalInfo: 'Wij werken in Utrecht en omstreken.',
      company: null,
    });
    expect((await t.app.inject({ url: '/core/team/applications' })).statusCode).toBe(401);
    const stranger = (await issueUserToken(t, { email: 'iemand@example.nl' })).token;
    const refused = await t.app.inject({ url: '/core/team/applications', headers: bearer(stranger) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'Alleen het team van Aandenken kan dit doen.',
    });
    // The team's address, registered by someone who never proved it, is not the team.
    const impostor = await unverifiedToken('Team@Aandenken.test'.replace('Team', 'team2'));
    expect(
      (await t.app.inject({ url: '/core/team/applications', headers: bearer(impostor) })).statusCode,
    ).toBe(403);
  });

  it('approves: makes the active company with a unique slug, mails the applicant a sign-in link, logs it', async () => {
    const first = await apply({ companyName: 'Uitvaartzorg Ééndracht & Zn.' });
    const second = await apply({ companyName: 'Uitvaartzorg Ééndracht & Zn.' });
    const res = await approve(first.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: first.id,
      status: 'approved',
      company: { slug: 'uitvaartzorg-eendracht-en-zn', state: 'active' },
    });
    expect(res.json().decidedAt).toEqual(expect.any(String));
    expect((await approve(second.id)).json().company.slug).toBe('uitvaartzorg-eendracht-en-zn-2');

    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(first.email) && m.subject === 'Je partneraanvraag is goedgekeurd',
    );
    expect(mail.text).toContain('Beste Anna de Vries,');
    expect(mail.text).toContain(
      `http://localhost:8080/partner?login_hint=${encodeURIComponent(first.email)}`,
    );
    // Only our words: nothing the applicant wrote besides the name.
    expect(mail.text).not.toContain('Eendracht');
    expect(mail.text).not.toContain('Ééndracht');
    expect(mail.text).not.toContain('Utrecht');

    expect(await auditOf(first.id)).toEqual([
      { action: 'application.submitted', actor_kind: 'anonymous', actor_name: null },
      { action: 'application.approved', actor_kind: 'user', actor_name: 'Team' },
      { action: 'company.created', actor_kind: 'user', actor_name: 'Team' },
    ]);
    // Decided once: no second decision, no second company.
    const again = await approve(first.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 'CONFLICT', message: 'Over deze aanvraag is al besloten.' });
    expect((await reject(first.id, 'Toch niet')).statusCode).toBe(409);
    const companies = await t.app.inject({ url: '/core/team/companies', headers: bearer(team) });
    expect(companies.json().items.filter((c: { id: string }) => c.id === first.id)).toEqual([
      expect.objectContaining({
        id: first.id,
        state: 'active',
        users: 0,
        name: 'Uitvaartzorg Ééndracht & Zn.',
      }),
    ]);
  });

  it('rejects with a reason: mailed to the applicant, stored, logged; no company', async () => {
    const { id, email } = await apply();
    const empty = await reject(id, '   ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({ reason: 'Geef een reden op' });
    expect((await getCompany(id, team)).json().status).toBe('pending');

    const res = await reject(id, 'Wij werken nog niet in uw regio.');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Wij werken nog niet in uw regio.',
      company: null,
    });
    const mail = await t.smtp.waitFor((m) => m.to.includes(email) && m.subject === 'Over je partneraanvraag');
    expect(mail.text).toContain('Wij werken nog niet in uw regio.');
    expect(mail.text).not.toContain('Uitvaartzorg De Linde');
    expect((await t.db.query('SELECT 1 FROM companies WHERE id = $1', [id])).rows).toEqual([]);
    expect((await auditOf(id)).map((e) => e.action)).toEqual([
      'application.submitted',
      'application.rejected',
    ]);
    expect((await approve(id)).statusCode).toBe(409);
  });

  it('answers 404 for a missing or malformed application and 403 to non-team callers, changing nothing', async () => {
    expect((await approve(crypto.randomUUID())).statusCode).toBe(404);
    expect((await approve('geen-id')).statusCode).toBe(404);
    const { id } = await apply();
    const stranger = (await issueUserToken(t, { email: 'vreemde@example.nl' })).token;
    expect((await approve(id, stranger)).statusCode).toBe(403);
    expect((await reject(id, 'Nee', stranger)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: `/core/team/applications/${id}/approve` })).statusCode,
    ).toBe(401);
    expect((await getCompany(id, team)).json().status).toBe('pending');
  });
});

describe('the first partner user', () => {
  it('is the account with the verified address: it becomes the company administrator, logged', async () => {
    const { id, email } = await apply();
    await approve(id);
    // Someone else's account, or the address unverified, claims nothing.
    const other = (await issueUserToken(t, { email: 'ander@example.nl' })).token;
    expect((await roles(other)).json()).toEqual({ team: false, companies: [] });
    const impostor = await unverifiedToken(email);
    expect((await roles(impostor)).json()).toEqual({ team: false, companies: [] });
    expect((await getCompany(id, impostor)).statusCode).toBe(404);
    expect((await t.db.query('SELECT 1 FROM company_users WHERE company_id = $1', [id])).rows).toEqual([]);

    // The holder verifies the address (as the verification link does) and signs in again.
    await t.db.query('UPDATE accounts SET email_verified = true WHERE lower(email) = lower($1)', [email]);
    const { token } = await issueUserToken(t, { email, name: 'Anna de Vries' });
    const mine = (await roles(token)).json();
    expect(mine).toEqual({
      team: false,
      companies: [
        { id, slug: expect.any(String), name: 'Uitvaartzorg De Linde', state: 'active', isAdmin: true },
      ],
    });
    expect((await getCompany(id, token)).json()).toMatchObject({ id, company: { state: 'active' } });
    // Claimed once; the next sign-in finds the same, nobody else can claim it after.
    expect((await roles(token)).json()).toEqual(mine);
    expect((await auditOf(id)).at(-1)).toEqual({
      action: 'company.user_added',
      actor_kind: 'user',
      actor_name: 'Anna de Vries',
    });
    expect((await t.app.inject({ url: '/core/account/roles' })).statusCode).toBe(401);
  });

  it('does not come from a verification older than the token: a sign-in from before it claims nothing', async () => {
    const { id, email } = await apply();
    await approve(id);
    const { token } = await issueUserToken(t, { email });
    // Verified after this token was issued (as after a pre-hijack): the token is not the holder's.
    await t.db.query(
      "UPDATE accounts SET email_verified_at = now() + interval '1 minute' WHERE lower(email) = lower($1)",
      [email],
    );
    expect((await roles(token)).json().companies).toEqual([]);
  });
});

describe('suspending and restoring a company', () => {
  it('takes partner rights away while suspended and gives them back, logged; the team only', async () => {
    const { id, email } = await apply();
    await approve(id);
    const { token } = await issueUserToken(t, { email });
    await roles(token);
    const stranger = (await issueUserToken(t, { email: 'nog-iemand@example.nl' })).token;
    expect((await setState(id, 'suspend', stranger)).statusCode).toBe(403);
    expect((await setState(id, 'suspend', token)).statusCode).toBe(403);

    const suspended = await setState(id, 'suspend');
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json()).toMatchObject({ id, state: 'suspended', users: 1 });
    expect((await getCompany(id, token)).statusCode).toBe(404);
    expect((await roles(token)).json().companies).toEqual([
      expect.objectContaining({ id, state: 'suspended' }),
    ]);
    expect((await getCompany(id, team)).json().company.state).toBe('suspended');
    // Suspending a suspended company changes and logs nothing.
    expect((await setState(id, 'suspend')).statusCode).toBe(200);

    expect((await setState(id, 'restore')).json()).toMatchObject({ id, state: 'active' });
    expect((await getCompany(id, token)).statusCode).toBe(200);
    expect((await auditOf(id)).map((e) => e.action)).toEqual([
      'application.submitted',
      'application.approved',
      'company.created',
      'company.user_added',
      'company.suspended',
      'company.restored',
    ]);
    expect((await setState(crypto.randomUUID(), 'suspend')).statusCode).toBe(404);
    expect((await setState('kapot', 'restore')).statusCode).toBe(404);
  });
});

describe('GET /core/companies/{id}', () => {
  it('is for the team and the company’s own users; others 404 as for a missing one, anonymous 401', async () => {
    const a = await apply();
    const b = await apply();
    await approve(a.id);
    await approve(b.id);
    const userA = (await issueUserToken(t, { email: a.email })).token;
    const userB = (await issueUserToken(t, { email: b.email })).token;
    await roles(userA);
    await roles(userB);
    expect((await getCompany(a.id, team)).statusCode).toBe(200);
    expect((await getCompany(a.id, userA)).statusCode).toBe(200);
    const other = await getCompany(a.id, userB);
    const missing = await getCompany(crypto.randomUUID(), userB);
    expect(other.statusCode).toBe(404);
    expect(other.body).toBe(missing.body);
    expect((await getCompany(a.id)).statusCode).toBe(401);
  });
});

describe('granting the team role', () => {
  const members = (token = team) => t.app.inject({ url: '/core/team/members', headers: bearer(token) });
  const grant = (email: unknown, token = team) =>
    t.app.inject({ method: 'POST', url: '/core/team/members', headers: bearer(token), payload: { email } });
  const revoke = (email: string, token = team) =>
    t.app.inject({
      method: 'DELETE',
      url: `/core/team/members/${encodeURIComponent(email)}`,
      headers: bearer(token),
    });
  const teamAudit = async () =>
    (
      await t.db.query<{ action: string; email: string; actor_name: string }>(
        'SELECT action, email, actor_name FROM team_audit_log ORDER BY seq',
      )
    ).rows;

  it('gives a verified holder of the granted address team rights, and takes them back, logged', async () => {
    const email = 'nieuw-teamlid@aandenken.test';
    await t.db.query('INSERT INTO accounts (email, name, email_verified) VALUES ($1, $2, false)', [
      email,
      'Nieuw',
    ]);
    const unverified = (await issueUserToken(t, { email, name: 'Nieuw' })).token;
    expect((await roles(unverified)).json().team).toBe(false);

    const granted = await grant('Nieuw-Teamlid@aandenken.test');
    expect(granted.statusCode).toBe(201);
    expect(granted.json().items).toEqual([
      { email: 'team@aandenken.test', source: 'config', createdAt: null },
      { email, source: 'granted', createdAt: expect.any(String) },
    ]);
    // The address must be proven by its holder first.
    expect((await roles(unverified)).json().team).toBe(false);
    await t.db.query('UPDATE accounts SET email_verified = true WHERE email = $1', [email]);
    const verified = (await issueUserToken(t, { email, name: 'Nieuw' })).token;
    expect((await roles(verified)).json().team).toBe(true);
    expect(
      (await t.app.inject({ url: '/core/team/applications', headers: bearer(verified) })).statusCode,
    ).toBe(200);

    expect((await grant(email)).statusCode).toBe(409);
    expect((await grant('team@aandenken.test')).statusCode).toBe(409);
    expect((await grant('geen adres')).statusCode).toBe(400);
    expect((await revoke('team@aandenken.test')).statusCode).toBe(409);
    expect((await revoke(email)).statusCode).toBe(204);
    expect((await roles(verified)).json().team).toBe(false);
    expect((await revoke(email)).statusCode).toBe(404);
    expect(await teamAudit()).toEqual([
      { action: 'team.granted', email, actor_name: 'Team' },
      { action: 'team.revoked', email, actor_name: 'Team' },
    ]);
  });

  it('is for the team only', async () => {
    const stranger = (await issueUserToken(t, { email: 'buiten@example.nl' })).token;
    expect((await members(stranger)).statusCode).toBe(403);
    expect((await grant('buiten@example.nl', stranger)).statusCode).toBe(403);
    expect((await revoke('buiten@example.nl', stranger)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/core/team/members' })).statusCode).toBe(401);
    expect(
      (await t.db.query('SELECT 1 FROM team_members WHERE email = $1', ['buiten@example.nl'])).rows,
    ).toEqual([]);
  });
});
