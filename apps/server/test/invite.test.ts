import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import {
  addMember,
  auth,
  createInvite,
  createMemorial,
  createUsers,
  type Users,
} from './memorial-fixtures.ts';

let t: TestContext;
let u: Users;
beforeAll(async () => {
  t = await createTestApp({ APP_URL: 'https://app.aandenken.test' });
  u = await createUsers(t);
});
afterAll(async () => t?.close());

let n = 0;
const freshEmail = () => `uitgenodigd-${Date.now().toString(36)}-${++n}@example.nl`;
const invite = (token: string, memorialId: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/core/guest-invite/${memorialId}`, headers: auth(token), payload });
const codeFrom = (text: string) => /\/uitnodiging\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
const guestLinkFrom = (text: string) => /#gasttoken=([A-Za-z0-9_-]+)/.exec(text)?.[1];

describe('POST /core/guest-invite/{memorialId}', () => {
  it('stores the invite and sends a Dutch mail naming who invites to which memorial, with the link', async () => {
    const m = await createMemorial(t, u.owner, { firstName: 'Hendrik', lastName: 'Visser' });
    const email = freshEmail();
    const res = await invite(u.owner.token, m.id, {
      email: email.toUpperCase(),
      role: 'contributor',
      name: 'Sanne',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      memorialId: m.id,
      email,
      role: 'contributor',
      name: 'Sanne',
      status: 'pending',
      mailSent: true,
      sendCount: 1,
    });
    const days = (new Date(res.json().expiresAt).getTime() - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);

    const mail = await t.smtp.waitFor((x) => x.to.includes(email));
    expect(mail.subject).toBe(
      `Eigenaar ${u.owner.email.split('-')[1]!.split('@')[0]} nodigt je uit voor de gedenkpagina van Hendrik Visser`,
    );
    expect(mail.text).toContain('Beste Sanne,');
    expect(mail.text).toContain('als bijdrager');
    expect(mail.text).toContain('https://app.aandenken.test/uitnodiging/');
    const code = codeFrom(mail.text)!;
    // At least 128 bits of randomness, URL-safe; only a hash is stored.
    expect(code.length).toBeGreaterThanOrEqual(22);
    const { rows } = await t.db.query('SELECT * FROM guest_invites WHERE id = $1', [res.json().id]);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(mail.html).toContain(`href="https://app.aandenken.test/uitnodiging/${code}"`);

    // The guest link in the mail opens the page as a guest, once.
    const link = guestLinkFrom(mail.text)!;
    const consumed = await t.app.inject({
      method: 'POST',
      url: '/core/guest/token-consume',
      payload: { token: link },
    });
    expect(consumed.statusCode).toBe(200);
    expect(consumed.json()).toMatchObject({ memorialId: m.id, guestName: 'Sanne' });

    const audit = await t.db.query(
      `SELECT action, details FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'invite.sent'`,
      [m.id],
    );
    expect(audit.rows).toEqual([{ action: 'invite.sent', details: { email, role: 'contributor' } }]);
  });

  it('refuses bad input, a second open invite, existing members and roles the inviter may not give', async () => {
    const m = await createMemorial(t, u.owner);
    await addMember(t, m.id, u.editor, 'editor');
    await addMember(t, m.id, u.contributor, 'contributor');
    const bad = await invite(u.owner.token, m.id, { email: 'geen-adres', role: 'baas' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({
      email: 'Voer een geldig e-mailadres in',
      role: 'Kies redacteur, bijdrager of gast',
    });
    expect(
      (await invite(u.owner.token, m.id, { email: freshEmail(), role: 'owner' })).json().fields.role,
    ).toBe('Kies redacteur, bijdrager of gast');

    const email = freshEmail();
    expect((await invite(u.owner.token, m.id, { email })).statusCode).toBe(201);
    const twice = await invite(u.editor.token, m.id, { email: email.toUpperCase() });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({
      code: 'INVITE_PENDING',
      fields: { email: 'Er staat al een uitnodiging open' },
    });

    const member = await invite(u.owner.token, m.id, { email: u.contributor.email });
    expect(member.statusCode).toBe(409);
    expect(member.json().code).toBe('ALREADY_MEMBER');

    const editorInvitesEditor = await invite(u.editor.token, m.id, { email: freshEmail(), role: 'editor' });
    expect(editorInvitesEditor.statusCode).toBe(403);
    expect(editorInvitesEditor.json().message).toBe('Alleen een eigenaar kan redacteuren uitnodigen.');
    expect((await invite(u.contributor.token, m.id, { email: freshEmail() })).statusCode).toBe(403);
    expect((await invite(u.stranger.token, m.id, { email: freshEmail() })).statusCode).toBe(404);

    const count = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM guest_invites WHERE memorial_id = $1',
      [m.id],
    );
    expect(count.rows[0]!.n).toBe(1);
  });

  it('replaces an expired open invite for the same address', async () => {
    const m = await createMemorial(t, u.owner);
    const email = freshEmail();
    const first = (await invite(u.owner.token, m.id, { email })).json();
    await t.db.query(`UPDATE guest_invites SET expires_at = now() - interval '1 hour' WHERE id = $1`, [
      first.id,
    ]);
    const second = await invite(u.owner.token, m.id, { email });
    expect(second.statusCode).toBe(201);
    const old = await t.app.inject({ url: `/core/guest-invite/${first.id}`, headers: auth(u.owner.token) });
    expect(old.json().status).toBe('revoked');
  });

  it('sends no guest link while the page is a concept (guests cannot open it yet)', async () => {
    const m = await createMemorial(t, u.owner, { status: 'concept' });
    const email = freshEmail();
    expect((await invite(u.owner.token, m.id, { email, role: 'editor' })).statusCode).toBe(201);
    const mail = await t.smtp.waitFor((x) => x.to.includes(email));
    expect(codeFrom(mail.text)).toBeDefined();
    expect(guestLinkFrom(mail.text)).toBeUndefined();
  });
});

describe('GET /core/guest-invite/invite-code/{inviteCode}', () => {
  it('shows who invites to which memorial with which role, and whether it expired', async () => {
    const m = await createMemorial(t, u.owner, { firstName: 'Grietje', lastName: 'Bos' });
    const inv = await createInvite(t, m.id, u.owner, 'contributor');
    const url = `/core/guest-invite/invite-code/${inv.code}`;
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      memorialId: m.id,
      memorialName: 'Grietje Bos',
      inviterName: expect.stringContaining('Eigenaar'),
      inviteeName: 'Genodigde',
      role: 'contributor',
      status: 'pending',
      expired: false,
    });
    expect(res.json()).not.toHaveProperty('email');
    await t.db.query(`UPDATE guest_invites SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
      inv.id,
    ]);
    expect((await t.app.inject({ url })).json()).toMatchObject({ status: 'expired', expired: true });

    for (const code of ['onbekend-onbekend-onbekend', 'kort', 'x'.repeat(100)]) {
      const missing = await t.app.inject({ url: `/core/guest-invite/invite-code/${code}` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({
        code: 'INVITE_NOT_FOUND',
        message: 'Deze uitnodiging bestaat niet of is ingetrokken.',
      });
    }
  });
});

describe('POST /core/guest-invite/accept/{code}', () => {
  it('makes the signed-in user a member with the invite’s role; again changes nothing; someone else gets 410', async () => {
    const m = await createMemorial(t, u.owner);
    const email = freshEmail();
    await invite(u.owner.token, m.id, { email, role: 'contributor' });
    const code = codeFrom((await t.smtp.waitFor((x) => x.to.includes(email))).text)!;
    const invitee = await issueUserToken(t, { email, name: 'Nieuwe Bijdrager' });

    expect(
      (await t.app.inject({ method: 'POST', url: `/core/guest-invite/accept/${code}` })).statusCode,
    ).toBe(401);
    const res = await t.app.inject({
      method: 'POST',
      url: `/core/guest-invite/accept/${code}`,
      headers: auth(invitee.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ memorialId: m.id, role: 'contributor', alreadyMember: false });
    const page = await t.app.inject({ url: `/core/memorial/${m.id}`, headers: auth(invitee.token) });
    expect(page.json().role).toBe('contributor');

    const again = await t.app.inject({
      method: 'POST',
      url: `/core/guest-invite/accept/${code}`,
      headers: auth(invitee.token),
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ memberId: res.json().memberId, alreadyMember: true });
    const other = await t.app.inject({
      method: 'POST',
      url: `/core/guest-invite/accept/${code}`,
      headers: auth(u.stranger.token),
    });
    expect(other.statusCode).toBe(410);
    expect(other.json()).toEqual({
      code: 'INVITE_USED',
      message: 'Deze uitnodiging is al door iemand anders gebruikt.',
    });

    const list = await t.app.inject({
      method: 'POST',
      url: '/core/guest-invite/query',
      headers: auth(u.owner.token),
      payload: { memorialId: m.id },
    });
    expect(list.json().items[0]).toMatchObject({ status: 'accepted', acceptedAt: expect.any(String) });
    const audit = await t.db.query(
      `SELECT details FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'invite.accepted'`,
      [m.id],
    );
    expect(audit.rows).toHaveLength(1);
  });

  it('keeps a stronger role, raises a weaker one', async () => {
    const m = await createMemorial(t, u.owner);
    const editorMember = await addMember(t, m.id, u.editor, 'editor');
    const guestMember = await addMember(t, m.id, u.guest, 'guest');
    const forEditor = await createInvite(t, m.id, u.owner, 'contributor');
    const forGuest = await createInvite(t, m.id, u.owner, 'contributor');
    const a = await t.app.inject({
      method: 'POST',
      url: `/core/guest-invite/accept/${forEditor.code}`,
      headers: auth(u.editor.token),
    });
    expect(a.json()).toEqual({
      memorialId: m.id,
      memberId: editorMember,
      role: 'editor',
      alreadyMember: true,
    });
    const b = await t.app.inject({
      method: 'POST',
      url: `/core/guest-invite/accept/${forGuest.code}`,
      headers: auth(u.guest.token),
    });
    expect(b.json()).toEqual({
      memorialId: m.id,
      memberId: guestMember,
      role: 'contributor',
      alreadyMember: true,
    });
  });

  it('refuses expired (410) and revoked or unknown invites (404), changing nothing', async () => {
    const m = await createMemorial(t, u.owner);
    const expired = await createInvite(t, m.id, u.owner);
    await t.db.query(`UPDATE guest_invites SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expired.id,
    ]);
    const e = await t.app.inject({
      method: 'POST',
      url: `/core/guest-invite/accept/${expired.code}`,
      headers: auth(u.stranger.token),
    });
    expect(e.statusCode).toBe(410);
    expect(e.json()).toEqual({
      code: 'INVITE_EXPIRED',
      message: 'Deze uitnodiging is verlopen. Vraag de afzender om een nieuwe uitnodiging.',
    });

    const revoked = await createInvite(t, m.id, u.owner);
    await t.app.inject({
      method: 'DELETE',
      url: `/core/guest-invite/${revoked.id}`,
      headers: auth(u.owner.token),
    });
    const r = await t.app.inject({
      method: 'POST',
      url: `/core/guest-invite/accept/${revoked.code}`,
      headers: auth(u.stranger.token),
    });
    expect(r.statusCode).toBe(404);
    expect(r.json().code).toBe('INVITE_NOT_FOUND');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/core/guest-invite/accept/onbekend-onbekend-x',
          headers: auth(u.stranger.token),
        })
      ).statusCode,
    ).toBe(404);

    const members = await t.db.query(
      'SELECT 1 FROM memorial_members WHERE memorial_id = $1 AND user_id = $2',
      [m.id, u.stranger.userId],
    );
    expect(members.rows).toEqual([]);
  });
});

describe('managing invites: get, query, revoke, resend', () => {
  it('lists newest first with a status filter, paginated', async () => {
    const m = await createMemorial(t, u.owner);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await invite(u.owner.token, m.id, { email: freshEmail() })).json().id);
    await t.app.inject({
      method: 'DELETE',
      url: `/core/guest-invite/${ids[0]}`,
      headers: auth(u.owner.token),
    });
    const q = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/core/guest-invite/query',
        headers: auth(u.owner.token),
        payload,
      });
    const p1 = await q({ memorialId: m.id, limit: 2 });
    expect(p1.json().items.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1]]);
    const p2 = await q({ memorialId: m.id, limit: 2, cursor: p1.json().nextCursor });
    expect(p2.json()).toMatchObject({ items: [{ id: ids[0], status: 'revoked' }], nextCursor: null });
    expect((await q({ memorialId: m.id, status: 'pending' })).json().items).toHaveLength(2);
    expect(
      (await q({ memorialId: m.id, status: 'revoked' })).json().items.map((i: { id: string }) => i.id),
    ).toEqual([ids[0]]);

    const one = await t.app.inject({ url: `/core/guest-invite/${ids[1]}`, headers: auth(u.owner.token) });
    expect(one.json()).toMatchObject({
      id: ids[1],
      status: 'pending',
      invitedByName: expect.stringContaining('Eigenaar'),
    });
    expect(
      (await t.app.inject({ url: '/core/guest-invite/geen-uuid', headers: auth(u.owner.token) })).statusCode,
    ).toBe(404);
  });

  it('revokes (twice is fine) but not an accepted invite', async () => {
    const m = await createMemorial(t, u.owner);
    const inv = await createInvite(t, m.id, u.owner);
    const del = () =>
      t.app.inject({ method: 'DELETE', url: `/core/guest-invite/${inv.id}`, headers: auth(u.owner.token) });
    expect((await del()).statusCode).toBe(204);
    expect((await del()).statusCode).toBe(204);
    expect((await t.app.inject({ url: `/core/guest-invite/invite-code/${inv.code}` })).statusCode).toBe(404);
    const audit = await t.db.query(
      `SELECT 1 FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'invite.revoked'`,
      [m.id],
    );
    expect(audit.rows).toHaveLength(1);

    const accepted = await createInvite(t, m.id, u.owner);
    await t.app.inject({
      method: 'POST',
      url: `/core/guest-invite/accept/${accepted.code}`,
      headers: auth(u.stranger.token),
    });
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/core/guest-invite/${accepted.id}`,
      headers: auth(u.owner.token),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('INVITE_ACCEPTED');
  });

  it('resends with a new code and expiry; the old link stops working', async () => {
    const m = await createMemorial(t, u.owner);
    const email = freshEmail();
    const created = (await invite(u.owner.token, m.id, { email })).json();
    const firstMail = await t.smtp.waitFor((x) => x.to.includes(email));
    const oldCode = codeFrom(firstMail.text)!;
    const oldLink = guestLinkFrom(firstMail.text)!;
    await t.db.query(`UPDATE guest_invites SET expires_at = now() - interval '1 day' WHERE id = $1`, [
      created.id,
    ]);

    const res = await t.app.inject({
      method: 'POST',
      url: `/core/guest-invite/${created.id}/resend`,
      headers: auth(u.owner.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'pending', sendCount: 2, mailSent: true });
    const second = await t.smtp.waitFor((x) => x.to.includes(email) && codeFrom(x.text) !== oldCode);
    const newCode = codeFrom(second.text)!;
    expect((await t.app.inject({ url: `/core/guest-invite/invite-code/${oldCode}` })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/core/guest-invite/invite-code/${newCode}` })).json().status).toBe(
      'pending',
    );
    expect(
      (await t.app.inject({ method: 'POST', url: '/core/guest/token-consume', payload: { token: oldLink } }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/core/guest/token-consume',
          payload: { token: guestLinkFrom(second.text)! },
        })
      ).statusCode,
    ).toBe(200);

    await t.app.inject({
      method: 'DELETE',
      url: `/core/guest-invite/${created.id}`,
      headers: auth(u.owner.token),
    });
    const revoked = await t.app.inject({
      method: 'POST',
      url: `/core/guest-invite/${created.id}/resend`,
      headers: auth(u.owner.token),
    });
    expect(revoked.statusCode).toBe(409);
    expect(revoked.json().code).toBe('INVITE_REVOKED');
  });
});
