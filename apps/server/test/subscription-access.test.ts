/**
 * 'Blijf verbonden' mail goes only to sign-ups that still have access to the page when it is sent
 * (shared/subscription-access.ts), and the family sees and removes who signed up.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseRoutines } from '../src/app.ts';
import { createDb } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { amsterdamDate, amsterdamInstant } from '../src/shared/amsterdam-time.ts';
import { FUTURE_MAIL_TASK } from '../src/modules/future-mail/service.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import {
  addMember,
  auth,
  createInvite,
  createLinkToken,
  createMemorial,
  createUsers,
  type Users,
} from './memorial-fixtures.ts';

let t: TestContext;
let u: Users;
let address = 0;
const realClock = { now: () => new Date() };

beforeAll(async () => {
  t = await createTestApp();
  u = await createUsers(t, 'verbonden');
});
afterAll(async () => {
  t.app.deps.clock = realClock;
  await t?.close();
});

type Headers = Record<string, string>;
const nextAddress = () => `10.8.${Math.floor(++address / 250)}.${address % 250}`;
const tokenIn = (text: string, path: string) =>
  decodeURIComponent(new RegExp(`${path}\\?t=(\\S+)`).exec(text)![1]!);

/** A guest token exactly as a visitor gets it: the page's access code typed in. */
async function codeGuest(accessCode: string): Promise<Headers> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/core/guest/token',
    payload: { accessCode },
    remoteAddress: nextAddress(),
  });
  expect(res.statusCode).toBe(200);
  return auth(res.json().token);
}

/** A guest token from a one-time link in an invitation mail. */
async function linkGuest(memorialId: string): Promise<{ headers: Headers; inviteId: string }> {
  const invite = await createInvite(t, memorialId, u.owner);
  const link = await createLinkToken(t, memorialId, invite.id);
  const res = await t.app.inject({
    method: 'POST',
    url: '/core/guest/token-consume',
    payload: { token: link },
  });
  expect(res.statusCode).toBe(200);
  return { headers: auth(res.json().token), inviteId: invite.id };
}

/** Signs up with consent and follows the link in the confirmation mail. */
async function signUp(memorialId: string, email: string, kinds: string[], headers: Headers = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/core/memorial/${memorialId}/subscriptions`,
    headers,
    payload: { email, kinds, consent: true },
    remoteAddress: nextAddress(),
  });
  expect(res.statusCode).toBe(202);
  const mail = await t.smtp.waitFor(
    (m) => m.to.includes(email) && m.subject.startsWith('Bevestig') && !confirmed.has(m.text),
  );
  confirmed.add(mail.text);
  const confirm = await t.app.inject({
    method: 'POST',
    url: '/core/subscriptions/confirm',
    payload: { token: tokenIn(mail.text, '/meldingen/bevestigen') },
  });
  expect(confirm.statusCode).toBe(200);
}
const confirmed = new Set<string>();

const listUrl = (memorialId: string) => `/core/memorial/${memorialId}/subscriptions`;
const signUps = async (memorialId: string) => {
  const res = await t.app.inject({ method: 'GET', url: listUrl(memorialId), headers: auth(u.owner.token) });
  expect(res.statusCode).toBe(200);
  return res.json().subscriptions as {
    id: string;
    email: string;
    via: string;
    kinds: string[];
    hasAccess: boolean;
  }[];
};
const signUpOf = async (memorialId: string, email: string) =>
  (await signUps(memorialId)).find((s) => s.email === email)!;

/** A future message planned by the owner, due in two days. */
async function plan(memorialId: string, subject: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/core/memorial/${memorialId}/future-messages`,
    headers: auth(u.owner.token),
    payload: {
      subject,
      body: 'Vandaag denken we aan haar.',
      sendDate: amsterdamDate(new Date(Date.now() + 2 * 86_400_000)),
      sendTime: '09:30',
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

/** The sweep run at 09:00 Amsterdam time on `date` (past every planned message). */
async function sweepOn(date: string) {
  t.app.deps.clock = { now: () => amsterdamInstant(date, '09:00') };
  try {
    await t.app.deps.queue.runNow(FUTURE_MAIL_TASK);
  } finally {
    t.app.deps.clock = realClock;
  }
}

/** Subjects of everything queued to an address, confirmation mails left out. */
const mailTo = async (email: string) =>
  (
    await t.db.query<{ subject: string }>(
      `SELECT subject FROM mail_outbox WHERE $1 = ANY (to_addresses) AND subject NOT LIKE 'Bevestig%'
        ORDER BY subject`,
      [email],
    )
  ).rows.map((r) => r.subject);

describe('Blijf verbonden: mail only while the sign-up has access', () => {
  it('a sign-up through the access code gets nothing once the code is regenerated and the page invite-only; members and a public page’s sign-up do', async () => {
    const priv = await createMemorial(t, u.owner, { visibility: 'private', firstName: 'Anna' });
    const pub = await createMemorial(t, u.owner, { visibility: 'public', firstName: 'Bram' });
    await addMember(t, priv.id, u.editor, 'editor');
    await addMember(t, priv.id, u.guest, 'guest');
    await t.db.query(`UPDATE memorials SET birth_date = '1950-03-15' WHERE id = ANY ($1::uuid[])`, [
      [priv.id, pub.id],
    ]);

    await signUp(
      priv.id,
      'code-bezoeker@example.nl',
      ['messages', 'birthday'],
      await codeGuest(priv.accessCode),
    );
    // A member signs up for the reminder with another address of theirs.
    await signUp(priv.id, 'gast-thuis@example.nl', ['birthday'], auth(u.guest.token));
    await signUp(pub.id, 'openbaar@example.nl', ['messages', 'birthday']);
    expect(await signUpOf(priv.id, 'code-bezoeker@example.nl')).toMatchObject({
      via: 'code',
      kinds: ['messages', 'birthday'],
      hasAccess: true,
    });
    expect(await signUpOf(priv.id, 'gast-thuis@example.nl')).toMatchObject({
      via: 'member',
      hasAccess: true,
    });
    expect(await signUpOf(pub.id, 'openbaar@example.nl')).toMatchObject({ via: 'public', hasAccess: true });

    // The family closes the page: a new code, and only invitations open it from now on.
    const regen = await t.app.inject({
      method: 'POST',
      url: `/core/memorial/${priv.id}/access-code/regenerate`,
      headers: auth(u.owner.token),
    });
    expect(regen.statusCode).toBe(200);
    const closed = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial',
      headers: auth(u.owner.token),
      payload: { id: priv.id, inviteOnly: true },
    });
    expect(closed.statusCode).toBe(200);
    expect(await signUpOf(priv.id, 'code-bezoeker@example.nl')).toMatchObject({ hasAccess: false });

    const message = await plan(priv.id, 'Besloten bericht voor Anna');
    await plan(pub.id, 'Openbaar bericht voor Bram');
    await sweepOn('2040-03-15');

    // The members get the private message and the member's reminder goes; the former code visitor gets nothing.
    await t.smtp.waitFor((m) => m.subject === 'Besloten bericht voor Anna' && m.to.includes(u.editor.email));
    await t.smtp.waitFor(
      (m) => m.to.includes('gast-thuis@example.nl') && m.subject.startsWith('Vandaag is de verjaardag'),
    );
    expect(await mailTo('code-bezoeker@example.nl')).toEqual([]);
    expect((await mailTo(u.guest.email)).filter((s) => s.startsWith('Besloten'))).toEqual([
      'Besloten bericht voor Anna',
    ]);
    const sent = await t.app.inject({
      method: 'GET',
      url: `/core/memorial/${priv.id}/future-messages`,
      headers: auth(u.owner.token),
    });
    expect(sent.json().messages.find((m: { id: string }) => m.id === message)).toMatchObject({
      status: 'sent',
      recipientCount: 3,
      skippedCount: 1,
    });
    expect(sent.json().recipients).toBe(3);

    // The public page's sign-up gets both.
    await t.smtp.waitFor(
      (m) => m.to.includes('openbaar@example.nl') && m.subject === 'Openbaar bericht voor Bram',
    );
    const pubMail = await mailTo('openbaar@example.nl');
    expect(pubMail).toHaveLength(2);
    expect(pubMail.some((s) => s.startsWith('Vandaag is de verjaardag'))).toBe(true);
  });

  it('keeps mail going while the access holds and stops it when the code changes, the link ends, the member leaves or the page is deleted', async () => {
    const page = await createMemorial(t, u.owner, { visibility: 'private', firstName: 'Cor' });
    const memberId = await addMember(t, page.id, u.contributor, 'contributor');
    await signUp(page.id, 'zelfde-code@example.nl', ['messages'], await codeGuest(page.accessCode));
    const link = await linkGuest(page.id);
    await signUp(page.id, 'link-gast@example.nl', ['messages'], link.headers);
    await signUp(page.id, 'oud-lid@example.nl', ['messages'], auth(u.contributor.token));
    expect(await signUpOf(page.id, 'link-gast@example.nl')).toMatchObject({ via: 'link', hasAccess: true });

    // The invitation is revoked (its link's guest token ends) and the member is removed.
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/core/guest-invite/${link.inviteId}`,
          headers: auth(u.owner.token),
        })
      ).statusCode,
    ).toBeLessThan(300);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/core/memorial/users/${memberId}`,
          headers: auth(u.owner.token),
        })
      ).statusCode,
    ).toBeLessThan(300);

    await plan(page.id, 'Bericht voor Cor');
    await sweepOn('2040-04-20');
    await t.smtp.waitFor((m) => m.to.includes('zelfde-code@example.nl') && m.subject === 'Bericht voor Cor');
    expect(await mailTo('link-gast@example.nl')).toEqual([]);
    expect(await mailTo('oud-lid@example.nl')).toEqual([]);
    expect((await mailTo(u.contributor.email)).filter((s) => s.includes('Cor'))).toEqual([]);

    // The code is regenerated: the earlier sign-up stops. Signing up again with the new code changes nothing
    // until that address confirms; then its mail goes again.
    const regen = await t.app.inject({
      method: 'POST',
      url: `/core/memorial/${page.id}/access-code/regenerate`,
      headers: auth(u.owner.token),
    });
    const newCode = regen.json().accessCode as string;
    const again = await t.app.inject({
      method: 'POST',
      url: listUrl(page.id),
      headers: await codeGuest(newCode),
      payload: { email: 'zelfde-code@example.nl', kinds: ['messages'], consent: true },
      remoteAddress: nextAddress(),
    });
    expect(again.statusCode).toBe(202);
    expect(await signUpOf(page.id, 'zelfde-code@example.nl')).toMatchObject({ hasAccess: false });
    await plan(page.id, 'Tweede bericht voor Cor');
    await sweepOn('2040-04-21');
    expect(await mailTo('zelfde-code@example.nl')).toEqual(['Bericht voor Cor']);
    const mail = await t.smtp.waitFor(
      (m) =>
        m.to.includes('zelfde-code@example.nl') && m.subject.startsWith('Bevestig') && !confirmed.has(m.text),
    );
    confirmed.add(mail.text);
    await t.app.inject({
      method: 'POST',
      url: '/core/subscriptions/confirm',
      payload: { token: tokenIn(mail.text, '/meldingen/bevestigen') },
    });
    expect(await signUpOf(page.id, 'zelfde-code@example.nl')).toMatchObject({ hasAccess: true });
    await plan(page.id, 'Derde bericht voor Cor');
    await sweepOn('2040-04-22');
    await t.smtp.waitFor(
      (m) => m.to.includes('zelfde-code@example.nl') && m.subject === 'Derde bericht voor Cor',
    );

    // A deleted page mails nobody, members included.
    await plan(page.id, 'Nooit voor Cor');
    const deleted = await t.app.inject({
      method: 'POST',
      url: `/core/memorial/${page.id}/delete`,
      headers: auth(u.owner.token),
      payload: { confirmation: 'VERWIJDEREN' },
    });
    expect(deleted.statusCode).toBe(200);
    await sweepOn('2040-04-23');
    const none = await t.db.query(`SELECT 1 FROM mail_outbox WHERE subject = 'Nooit voor Cor'`);
    expect(none.rows).toEqual([]);
  });

  it('lets owners and editors list and remove sign-ups; nobody else', async () => {
    const page = await createMemorial(t, u.owner, { visibility: 'private', firstName: 'Dirk' });
    await addMember(t, page.id, u.editor, 'editor');
    await addMember(t, page.id, u.guest, 'guest');
    await addMember(t, page.id, u.contributor, 'contributor');
    const guestToken = await codeGuest(page.accessCode);
    await signUp(page.id, 'eerste@example.nl', ['messages'], guestToken);
    await signUp(page.id, 'tweede@example.nl', ['birthday'], guestToken);
    const other = await createMemorial(t, u.otherOwner, { visibility: 'public', firstName: 'Els' });
    await signUp(other.id, 'elders@example.nl', ['messages']);
    const otherId = (
      await t.db.query<{ id: string }>(
        `SELECT id FROM memorial_subscriptions WHERE email = 'elders@example.nl'`,
      )
    ).rows[0]!.id;

    const list = (headers: Headers) => t.app.inject({ method: 'GET', url: listUrl(page.id), headers });
    const editorList = await list(auth(u.editor.token));
    expect(editorList.statusCode).toBe(200);
    const [newest, oldest] = editorList.json().subscriptions;
    expect(newest).toMatchObject({
      email: 'tweede@example.nl',
      via: 'code',
      kinds: ['birthday'],
      hasAccess: true,
    });
    expect(oldest.email).toBe('eerste@example.nl');
    expect(typeof newest.confirmedAt).toBe('string');
    expect((await list({})).statusCode).toBe(401);
    for (const h of [guestToken, auth(u.guest.token), auth(u.contributor.token)])
      expect((await list(h)).statusCode).toBe(403);
    expect((await list(auth(u.stranger.token))).statusCode).toBe(404);

    const remove = (id: string, headers: Headers) =>
      t.app.inject({ method: 'DELETE', url: `${listUrl(page.id)}/${id}`, headers });
    expect((await remove(oldest.id, {})).statusCode).toBe(401);
    for (const h of [guestToken, auth(u.guest.token), auth(u.contributor.token)]) {
      const res = await remove(oldest.id, h);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/[a-z]/);
    }
    expect((await remove(oldest.id, auth(u.stranger.token))).statusCode).toBe(404);
    expect((await remove('geen-uuid', auth(u.owner.token))).statusCode).toBe(404);
    // Another page's sign-up is not this page's to remove.
    const elsewhere = await remove(otherId, auth(u.owner.token));
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toMatchObject({
      code: 'SUBSCRIPTION_NOT_FOUND',
      message: 'Deze aanmelding bestaat niet (meer).',
    });
    expect((await signUps(page.id)).map((s) => s.email)).toEqual(['tweede@example.nl', 'eerste@example.nl']);

    const removed = await remove(oldest.id, auth(u.editor.token));
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ id: oldest.id, removed: true });
    expect((await signUps(page.id)).map((s) => s.email)).toEqual(['tweede@example.nl']);
    expect((await remove(oldest.id, auth(u.owner.token))).statusCode).toBe(404);
    const audit = await t.db.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'subscription.removed'`,
      [page.id],
    );
    expect(audit.rows).toEqual([{ details: { via: 'code' } }]);

    // The removed address gets nothing more.
    await plan(page.id, 'Bericht voor Dirk');
    await sweepOn('2040-05-10');
    await t.smtp.waitFor((m) => m.to.includes(u.editor.email) && m.subject === 'Bericht voor Dirk');
    expect(await mailTo('eerste@example.nl')).toEqual([]);
  });
});

const migrationsDir = fileURLToPath(new URL('../src/db/migrations', import.meta.url));

describe('sign-ups from before their access was recorded (migration 127)', () => {
  it('get the access of the page as it was when they were made', async () => {
    // A database of its own, migrated up to just before 127, given sign-ups, then migrated on.
    const url = process.env.TEST_DATABASE_URL;
    const schema = `m127_${randomBytes(4).toString('hex')}`;
    const db = await createDb(url ? { databaseUrl: url, schema, poolSize: 2 } : { pgliteDir: 'memory://' });
    try {
      const files = (await fs.readdir(migrationsDir)).filter((f) => /^\d{3}-/.test(f));
      await migrate(db, databaseRoutines, migrationsDir, {
        only: new Set(files.filter((f) => f < '127-')),
      });
      await db.query(`INSERT INTO users (id, email, name) VALUES ('u-lid', 'Lid@Example.nl', 'Lid')`);
      const page = async (visibility: string, version: number) =>
        (
          await db.query<{ id: string }>(
            `INSERT INTO memorials (first_name, last_name, status, visibility, access_code_hash,
                                    access_code_encrypted, access_code_version, created_by)
             VALUES ('Jan', 'Oud', 'active', $1, $2, 'v1.test', $3, 'u-lid') RETURNING id`,
            [visibility, randomBytes(8).toString('hex'), version],
          )
        ).rows[0]!.id;
      const priv = await page('private', 3);
      const pub = await page('public', 1);
      await db.query(
        `INSERT INTO memorial_members (memorial_id, user_id, role) VALUES ($1, 'u-lid', 'owner')`,
        [priv],
      );
      const audit = (action: string, details: object, at: string) =>
        db.query(
          `INSERT INTO memorial_audit_log (memorial_id, actor_kind, action, details, created_at)
           VALUES ($1, 'system', $2, $3, $4)`,
          [priv, action, JSON.stringify(details), at],
        );
      // Made public on 1 January, private again on 1 March; the code regenerated on 1 April (v2) and 1 June (v3).
      await audit('memorial.visibility_changed', { from: 'private', to: 'public' }, '2025-01-01T10:00:00Z');
      await audit('memorial.visibility_changed', { from: 'public', to: 'private' }, '2025-03-01T10:00:00Z');
      await audit('memorial.access_code_regenerated', { version: 2 }, '2025-04-01T10:00:00Z');
      await audit('memorial.access_code_regenerated', { version: 3 }, '2025-06-01T10:00:00Z');
      const signUp = (memorialId: string, email: string, at: string) =>
        db.query(
          `INSERT INTO memorial_subscriptions (memorial_id, email, kinds, confirmed_at, created_at)
           VALUES ($1, $2, '{messages}', $3, $3)`,
          [memorialId, email, at],
        );
      await signUp(priv, 'toen-openbaar@example.nl', '2025-02-01T10:00:00Z');
      await signUp(priv, 'code-een@example.nl', '2025-03-15T10:00:00Z');
      await signUp(priv, 'code-twee@example.nl', '2025-05-01T10:00:00Z');
      await signUp(priv, 'code-drie@example.nl', '2025-07-01T10:00:00Z');
      await signUp(priv, 'lid@example.nl', '2025-07-01T10:00:00Z');
      await signUp(pub, 'openbaar@example.nl', '2025-07-01T10:00:00Z');

      await migrate(db, databaseRoutines);
      const { rows } = await db.query(
        `SELECT email, access_via, user_id, access_code_version FROM memorial_subscriptions ORDER BY email`,
      );
      expect(rows).toEqual([
        { email: 'code-drie@example.nl', access_via: 'code', user_id: null, access_code_version: 3 },
        { email: 'code-een@example.nl', access_via: 'code', user_id: null, access_code_version: 1 },
        { email: 'code-twee@example.nl', access_via: 'code', user_id: null, access_code_version: 2 },
        { email: 'lid@example.nl', access_via: 'member', user_id: 'u-lid', access_code_version: null },
        { email: 'openbaar@example.nl', access_via: 'public', user_id: null, access_code_version: null },
        { email: 'toen-openbaar@example.nl', access_via: 'public', user_id: null, access_code_version: null },
      ]);
    } finally {
      if (url) await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.close();
    }
  });
});
