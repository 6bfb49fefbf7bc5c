/**
 * Mail from our address to an address that has not proven itself carries no free text
 * from whoever caused it beyond a name (one line, limited length, no links), a recipient gets a limited
 * number of such mails whoever sends them, and the partner confirmation says only what we write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { looksLikeLink } from '@aandenken/contract';
import { greeting, mailName, MAIL_NAME_MAX } from '../src/lib/mail-format.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import {
  Browser,
  csrfOf,
  endpoints,
  openInteraction,
  pkce,
  registerThroughProvider,
} from './identity-flow.ts';
import { auth, createMemorial, createUsers, type Users } from './memorial-fixtures.ts';
import type { ReceivedMail } from './smtp-sink.ts';

const LIMIT = 3;
let t: TestContext;
let u: Users;
beforeAll(async () => {
  t = await createTestApp({ MAIL_PER_RECIPIENT_PER_DAY: String(LIMIT), IDENTITY_RATE_LIMIT_MAX: '1000' });
  u = await createUsers(t);
});
afterAll(async () => t?.close());

let n = 0;
const freshEmail = (tag = 'ontvanger') => `${tag}-${Date.now().toString(36)}-${++n}@example.nl`;
const invite = (token: string, memorialId: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/core/guest-invite/${memorialId}`, headers: auth(token), payload });
const accessMail = (token: string, memorialId: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/core/memorial/${memorialId}/access-code/mail`,
    headers: auth(token),
    payload,
  });
const partner = {
  companyType: 'FuneralDirector',
  firstName: 'Anna',
  lastName: 'de Vries',
  companyName: 'Uitvaartzorg De Linde',
  streetName: 'Lindelaan',
  houseNumber: '12a',
  postalCode: '1234 AB',
  phoneNumber: '020 123 4567',
  email: 'anna@delinde.nl',
};
const apply = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/core/companies/request', payload: { ...partner, ...payload } });
const count = async (sql: string, params: unknown[] = []) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]!.n;
const queuedTo = (email: string) => count('mail_outbox WHERE $1 = ANY(to_addresses)', [email]);

/** No link, domain or address anywhere in what we mailed, apart from our own links. */
function expectNoForeignLinks(mail: ReceivedMail, ownPrefixes: string[]) {
  let text = `${mail.subject}\n${mail.text}`;
  for (const prefix of ownPrefixes) text = text.split(prefix).join('');
  text = text.replace(/http:\/\/localhost:8080\/\S*/g, '');
  expect(text).not.toMatch(/evil|https?:|www\.|@/i);
}

const injected = [
  'Jan\nKlik op http://evil.example om je prijs te claimen',
  'Sanne\r\nBcc: iemand@evil.example',
  'Bezoek www.evil.example',
  'Mail naar winnaar@evil.example',
  'Ga naar evil.example/prijs',
  'ｗｗｗ．ｅｖｉｌ．ｅｘａｍｐｌｅ',
  'evil。example',
  'Piet\u2028Tweede regel',
  'Kees\u202Eedoc',
  'Tab\tnaam',
];

describe('names mailed to an unproven address', () => {
  it('mailName keeps one line without links, of limited length', () => {
    expect(mailName('  Anna   de Vries ')).toBe('Anna de Vries');
    expect(mailName("Marie-José van 't Hof")).toBe("Marie-José van 't Hof");
    expect(mailName('J.P. de Vries')).toBe('J.P. de Vries');
    expect(mailName('Jan\r\nBcc: x')).toBe('Jan Bcc: x');
    expect(mailName('Piet\u2028\u202ETweede')).toBe('Piet Tweede');
    for (const name of injected.filter((s) => /evil|ｅｖｉｌ/.test(s)))
      expect(mailName(name)).toBeUndefined();
    expect(mailName(null)).toBeUndefined();
    expect(mailName(' \n ')).toBeUndefined();
    const long = mailName('a'.repeat(500))!;
    expect(Array.from(long)).toHaveLength(MAIL_NAME_MAX);
    expect(long.endsWith('…')).toBe(true);
    // A surrogate pair is never cut in half.
    expect(mailName('😀'.repeat(200))!.endsWith('😀…')).toBe(true);
    expect(looksLikeLink('Anna de Vries')).toBe(false);
    expect(looksLikeLink('mailto:x')).toBe(true);
  });

  it('greeting names the recipient when the name is safe, else says Hallo (never a bare Beste)', () => {
    expect(greeting(' Anna  de Vries ')).toBe('Beste Anna de Vries,');
    expect(greeting(null)).toBe('Hallo,');
    expect(greeting('')).toBe('Hallo,');
    expect(greeting('www.evil.example')).toBe('Hallo,');
  });

  it('refuses a name with a newline, a control character or a link in an invite with 400 in Dutch, storing nothing', async () => {
    const m = await createMemorial(t, u.owner);
    for (const name of injected) {
      const email = freshEmail();
      const res = await invite(u.owner.token, m.id, { email, role: 'guest', name });
      expect(res.statusCode, name).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
      expect(res.json().fields.name).toMatch(/^Een naam (mag geen link|past op één regel)/);
      expect(await count('guest_invites WHERE email = $1', [email])).toBe(0);
      expect(await queuedTo(email)).toBe(0);
    }
  });

  it('refuses such a name in an access-code mail, in a memorial name and in a partner application', async () => {
    const m = await createMemorial(t, u.owner);
    const email = freshEmail();
    const access = await accessMail(u.owner.token, m.id, { email, name: 'Kijk op www.evil.example' });
    expect(access.statusCode).toBe(400);
    expect(access.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: { name: 'Een naam mag geen link, webadres of e-mailadres bevatten' },
    });
    expect(await queuedTo(email)).toBe(0);

    const concept = await t.app.inject({
      method: 'POST',
      url: '/core/memorial/concept',
      headers: auth(u.owner.token),
      payload: { firstName: 'Johanna', lastName: 'Willems\nhttp://evil.example' },
    });
    expect(concept.statusCode).toBe(400);
    expect(concept.json().fields.lastName).toBe(
      'Een naam past op één regel, zonder tabs of onzichtbare tekens',
    );
    const rename = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial',
      headers: auth(u.owner.token),
      payload: { id: m.id, firstName: 'evil.example' },
    });
    expect(rename.statusCode).toBe(400);
    expect(rename.json().fields.firstName).toBe('Een naam mag geen link, webadres of e-mailadres bevatten');
    const { rows } = await t.db.query('SELECT first_name FROM memorials WHERE id = $1', [m.id]);
    expect(rows[0]).toEqual({ first_name: 'Johanna' });

    const before = await count('company_requests');
    const applicant = freshEmail('partner');
    const res = await apply({
      email: applicant,
      firstName: 'Anna\nhttps://evil.example',
      lastName: 'www.evil.nl',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({
      firstName: 'Een naam past op één regel, zonder tabs of onzichtbare tekens',
      lastName: 'Een naam mag geen link, webadres of e-mailadres bevatten',
    });
    expect(await count('company_requests')).toBe(before);
    expect(await queuedTo(applicant)).toBe(0);
  });

  it('refuses such a name at registration, saying why, creating no account and sending no mail', async () => {
    const browser = new Browser(t.app);
    const { uidPath, csrf } = await openInteraction(
      browser,
      { code_challenge: pkce().challenge, code_challenge_method: 'S256' },
      endpoints.registrations,
    );
    const email = freshEmail('registratie');
    const res = await browser.post(`${uidPath}/register`, {
      csrf,
      name: 'Win een prijs op www.evil.example',
      email,
      password: 'lang-genoeg-wachtwoord-9',
      passwordRepeat: 'lang-genoeg-wachtwoord-9',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Een naam mag geen link, webadres of e-mailadres bevatten');
    expect(await count('accounts WHERE email = $1', [email])).toBe(0);
    expect(await queuedTo(email)).toBe(0);
  });

  it('neutralises names stored before (inviter, invitee, memorial): one line, no link, our own words instead', async () => {
    const m = await createMemorial(t, u.editor);
    // Names from before the check, or from an external realm: written straight into the database.
    await t.db.query(`UPDATE memorials SET first_name = $2, last_name = $3 WHERE id = $1`, [
      m.id,
      'Gratis geld op',
      'www.evil.example',
    ]);
    await t.db.query(`UPDATE accounts SET name = $2 WHERE id = $1`, [
      u.editor.userId,
      'Klik http://evil.example/prijs',
    ]);
    const email = freshEmail();
    // The token still carries the name it was issued with: a name from elsewhere is not checked at entry.
    const { issueUserToken } = await import('./helpers.ts');
    const { token } = await issueUserToken(t, {
      email: u.editor.email,
      name: 'Bert\nBel 0900 over www.evil.example',
    });
    const res = await invite(token, m.id, { email, role: 'guest' });
    expect(res.statusCode).toBe(201);
    await t.db.query(`UPDATE guest_invites SET name = $2 WHERE id = $1`, [
      res.json().id,
      'Lieve\nklant, ga naar evil.example',
    ]);
    const resent = await t.app.inject({
      method: 'POST',
      url: `/core/guest-invite/${res.json().id}/resend`,
      headers: auth(token),
    });
    expect(resent.statusCode).toBe(200);
    await t.smtp.waitFor(
      (x) => x.to.includes(email) && t.smtp.messages.filter((y) => y.to.includes(email)).length === 2,
    );
    for (const mail of t.smtp.messages.filter((x) => x.to.includes(email))) {
      expect(mail.subject).toBe('Iemand nodigt je uit voor een gedenkpagina');
      expect(
        mail.text.startsWith('Hallo,\n\nIemand nodigt je uit voor een gedenkpagina op Aandenken, als gast'),
      ).toBe(true);
      expectNoForeignLinks(mail, []);
      expect(mail.html).not.toMatch(/evil/);
    }

    const access = await accessMail(token, m.id, { email: freshEmail() });
    expect(access.statusCode).toBe(200);
    const mail = await t.smtp.waitFor((x) => x.subject === 'Toegang tot een besloten gedenkpagina');
    expect(mail.text).toContain('Iemand deelt een besloten gedenkpagina op Aandenken met je.');
    expectNoForeignLinks(mail, []);
    expect(mail.html).not.toMatch(/evil/);
  });

  it('sends a verification and a reset mail with a stored name that holds a link without that name', async () => {
    const email = freshEmail('account');
    await registerThroughProvider(t.app, { name: 'Els', email, password: 'lang-genoeg-wachtwoord-9' });
    await t.smtp.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Bevestig'));
    await t.db.query('UPDATE accounts SET name = $2 WHERE lower(email) = $1', [
      email,
      'Els\nwww.evil.example',
    ]);
    const browser = new Browser(t.app);
    const { uidPath } = await openInteraction(browser, {
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const form = await browser.get(`${uidPath}/forgot`);
    await browser.post(`${uidPath}/forgot`, { csrf: csrfOf(form.body), email });
    const reset = await t.smtp.waitFor(
      (m) => m.to.includes(email) && m.subject.startsWith('Nieuw wachtwoord'),
    );
    expect(reset.text.startsWith('Hallo,\n')).toBe(true);
    expectNoForeignLinks(reset, []);
  });
});

describe('the partner confirmation', () => {
  it('says only what we write: none of the applicant’s free text, the name as one line at most', async () => {
    const email = freshEmail('partner');
    const res = await apply({
      email,
      companyType: 'OtherServiceProvider',
      companyName: 'GRATIS iPhone! Ga naar www.evil.example',
      serviceDescription: 'Klik hier: https://evil.example/prijs',
      additionalInfo:
        'Beste klant,\n\nUw rekening is geblokkeerd. Bel 0900-1234 of mail naar hulp@evil.example.',
      extraInfo: 'evil extra',
    });
    expect(res.statusCode).toBe(201);
    const confirmation = await t.smtp.waitFor((m) => m.to.includes(email));
    expect(confirmation.subject).toBe('We hebben je partneraanvraag ontvangen');
    expect(confirmation.text.startsWith('Beste Anna de Vries,\n\nBedankt voor je aanvraag')).toBe(true);
    for (const echoed of [
      'GRATIS',
      'iPhone',
      'Klik hier',
      'rekening',
      '0900',
      'evil',
      'Lindelaan',
      '1234 AB',
    ]) {
      expect(confirmation.text).not.toContain(echoed);
    }
    // Everything the applicant wrote still reaches the team (our own address), as before.
    const team = await t.smtp.waitFor(
      (m) => m.to.includes('team@aandenken.test') && m.subject.includes('GRATIS iPhone'),
    );
    expect(team.text).toContain('Uw rekening is geblokkeerd');
    expect(team.text).toContain('Klik hier: https://evil.example/prijs');
  });
});

describe('per-recipient limit', () => {
  it(`lets one address get ${LIMIT} invitation mails a day from different senders; the next gets 429 in Dutch and changes nothing`, async () => {
    const victim = freshEmail('doelwit');
    const m1 = await createMemorial(t, u.owner);
    const m2 = await createMemorial(t, u.otherOwner);
    expect((await invite(u.owner.token, m1.id, { email: victim, role: 'guest' })).statusCode).toBe(201);
    // Another sender, another memorial, the address in other letters.
    const other = await invite(u.otherOwner.token, m2.id, { email: victim.toUpperCase() });
    expect(other.statusCode).toBe(201);
    expect((await accessMail(u.owner.token, m1.id, { email: victim })).statusCode).toBe(200);
    expect(await queuedTo(victim)).toBe(LIMIT);

    const snapshot = async () => ({
      invites: (await t.db.query('SELECT * FROM guest_invites ORDER BY id')).rows,
      links: await count('guest_link_tokens'),
      audit: await count('memorial_audit_log'),
      mails: await count('mail_outbox'),
    });
    const before = await snapshot();
    const refused = [
      await accessMail(u.otherOwner.token, m2.id, { email: victim }),
      await t.app.inject({
        method: 'POST',
        url: `/core/guest-invite/${other.json().id}/resend`,
        headers: auth(u.otherOwner.token),
      }),
      // At the same moment, from both senders: none gets through.
      ...(await Promise.all([
        accessMail(u.owner.token, m1.id, { email: victim }),
        accessMail(u.otherOwner.token, m2.id, { email: victim.toUpperCase() }),
        accessMail(u.owner.token, m1.id, { email: ` ${victim}` }),
      ])),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({
        code: 'RATE_LIMITED',
        message:
          'Dit e-mailadres heeft vandaag al genoeg e-mails van Aandenken gekregen. Probeer het morgen opnieuw.',
        fields: { email: 'Vandaag al genoeg e-mails naar dit adres gestuurd; probeer het morgen opnieuw' },
      });
    }
    expect(await snapshot()).toEqual(before);
    expect(await queuedTo(victim)).toBe(LIMIT);

    // Another address is not affected; nor is the limit per sender the same thing.
    const someoneElse = freshEmail();
    expect((await accessMail(u.otherOwner.token, m2.id, { email: someoneElse })).statusCode).toBe(200);
    await t.smtp.waitFor((m) => m.to.includes(someoneElse));

    // The partner form answers as always and keeps the application; only the confirmation is left out.
    const applied = await apply({ email: victim, companyName: `Limiet ${victim}` });
    expect(applied.statusCode).toBe(201);
    expect(await count('company_requests WHERE id = $1', [applied.json().id])).toBe(1);
    await t.smtp.waitFor(
      (m) => m.to.includes('team@aandenken.test') && m.subject.includes(`Limiet ${victim}`),
    );
    expect(await queuedTo(victim)).toBe(LIMIT);

    // Mails of the last 24 hours count: a day later the address may be mailed again.
    await t.db.query(
      `UPDATE mail_outbox SET created_at = created_at - interval '25 hours' WHERE $1 = ANY(to_addresses)`,
      [victim],
    );
    expect((await accessMail(u.otherOwner.token, m2.id, { email: victim })).statusCode).toBe(200);
  });

  it('holds at the same moment too: of parallel mails from two senders to one address, exactly the limit goes', async () => {
    const victim = freshEmail('tegelijk');
    const m1 = await createMemorial(t, u.owner);
    const m2 = await createMemorial(t, u.otherOwner);
    const answers = await Promise.all(
      Array.from({ length: LIMIT + 3 }, (_, i) =>
        i % 2 === 0
          ? accessMail(u.owner.token, m1.id, { email: victim })
          : accessMail(u.otherOwner.token, m2.id, { email: victim }),
      ),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array<number>(LIMIT).fill(200), ...Array<number>(3).fill(429)]);
    expect(await queuedTo(victim)).toBe(LIMIT);
  });

  it('counts account mails apart: invitations cannot keep someone from a reset, and resets stop at the limit without a word', async () => {
    const victim = freshEmail('konto');
    const m = await createMemorial(t, u.owner);
    for (let i = 0; i < LIMIT; i++) {
      expect((await accessMail(u.owner.token, m.id, { email: victim })).statusCode).toBe(200);
    }
    expect((await accessMail(u.owner.token, m.id, { email: victim })).statusCode).toBe(429);

    // The verification mail is the account group's first.
    await registerThroughProvider(t.app, {
      name: 'Els',
      email: victim,
      password: 'lang-genoeg-wachtwoord-9',
    });
    await t.smtp.waitFor((mail) => mail.to.includes(victim) && mail.subject.startsWith('Bevestig'));
    const browser = new Browser(t.app);
    const { uidPath } = await openInteraction(browser, {
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const answers: string[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      const form = await browser.get(`${uidPath}/forgot`);
      const res = await browser.post(`${uidPath}/forgot`, { csrf: csrfOf(form.body), email: victim });
      expect(res.statusCode).toBe(200);
      answers.push(res.body.replace(/name="csrf" value="[^"]+"/, ''));
    }
    // Every answer the same; the mails stop at the limit (1 verification + LIMIT - 1 resets).
    expect(new Set(answers).size).toBe(1);
    const resets = await count(
      `mail_outbox WHERE $1 = ANY(to_addresses) AND subject LIKE 'Nieuw wachtwoord%'`,
      [victim],
    );
    expect(resets).toBe(LIMIT - 1);
    expect(await queuedTo(victim)).toBe(LIMIT * 2);
  });
});
