/**
 * The partner portal: colleagues (invite, join with a verified address, administrator, remove),
 * pages made for a family (created, mailed, taken over by the family, the partner role as the family
 * decides, "Verzorgd door"), the list with its counters, and who may do what.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { decodeJwt } from 'jose';
import { companyRepository } from '../src/modules/companies/repository.ts';
import { Browser, registerThroughProvider } from './identity-flow.ts';

let t: TestContext;
let team: string;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'team@aandenken.test' });
  team = (await issueUserToken(t, { email: 'team@aandenken.test', name: 'Team' })).token;
});
afterAll(async () => t?.close());

const bearer = (token?: string | null) => (token ? { authorization: `Bearer ${token}` } : {});
const uid = () => crypto.randomUUID().slice(0, 8);
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token?: string | null, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload } : {}) });

let seq = 1;
/** An approved company with its first user (administrator), who claimed it with a verified address. */
async function company(name = 'Uitvaartzorg De Linde') {
  const email = `eigenaar-${uid()}@linde.nl`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/core/companies/request',
    // Applications are limited per client address.
    remoteAddress: `10.${seq >> 8}.${seq++ & 255}.7`,
    payload: {
      companyType: 'FuneralDirector',
      firstName: 'Anna',
      lastName: 'de Vries',
      companyName: name,
      streetName: 'Lindelaan',
      houseNumber: '12',
      postalCode: '3511 AB',
      phoneNumber: '030 123 4567',
      email,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  expect((await call('POST', `/core/team/applications/${id}/approve`, team)).statusCode).toBe(200);
  const admin = await issueUserToken(t, { email, name: 'Anna de Vries' });
  expect((await call('GET', '/core/account/roles', admin.token)).json().companies).toHaveLength(1);
  return { id, admin: { ...admin, email } };
}
/** A colleague who was invited and joined with their verified address. */
async function colleague(companyId: string, adminToken: string, name = 'Bram Bos') {
  const email = `collega-${uid()}@linde.nl`;
  expect(
    (await call('POST', `/core/companies/${companyId}/invitations`, adminToken, { email })).statusCode,
  ).toBe(201);
  const u = await issueUserToken(t, { email, name });
  expect((await call('GET', '/core/account/roles', u.token)).json().companies).toEqual([
    expect.objectContaining({ id: companyId, isAdmin: false }),
  ]);
  return { ...u, email };
}
async function createPage(companyId: string, token: string, familyEmail = `familie-${uid()}@example.nl`) {
  const res = await call('POST', `/core/companies/${companyId}/pages`, token, {
    firstName: 'Johanna',
    lastName: 'Willems',
    birthDate: '1941-03-02',
    deathDate: '2026-11-01',
    familyEmail,
  });
  expect(res.statusCode, res.body).toBe(201);
  const mail = await t.smtp.waitFor((m) => m.to.includes(familyEmail), 20_000);
  const code = /\/overnemen\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
  return { memorialId: res.json().memorialId as string, familyEmail, code, mail, page: res.json() };
}
const companyAudit = async (id: string) =>
  (
    await t.db.query<{ action: string; details: Record<string, unknown> }>(
      'SELECT action, details FROM company_audit_log WHERE company_id = $1 ORDER BY seq',
      [id],
    )
  ).rows;
const accept = (code: string, token: string, partnerRoleAllowed = false, shownPublicly = false) =>
  call('POST', `/core/handover/${code}/accept`, token, { partnerRoleAllowed, shownPublicly });

describe('colleagues', () => {
  it('an administrator invites by e-mail (a Dutch mail); the verified address joins; logged', async () => {
    const c = await company();
    const email = `nieuw-${uid()}@linde.nl`;
    const res = await call('POST', `/core/companies/${c.id}/invitations`, c.admin.token, { email });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().invitations).toEqual([expect.objectContaining({ email, expired: false })]);
    const mail = await t.smtp.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toBe('Uitnodiging: collega bij Uitvaartzorg De Linde');
    expect(mail.text).toContain('Anna de Vries nodigt je uit');
    expect(mail.text).toContain(`http://localhost:8080/partner?login_hint=${encodeURIComponent(email)}`);
    // Again while open: refused.
    expect(
      (await call('POST', `/core/companies/${c.id}/invitations`, c.admin.token, { email })).json().code,
    ).toBe('INVITE_PENDING');

    // Someone who registered the address without proving it gets nothing.
    await t.db.query('INSERT INTO accounts (email, name, email_verified) VALUES ($1, $2, false)', [
      email,
      'X',
    ]);
    const unverified = await issueUserToken(t, { email });
    expect((await call('GET', '/core/account/roles', unverified.token)).json().companies).toEqual([]);
    expect((await call('GET', `/core/companies/${c.id}/users`, unverified.token)).statusCode).toBe(404);
    await t.db.query('UPDATE accounts SET email_verified = true WHERE lower(email) = $1', [email]);
    const verified = await issueUserToken(t, { email, name: 'Nieuwe Collega' });
    expect((await call('GET', '/core/account/roles', verified.token)).json().companies).toEqual([
      expect.objectContaining({ id: c.id, isAdmin: false, state: 'active' }),
    ]);
    const list = (await call('GET', `/core/companies/${c.id}/users`, c.admin.token)).json();
    expect(list.users.map((u: { email: string; isAdmin: boolean }) => [u.email, u.isAdmin])).toEqual([
      [c.admin.email, true],
      [email, false],
    ]);
    expect(list.invitations).toEqual([]);
    // A colleague sees the colleagues, not the invitations, and may not invite.
    const own = (await call('GET', `/core/companies/${c.id}/users`, verified.token)).json();
    expect(own.users).toHaveLength(2);
    expect(own.invitations).toEqual([]);
    expect(
      (await call('POST', `/core/companies/${c.id}/invitations`, verified.token, { email: 'x@example.nl' }))
        .statusCode,
    ).toBe(403);
    expect((await companyAudit(c.id)).map((a) => a.action)).toEqual(
      expect.arrayContaining(['company.user_invited', 'company.user_added']),
    );
    const added = (await companyAudit(c.id)).filter((a) => a.action === 'company.user_added');
    expect(added.map((a) => a.details.admin)).toEqual([true, false]);
  });

  it('refuses to invite a colleague who is already one; an invitation can be revoked (logged)', async () => {
    const c = await company();
    const res = await call('POST', `/core/companies/${c.id}/invitations`, c.admin.token, {
      email: c.admin.email,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ALREADY_COLLEAGUE');
    const email = `weg-${uid()}@linde.nl`;
    const inv = (await call('POST', `/core/companies/${c.id}/invitations`, c.admin.token, { email })).json()
      .invitations[0];
    expect(
      (await call('DELETE', `/core/companies/${c.id}/invitations/${inv.id}`, c.admin.token)).statusCode,
    ).toBe(204);
    expect(
      (await call('DELETE', `/core/companies/${c.id}/invitations/${inv.id}`, c.admin.token)).statusCode,
    ).toBe(404);
    // The revoked address claims nothing.
    const u = await issueUserToken(t, { email });
    expect((await call('GET', '/core/account/roles', u.token)).json().companies).toEqual([]);
    expect((await companyAudit(c.id)).map((a) => a.action)).toContain('company.invitation_revoked');
  });

  it('makes a colleague administrator; always keeps one; removes a colleague, whose rights end at once', async () => {
    const c = await company();
    const b = await colleague(c.id, c.admin.token);
    // The only administrator cannot step down or leave.
    const down = await call('PUT', `/core/companies/${c.id}/users/${c.admin.userId}`, c.admin.token, {
      isAdmin: false,
    });
    expect(down.statusCode).toBe(409);
    expect(down.json().code).toBe('LAST_ADMIN');
    expect(
      (await call('DELETE', `/core/companies/${c.id}/users/${c.admin.userId}`, c.admin.token)).json().code,
    ).toBe('LAST_ADMIN');
    // A colleague may not make themselves administrator.
    expect(
      (await call('PUT', `/core/companies/${c.id}/users/${b.userId}`, b.token, { isAdmin: true })).statusCode,
    ).toBe(403);
    const up = await call('PUT', `/core/companies/${c.id}/users/${b.userId}`, c.admin.token, {
      isAdmin: true,
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().users.find((u: { userId: string }) => u.userId === b.userId).isAdmin).toBe(true);
    // Now the first may step down.
    expect(
      (
        await call('PUT', `/core/companies/${c.id}/users/${c.admin.userId}`, c.admin.token, {
          isAdmin: false,
        })
      ).statusCode,
    ).toBe(200);
    // The new administrator removes the first; the first loses the company and its pages at once.
    const { memorialId } = await createPage(c.id, c.admin.token);
    expect((await call('GET', `/core/memorial/${memorialId}`, c.admin.token)).json().role).toBe('editor');
    expect(
      (await call('DELETE', `/core/companies/${c.id}/users/${c.admin.userId}`, b.token)).statusCode,
    ).toBe(204);
    expect((await call('GET', `/core/companies/${c.id}`, c.admin.token)).statusCode).toBe(404);
    expect((await call('GET', `/core/companies/${c.id}/pages`, c.admin.token)).statusCode).toBe(404);
    expect((await call('GET', `/core/memorial/${memorialId}`, c.admin.token)).statusCode).toBe(404);
    expect((await call('GET', '/core/account/roles', c.admin.token)).json().companies).toEqual([]);
    expect((await companyAudit(c.id)).map((a) => a.action)).toEqual(
      expect.arrayContaining(['company.admin_granted', 'company.admin_revoked', 'company.user_removed']),
    );
  });

  it('a colleague may leave; another company or a stranger cannot see or change the colleagues', async () => {
    const c = await company();
    const b = await colleague(c.id, c.admin.token);
    const other = await company('Uitvaart Anders');
    const stranger = await issueUserToken(t, { email: `vreemde-${uid()}@example.nl` });
    for (const token of [other.admin.token, stranger.token]) {
      expect((await call('GET', `/core/companies/${c.id}/users`, token)).statusCode).toBe(404);
      expect(
        (await call('POST', `/core/companies/${c.id}/invitations`, token, { email: 'a@example.nl' }))
          .statusCode,
      ).toBe(404);
      expect((await call('DELETE', `/core/companies/${c.id}/users/${b.userId}`, token)).statusCode).toBe(404);
    }
    expect((await call('GET', `/core/companies/${c.id}/users`)).statusCode).toBe(401);
    expect((await call('DELETE', `/core/companies/${c.id}/users/${b.userId}`, b.token)).statusCode).toBe(204);
    expect((await companyAudit(c.id)).map((a) => a.action)).toContain('company.user_left');
  });
});

describe('a page for a family', () => {
  it('is created as a concept without owner, the family mailed in Dutch; the company manages it', async () => {
    const c = await company();
    const b = await colleague(c.id, c.admin.token);
    const { memorialId, mail, page, familyEmail } = await createPage(c.id, b.token);
    expect(page).toMatchObject({
      firstName: 'Johanna',
      lastName: 'Willems',
      birthDate: '1941-03-02',
      deathDate: '2026-11-01',
      status: 'concept',
      state: 'waiting',
      partnerRole: true,
      familyEmail,
      counts: { visitors: 0, memories: 0, candles: 0 },
    });
    expect(mail.subject).toBe('Neem de gedenkpagina van Johanna Willems over');
    expect(mail.text).toContain(
      'Uitvaartzorg De Linde heeft op Aandenken de gedenkpagina van Johanna Willems',
    );
    expect(mail.text).toMatch(/http:\/\/localhost:8080\/overnemen\/[A-Za-z0-9_-]{32}/);
    // Every colleague manages it (as editor), publishes it; no owner yet.
    for (const token of [c.admin.token, b.token])
      expect((await call('GET', `/core/memorial/${memorialId}`, token)).json().role).toBe('editor');
    const pub = await call('PUT', '/core/memorial', c.admin.token, { id: memorialId, status: 'active' });
    expect(pub.statusCode, pub.body).toBe(200);
    const owners = await t.db.query('SELECT 1 FROM memorial_members WHERE memorial_id = $1', [memorialId]);
    expect(owners.rows).toHaveLength(0);
    // The partner cannot hand the page to someone else through an ordinary invite for owner.
    expect(
      (
        await call('POST', `/core/guest-invite/${memorialId}`, c.admin.token, {
          email: 'iemand@example.nl',
          role: 'editor',
        })
      ).statusCode,
    ).toBe(403);
    expect((await companyAudit(c.id)).map((a) => a.action)).toContain('care.page_created');
    // The family's invitation is the portal's to send again, not listed among the page's invitations.
    const invites = await call('POST', '/core/guest-invite/query', c.admin.token, { memorialId });
    expect(invites.statusCode, invites.body).toBe(200);
    expect(invites.json().items).toEqual([]);
  });

  it('applies the domain rules of a family-made page', async () => {
    const c = await company();
    const bad = await call('POST', `/core/companies/${c.id}/pages`, c.admin.token, {
      firstName: '',
      lastName: 'Willems',
      birthDate: '2020-01-01',
      deathDate: '2019-01-01',
      familyEmail: 'geen-adres',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields ?? {})).toEqual(
      expect.arrayContaining(['firstName', 'familyEmail']),
    );
    const order = await call('POST', `/core/companies/${c.id}/pages`, c.admin.token, {
      firstName: 'Piet',
      lastName: 'Smit',
      birthDate: '2020-01-01',
      deathDate: '2019-01-01',
      familyEmail: 'familie@example.nl',
    });
    expect(order.statusCode).toBe(400);
    expect(order.json().fields).toMatchObject({ deathDate: expect.any(String) });
  });

  it('the family previews, registers (verified) and accepts: owner; without permission the partner is out', async () => {
    const c = await company();
    const { memorialId, code, familyEmail } = await createPage(c.id, c.admin.token);
    const preview = await call('GET', `/core/handover/${code}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      memorialId,
      memorialName: 'Johanna Willems',
      companyName: 'Uitvaartzorg De Linde',
      status: 'pending',
    });
    expect((await call('GET', `/core/handover/${'x'.repeat(32)}`)).statusCode).toBe(404);
    expect((await accept(code, '')).statusCode).toBe(401);
    // An unverified account cannot take it over.
    await t.db.query('INSERT INTO accounts (email, name, email_verified) VALUES ($1, $2, false)', [
      familyEmail,
      'Familie',
    ]);
    const unverified = await issueUserToken(t, { email: familyEmail });
    const refused = await accept(code, unverified.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('EMAIL_NOT_VERIFIED');
    // The company's own users cannot take it over either.
    expect((await accept(code, c.admin.token)).statusCode).toBe(409);
    // The ordinary invite acceptance refuses this invitation.
    expect((await call('POST', `/core/guest-invite/accept/${code}`, c.admin.token)).json().code).toBe(
      'HANDOVER_INVITE',
    );
    await t.db.query('UPDATE accounts SET email_verified = true WHERE lower(email) = $1', [familyEmail]);
    const family = await issueUserToken(t, { email: familyEmail, name: 'Familie Willems' });
    const ok = await accept(code, family.token);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ memorialId, newAccessCode: expect.stringMatching(/^\d{8}$/) });
    expect((await call('GET', `/core/memorial/${memorialId}`, family.token)).json().role).toBe('owner');
    // Accepting again: the same answer; someone else: used.
    expect((await accept(code, family.token)).statusCode).toBe(200);
    const someone = await issueUserToken(t, { email: `iemand-${uid()}@example.nl` });
    expect((await accept(code, someone.token)).json().code).toBe('INVITE_USED');
    expect((await call('GET', `/core/handover/${code}`)).json().status).toBe('accepted');

    // The partner was not allowed: no page management, no private data.
    expect((await call('GET', `/core/memorial/${memorialId}`, c.admin.token)).statusCode).toBe(404);
    expect(
      (await call('PUT', '/core/memorial', c.admin.token, { id: memorialId, quote: 'x' })).statusCode,
    ).toBe(404);
    expect((await call('POST', '/core/memorial/users/query', c.admin.token, { memorialId })).statusCode).toBe(
      404,
    );
    expect((await call('GET', `/core/memorial/${memorialId}/care`, c.admin.token)).statusCode).toBe(404);
    // The list still shows it, handed over, without the partner's role.
    const list = (await call('GET', `/core/companies/${c.id}/pages`, c.admin.token)).json().items;
    expect(list[0]).toMatchObject({
      memorialId,
      state: 'handed_over',
      partnerRole: false,
      shownPublicly: false,
    });
    expect(list[0].counts.visitors).toBe(1);
    // Nothing to resend any more.
    expect(
      (await call('POST', `/core/companies/${c.id}/pages/${memorialId}/resend`, c.admin.token)).statusCode,
    ).toBe(409);
    expect((await companyAudit(c.id)).map((a) => a.action)).toContain('care.handed_over');
  });

  it('the family allows the partner role, withdraws it, and grants it again; each change logged', async () => {
    const c = await company();
    const { memorialId, code, familyEmail } = await createPage(c.id, c.admin.token);
    const family = await issueUserToken(t, { email: familyEmail, name: 'Familie' });
    expect((await accept(code, family.token, true, false)).statusCode).toBe(200);
    expect((await call('GET', `/core/memorial/${memorialId}`, c.admin.token)).json().role).toBe('editor');
    const care = await call('GET', `/core/memorial/${memorialId}/care`, family.token);
    expect(care.json()).toMatchObject({
      companyName: 'Uitvaartzorg De Linde',
      state: 'handed_over',
      partnerRoleAllowed: true,
      shownPublicly: false,
    });
    // Only the family (an owner) decides; the partner as editor may not.
    expect(
      (await call('PUT', `/core/memorial/${memorialId}/care`, c.admin.token, { partnerRoleAllowed: true }))
        .statusCode,
    ).toBe(403);
    const off = await call('PUT', `/core/memorial/${memorialId}/care`, family.token, {
      partnerRoleAllowed: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await call('GET', `/core/memorial/${memorialId}`, c.admin.token)).statusCode).toBe(404);
    expect(
      (await call('GET', `/core/companies/${c.id}/pages`, c.admin.token)).json().items[0].partnerRole,
    ).toBe(false);
    await call('PUT', `/core/memorial/${memorialId}/care`, family.token, { partnerRoleAllowed: true });
    expect((await call('GET', `/core/memorial/${memorialId}`, c.admin.token)).json().role).toBe('editor');
    const audit = await t.db.query<{ action: string }>(
      `SELECT action FROM memorial_audit_log WHERE memorial_id = $1 ORDER BY created_at, id`,
      [memorialId],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        'care.handed_over',
        'care.partner_role_withdrawn',
        'care.partner_role_granted',
      ]),
    );
    expect((await companyAudit(c.id)).map((a) => a.action)).toEqual(
      expect.arrayContaining(['care.partner_role_withdrawn', 'care.partner_role_granted']),
    );
  });

  it('"Verzorgd door" on the page and on the company list only when the family agrees', async () => {
    const c = await company('Uitvaartzorg Getoond');
    const { memorialId, code, familyEmail } = await createPage(c.id, c.admin.token);
    const family = await issueUserToken(t, { email: familyEmail });
    expect((await call('GET', `/core/memorial/${memorialId}`, c.admin.token)).json().caredBy).toBeNull();
    expect((await accept(code, family.token, false, true)).statusCode).toBe(200);
    await call('PUT', '/core/memorial', family.token, {
      id: memorialId,
      status: 'active',
      visibility: 'public',
    });
    const slug = (await call('GET', `/core/companies/${c.id}`, team)).json().company.slug;
    const anonymous = await call('GET', `/core/memorial/${memorialId}`);
    expect(anonymous.json().caredBy).toEqual({ name: 'Uitvaartzorg Getoond', slug });
    const shown = await companyRepository(t.db).listCaredPagesShown(c.id);
    expect(shown).toEqual([
      expect.objectContaining({ memorialId, title: 'Johanna Willems', deathDate: '2026-11-01' }),
    ]);
    // The company's public page lists it (and is cached from here on).
    const publicPage = async () => (await call('GET', `/core/public/companies/${slug}`)).json().caredPages;
    expect(await publicPage()).toEqual([
      {
        id: memorialId,
        slug: expect.stringMatching(/^johanna-willems-1941-2026(-\d+)?$/),
        name: 'Johanna Willems',
        birthDate: '1941-03-02',
        deathDate: '2026-11-01',
      },
    ]);
    // A new name on the page reaches the cached company page.
    await call('PUT', '/core/memorial', family.token, { id: memorialId, firstName: 'Jo' });
    await expect.poll(async () => (await publicPage())[0]?.name).toBe('Jo Willems');
    // Hidden again: gone from the page (the cache too), from the list and from the company's page.
    await call('PUT', `/core/memorial/${memorialId}/care`, family.token, { shownPublicly: false });
    await expect
      .poll(async () => (await call('GET', `/core/memorial/${memorialId}`)).json().caredBy)
      .toBeNull();
    expect(await companyRepository(t.db).listCaredPagesShown(c.id)).toEqual([]);
    await expect.poll(publicPage).toEqual([]);
  });

  it('is paid by the company: Premium from the start, no payment screen for the family, listed as owed', async () => {
    const c = await company();
    const { memorialId, code, familyEmail } = await createPage(c.id, c.admin.token);
    const listed = (await call('GET', `/core/companies/${c.id}/pages`, c.admin.token)).json().items;
    expect(listed).toEqual([expect.objectContaining({ memorialId, paidByCompany: true })]);
    const family = await issueUserToken(t, { email: familyEmail });
    expect((await accept(code, family.token)).statusCode).toBe(200);
    const plan = await call('GET', `/core/memorial/${memorialId}/plan`, family.token);
    expect(plan.statusCode, plan.body).toBe(200);
    expect(plan.json()).toMatchObject({
      plan: 'premium',
      paidByCompany: true,
      canPay: false,
    });
  });

  it('counts visitors (members + used one-time links), memories and candles per page', async () => {
    const c = await company();
    const { memorialId, code, familyEmail } = await createPage(c.id, c.admin.token);
    const family = await issueUserToken(t, { email: familyEmail });
    await accept(code, family.token, true, false);
    await call('PUT', '/core/memorial', family.token, {
      id: memorialId,
      status: 'active',
      visibility: 'public',
    });
    const candle = await call('POST', `/core/candles/${memorialId}`, null, { name: 'Oma', kind: 'candle' });
    expect(candle.statusCode, candle.body).toBeLessThan(300);
    const concept = await call('POST', '/core/memories/concept', family.token, {
      memorialId,
      yearLabel: '1975',
      text: 'Samen aan zee.',
    });
    expect(concept.statusCode, concept.body).toBe(201);
    const memory = await call('POST', '/core/memories/publish', family.token, { id: concept.json().id });
    expect(memory.statusCode, memory.body).toBe(200);
    const page = (await call('GET', `/core/companies/${c.id}/pages`, c.admin.token)).json().items[0];
    expect(page.counts).toEqual({ visitors: 1, memories: 1, candles: 1 });
  });

  it('resends the family invitation with a new link; the old one stops working', async () => {
    const c = await company();
    const { memorialId, code, familyEmail } = await createPage(c.id, c.admin.token);
    const before = t.smtp.messages.length;
    expect(
      (await call('POST', `/core/companies/${c.id}/pages/${memorialId}/resend`, c.admin.token)).statusCode,
    ).toBe(200);
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(familyEmail) && t.smtp.messages.indexOf(m) >= before,
    );
    const fresh = /\/overnemen\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    expect(fresh).not.toBe(code);
    expect((await call('GET', `/core/handover/${code}`)).statusCode).toBe(404);
    expect((await call('GET', `/core/handover/${fresh}`)).statusCode).toBe(200);
  });
});

describe('a link mailed to the family proves its address', () => {
  const verifiedOf = async (email: string) =>
    (
      await t.db.query<{ email_verified: boolean }>(
        'SELECT email_verified FROM accounts WHERE lower(email) = lower($1)',
        [email],
      )
    ).rows[0]?.email_verified;
  const register = (email: string, returnPath: string) =>
    registerThroughProvider(
      t.app,
      { name: 'Familie Willems', email, password: 'een-veilig-wachtwoord' },
      new Browser(t.app),
      returnPath,
    );

  it('registering from the handover link with the address it was sent to: confirmed at once, the page taken over without a mail', async () => {
    const c = await company();
    const { code, familyEmail, memorialId } = await createPage(c.id, c.admin.token);
    const { tokens } = await register(familyEmail.toUpperCase(), `/overnemen/${code}`);
    expect(await verifiedOf(familyEmail)).toBe(true);
    expect(decodeJwt(tokens.id_token).email_verified).toBe(true);
    const ok = await accept(code, tokens.access_token);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().memorialId).toBe(memorialId);
    // No confirmation mail was even queued (it would be in the same transaction as the account).
    const { rows: queued } = await t.db.query(
      `SELECT 1 FROM mail_outbox WHERE subject LIKE 'Bevestig%' AND to_addresses::text ILIKE $1`,
      [`%${familyEmail}%`],
    );
    expect(queued).toEqual([]);
  });

  it('another address, an unknown or spent code: not confirmed, a confirmation mail that leads back to the link', async () => {
    const c = await company();
    const { code, familyEmail } = await createPage(c.id, c.admin.token);
    const other = `ander-${uid()}@example.nl`;
    const { tokens } = await register(other, `/overnemen/${code}`);
    expect(await verifiedOf(other)).toBe(false);
    expect((await accept(code, tokens.access_token)).json().code).toBe('EMAIL_NOT_VERIFIED');
    const mail = await t.smtp.waitFor((m) => m.to.includes(other) && m.subject.startsWith('Bevestig'));
    expect(new URL(/(http:\/\/\S+)/.exec(mail.text)![1]!).searchParams.get('terug')).toBe(
      `/overnemen/${code}`,
    );
    // A made-up code does not prove the address either.
    const guessed = `familie-${uid()}@example.nl`;
    await register(guessed, `/overnemen/${'A'.repeat(32)}`);
    expect(await verifiedOf(guessed)).toBe(false);
    // Once the page is taken over, its link proves nothing more.
    await t.db.query(
      'UPDATE guest_invites SET revoked_at = now() WHERE code_hash IS NOT NULL AND lower(email) = $1',
      [familyEmail],
    );
    await register(familyEmail, `/overnemen/${code}`);
    expect(await verifiedOf(familyEmail)).toBe(false);
  });

  it('registering from an invitation link with its address: confirmed at once; with another address: not', async () => {
    const c = await company();
    const { memorialId } = await createPage(c.id, c.admin.token);
    const relative = `kees-${uid()}@example.nl`;
    const invited = await call('POST', `/core/guest-invite/${memorialId}`, c.admin.token, {
      email: relative,
      role: 'guest',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const mail = await t.smtp.waitFor((m) => m.to.includes(relative));
    const code = /\/uitnodiging\/([\w-]+)/.exec(mail.text)![1]!;
    const stranger = `iemand-${uid()}@example.nl`;
    await register(stranger, `/uitnodiging/${code}?accepteren=1`);
    expect(await verifiedOf(stranger)).toBe(false);
    const { tokens } = await register(relative, `/uitnodiging/${code}?accepteren=1`);
    expect(await verifiedOf(relative)).toBe(true);
    expect((await call('POST', `/core/guest-invite/accept/${code}`, tokens.access_token)).statusCode).toBe(
      200,
    );
  });
});

describe('a handover without the partner role shuts the company out', () => {
  let address = 1;
  /** A guest token for the code, as a visitor gets it (each from its own address: failures are counted). */
  const codeToken = (accessCode: string) =>
    t.app.inject({
      method: 'POST',
      url: '/core/guest/token',
      remoteAddress: `10.200.${address >> 8}.${address++ & 255}`,
      payload: { accessCode },
    });
  const mailAfter = (to: string, before: number) =>
    t.smtp.waitFor((m) => m.to.includes(to) && t.smtp.messages.indexOf(m) >= before, 20_000);
  /** The company invites someone to the page, as it may while it manages it; the mail's code and guest link. */
  async function companyInvites(
    memorialId: string,
    token: string,
    role: 'contributor' | 'guest',
    name: string,
  ) {
    const email = `${name.toLowerCase()}-${uid()}@example.nl`;
    const before = t.smtp.messages.length;
    const res = await call('POST', `/core/guest-invite/${memorialId}`, token, { email, role, name });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await mailAfter(email, before);
    return {
      email,
      code: /\/uitnodiging\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!,
      link: /#gasttoken=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!,
    };
  }
  /** The invitee registers with the invited address and accepts. */
  async function joins(memorialId: string, inv: { email: string; code: string }, name: string) {
    const user = await issueUserToken(t, { email: inv.email, name });
    const res = await call('POST', `/core/guest-invite/accept/${inv.code}`, user.token);
    expect(res.statusCode, res.body).toBe(200);
    expect((await call('GET', `/core/memorial/${memorialId}`, user.token)).statusCode).toBe(200);
    return { ...user, email: inv.email, memberId: res.json().memberId as string };
  }
  /**
   * A published page the company manages: its access code and a guest token from it, two people the
   * company invited who joined (Kees, contributor; Lies, guest), and one invitation still open with the
   * guest token its one-time link gave.
   */
  async function pageWithPeople() {
    const c = await company();
    const page = await createPage(c.id, c.admin.token);
    const published = await call('PUT', '/core/memorial', c.admin.token, {
      id: page.memorialId,
      status: 'active',
    });
    expect(published.statusCode, published.body).toBe(200);
    const oldCode = (await call('GET', `/core/memorial/${page.memorialId}`, c.admin.token)).json()
      .accessCode as string;
    const guest = await codeToken(oldCode);
    expect(guest.statusCode, guest.body).toBe(200);
    const kees = await joins(
      page.memorialId,
      await companyInvites(page.memorialId, c.admin.token, 'contributor', 'Kees'),
      'Kees Jansen',
    );
    const lies = await joins(
      page.memorialId,
      await companyInvites(page.memorialId, c.admin.token, 'guest', 'Lies'),
      'Lies Bakker',
    );
    const open = await companyInvites(page.memorialId, c.admin.token, 'guest', 'Open');
    const linkToken = await call('POST', '/core/guest/token-consume', null, { token: open.link });
    expect(linkToken.statusCode, linkToken.body).toBe(200);
    const family = await issueUserToken(t, { email: page.familyEmail, name: 'Familie Willems' });
    return {
      c,
      ...page,
      oldCode,
      guestToken: guest.json().token as string,
      kees,
      lies,
      open,
      openLinkToken: linkToken.json().token as string,
      family,
    };
  }
  const memberEmails = async (memorialId: string, token: string) =>
    (await call('POST', '/core/memorial/users/query', token, { memorialId }))
      .json()
      .items.map((m: { email: string }) => m.email)
      .sort();

  it('lists whom the company invited; without the role: the open invitation ends, the family keeps whom it chooses, the page gets a new code', async () => {
    const p = await pageWithPeople();
    const list = await call('GET', `/core/handover/${p.code}/members`, p.family.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({
      items: [
        expect.objectContaining({
          memberId: p.kees.memberId,
          name: 'Kees Jansen',
          role: 'contributor',
          invitedByName: 'Anna de Vries',
          companyUser: false,
        }),
        expect.objectContaining({ memberId: p.lies.memberId, name: 'Lies Bakker', role: 'guest' }),
      ],
      openInvitations: 1,
    });
    // Only the family: the company's own users get 409, a user without a verified address 403.
    expect((await call('GET', `/core/handover/${p.code}/members`, p.c.admin.token)).statusCode).toBe(409);
    expect((await call('GET', `/core/handover/${p.code}/members`)).statusCode).toBe(401);

    const ok = await call('POST', `/core/handover/${p.code}/accept`, p.family.token, {
      partnerRoleAllowed: false,
      shownPublicly: false,
      keepMemberIds: [p.kees.memberId],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const newCode = ok.json().newAccessCode as string;
    expect(newCode).toMatch(/^\d{8}$/);
    expect(newCode).not.toBe(p.oldCode);
    // The page shows the family the same new code.
    expect((await call('GET', `/core/memorial/${p.memorialId}`, p.family.token)).json().accessCode).toBe(
      newCode,
    );

    // The code the company saw opens nothing; the guest token it gave is refused; the new code works.
    expect((await codeToken(p.oldCode)).statusCode).toBe(404);
    expect((await call('GET', `/core/memorial/${p.memorialId}`, p.guestToken)).statusCode).toBe(401);
    expect((await codeToken(newCode)).statusCode).toBe(200);
    // The company's open invitation can no longer be accepted, and the guest token of its link is refused.
    const late = await issueUserToken(t, { email: p.open.email, name: 'Te Laat' });
    const lateAccept = await call('POST', `/core/guest-invite/accept/${p.open.code}`, late.token);
    expect(lateAccept.statusCode).toBe(404);
    expect(lateAccept.json().code).toBe('INVITE_NOT_FOUND');
    expect((await call('GET', `/core/memorial/${p.memorialId}`, p.openLinkToken)).statusCode).toBe(401);
    // Kees was kept, Lies was removed.
    expect((await call('GET', `/core/memorial/${p.memorialId}`, p.kees.token)).json().role).toBe(
      'contributor',
    );
    expect((await call('GET', `/core/memorial/${p.memorialId}`, p.lies.token)).statusCode).toBe(404);
    expect(await memberEmails(p.memorialId, p.family.token)).toEqual([p.familyEmail, p.kees.email].sort());
    // The company is out, as before.
    expect((await call('GET', `/core/memorial/${p.memorialId}`, p.c.admin.token)).statusCode).toBe(404);

    const audit = await t.db.query<{ action: string; details: Record<string, unknown> }>(
      `SELECT action, details FROM memorial_audit_log WHERE memorial_id = $1 ORDER BY created_at, id`,
      [p.memorialId],
    );
    expect(audit.rows.find((r) => r.action === 'care.handed_over')!.details).toMatchObject({
      partnerRoleAllowed: false,
      revokedInvitations: 1,
      removedMembers: 1,
      keptMembers: 1,
      accessCodeRenewed: true,
    });
    expect(audit.rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['invite.revoked', 'member.removed', 'memorial.access_code_regenerated']),
    );
    // Accepting again changes nothing more and shows no code.
    const again = await call('POST', `/core/handover/${p.code}/accept`, p.family.token, {
      partnerRoleAllowed: false,
      shownPublicly: false,
    });
    expect(again.json()).toEqual({ memorialId: p.memorialId, newAccessCode: null });
    expect((await codeToken(newCode)).statusCode).toBe(200);
    // After the handover the list is not offered again.
    expect((await call('GET', `/core/handover/${p.code}/members`, p.family.token)).statusCode).toBe(409);
  });

  it('the family may keep the code; left out, everyone the company invited stays except its own users', async () => {
    const p = await pageWithPeople();
    // A user of the company who made themselves a member of the page.
    const self = await companyInvites(p.memorialId, p.c.admin.token, 'guest', 'Zelf');
    await t.db.query('UPDATE guest_invites SET email = $2 WHERE memorial_id = $1 AND email = $3', [
      p.memorialId,
      p.c.admin.email,
      self.email,
    ]);
    expect((await call('POST', `/core/guest-invite/accept/${self.code}`, p.c.admin.token)).statusCode).toBe(
      200,
    );
    const listed = (await call('GET', `/core/handover/${p.code}/members`, p.family.token)).json().items;
    expect(listed.map((m: { companyUser: boolean }) => m.companyUser)).toEqual([false, false, true]);

    const ok = await call('POST', `/core/handover/${p.code}/accept`, p.family.token, {
      partnerRoleAllowed: false,
      shownPublicly: false,
      keepAccessCode: true,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().newAccessCode).toBeNull();
    expect((await call('GET', `/core/memorial/${p.memorialId}`, p.family.token)).json().accessCode).toBe(
      p.oldCode,
    );
    expect((await codeToken(p.oldCode)).statusCode).toBe(200);
    expect((await call('GET', `/core/memorial/${p.memorialId}`, p.guestToken)).statusCode).toBe(200);
    // The open invitation still ends; the company's own user is no member any more, the others are.
    expect((await call('GET', `/core/memorial/${p.memorialId}`, p.openLinkToken)).statusCode).toBe(401);
    expect((await call('GET', `/core/memorial/${p.memorialId}`, p.c.admin.token)).statusCode).toBe(404);
    expect(await memberEmails(p.memorialId, p.family.token)).toEqual(
      [p.familyEmail, p.kees.email, p.lies.email].sort(),
    );
  });

  it('with the partner role kept, nothing of this changes', async () => {
    const p = await pageWithPeople();
    const ok = await call('POST', `/core/handover/${p.code}/accept`, p.family.token, {
      partnerRoleAllowed: true,
      shownPublicly: false,
      keepMemberIds: [],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().newAccessCode).toBeNull();
    expect((await call('GET', `/core/memorial/${p.memorialId}`, p.c.admin.token)).json().accessCode).toBe(
      p.oldCode,
    );
    expect((await call('GET', `/core/memorial/${p.memorialId}`, p.guestToken)).statusCode).toBe(200);
    expect((await call('GET', `/core/memorial/${p.memorialId}`, p.openLinkToken)).statusCode).toBe(200);
    expect(await memberEmails(p.memorialId, p.family.token)).toEqual(
      [p.familyEmail, p.kees.email, p.lies.email].sort(),
    );
    const late = await issueUserToken(t, { email: p.open.email, name: 'Op Tijd' });
    expect((await call('POST', `/core/guest-invite/accept/${p.open.code}`, late.token)).statusCode).toBe(200);
  });

  it('refuses a keep list that is not a list of ids, and changes nothing', async () => {
    const p = await pageWithPeople();
    const bad = await call('POST', `/core/handover/${p.code}/accept`, p.family.token, {
      partnerRoleAllowed: false,
      shownPublicly: false,
      keepMemberIds: ['kees'],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect((await call('GET', `/core/handover/${p.code}`)).json().status).toBe('pending');
    expect((await codeToken(p.oldCode)).statusCode).toBe(200);
  });
});

describe('authorization', () => {
  it('another company and a stranger see none of the pages; anonymous 401', async () => {
    const c = await company();
    const { memorialId } = await createPage(c.id, c.admin.token);
    const other = await company('Uitvaart Anders');
    const stranger = await issueUserToken(t, { email: `vreemde-${uid()}@example.nl` });
    for (const token of [other.admin.token, stranger.token]) {
      expect((await call('GET', `/core/companies/${c.id}/pages`, token)).statusCode).toBe(404);
      expect(
        (
          await call('POST', `/core/companies/${c.id}/pages`, token, {
            firstName: 'A',
            lastName: 'B',
            familyEmail: 'f@example.nl',
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await call('POST', `/core/companies/${c.id}/pages/${memorialId}/resend`, token)).statusCode,
      ).toBe(404);
      expect((await call('GET', `/core/memorial/${memorialId}`, token)).statusCode).toBe(404);
      expect((await call('GET', `/core/memorial/${memorialId}/care`, token)).statusCode).toBe(404);
    }
    // Another company's page through one's own company: 404.
    expect(
      (await call('POST', `/core/companies/${other.id}/pages/${memorialId}/resend`, other.admin.token))
        .statusCode,
    ).toBe(404);
    expect((await call('GET', `/core/companies/${c.id}/pages`)).statusCode).toBe(401);
  });

  it('a suspended company can do nothing as partner; its pages stay with the families; restored, it can again', async () => {
    const c = await company();
    const waiting = await createPage(c.id, c.admin.token);
    const allowed = await createPage(c.id, c.admin.token);
    const family = await issueUserToken(t, { email: allowed.familyEmail });
    await accept(allowed.code, family.token, true, false);
    expect((await call('POST', `/core/team/companies/${c.id}/suspend`, team)).statusCode).toBe(200);
    for (const id of [waiting.memorialId, allowed.memorialId])
      expect((await call('GET', `/core/memorial/${id}`, c.admin.token)).statusCode).toBe(404);
    expect((await call('GET', `/core/companies/${c.id}/pages`, c.admin.token)).statusCode).toBe(404);
    expect((await call('GET', `/core/companies/${c.id}/users`, c.admin.token)).statusCode).toBe(404);
    expect(
      (await call('POST', `/core/companies/${c.id}/invitations`, c.admin.token, { email: 'x@example.nl' }))
        .statusCode,
    ).toBe(404);
    // The family keeps its page, and a waiting family can still take theirs over.
    expect((await call('GET', `/core/memorial/${allowed.memorialId}`, family.token)).json().role).toBe(
      'owner',
    );
    const other = await issueUserToken(t, { email: waiting.familyEmail });
    expect((await accept(waiting.code, other.token)).statusCode).toBe(200);
    expect((await call('POST', `/core/team/companies/${c.id}/restore`, team)).statusCode).toBe(200);
    expect((await call('GET', `/core/memorial/${allowed.memorialId}`, c.admin.token)).json().role).toBe(
      'editor',
    );
  });

  it('a deleted account leaves its address in no invitation or page record of a company', async () => {
    const c = await company();
    const { code, familyEmail } = await createPage(c.id, c.admin.token);
    const family = await issueUserToken(t, { email: familyEmail });
    expect((await accept(code, family.token)).statusCode).toBe(200);
    await call('POST', `/core/companies/${c.id}/invitations`, c.admin.token, { email: familyEmail });
    const res = await call('POST', '/core/account/delete', family.token, { confirmation: familyEmail });
    expect(res.statusCode, res.body).toBe(200);
    const left = await t.db.query(
      `SELECT 1 FROM company_invitations WHERE email = $1
       UNION ALL SELECT 1 FROM memorial_care WHERE lower(family_email) = $1`,
      [familyEmail],
    );
    expect(left.rows).toEqual([]);
  });

  it('a deleted partner account leaves the company; the first colleague becomes administrator, or the company can be claimed again', async () => {
    const c = await company();
    const b = await colleague(c.id, c.admin.token);
    const gone = await call('POST', '/core/account/delete', c.admin.token, { confirmation: c.admin.email });
    expect(gone.statusCode, gone.body).toBe(200);
    const users = await call('GET', `/core/companies/${c.id}/users`, b.token);
    expect(users.statusCode, users.body).toBe(200);
    expect(users.json().users).toEqual([expect.objectContaining({ userId: b.userId, isAdmin: true })]);
    expect((await companyAudit(c.id)).map((a) => a.action)).toEqual(
      expect.arrayContaining(['company.user_left', 'company.admin_granted']),
    );

    // The last user leaves too: the company's own address may claim it again.
    expect((await call('POST', '/core/account/delete', b.token, { confirmation: b.email })).statusCode).toBe(
      200,
    );
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM company_users WHERE company_id = $1',
      [c.id],
    );
    expect(rows[0]!.n).toBe(0);
    expect((await companyAudit(c.id)).map((a) => a.action)).toContain('company.claim_reopened');
    const companyEmail = (
      await t.db.query<{ email: string }>('SELECT email FROM companies WHERE id = $1', [c.id])
    ).rows[0]!.email;
    const next = await issueUserToken(t, { email: companyEmail, name: 'Carla de Linde' });
    expect((await call('GET', '/core/account/roles', next.token)).json().companies).toEqual([
      expect.objectContaining({ id: c.id, isAdmin: true }),
    ]);
  });
});
