import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createTestApp, type TestContext } from './helpers.ts';
import {
  Browser,
  csrfOf,
  endpoints,
  openInteraction,
  pkce,
  refresh,
  registerThroughProvider,
  signInWithPassword,
  verifyWithPassword,
} from './identity-flow.ts';
import { signInMethods } from '../src/modules/account/service.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({
    LOGIN_FAILURE_FACTOR: '3',
    LOGIN_WAIT_INCREMENT_SECONDS: '120',
    LOGIN_MAX_WAIT_SECONDS: '300',
    // Many forms from one test address; the per-address limit has its own app below.
    IDENTITY_RATE_LIMIT_MAX: '1000',
  });
});
afterAll(async () => t?.close());

const password = 'lang-genoeg-wachtwoord';
const s256 = () => ({ code_challenge: pkce().challenge, code_challenge_method: 'S256' });
const linkIn = (text: string) => /(http:\/\/\S+)/.exec(text)![1]!.replace('http://localhost:8080', '');

async function tryLogin(email: string, pw: string) {
  const browser = new Browser(t.app);
  const { uidPath, csrf } = await openInteraction(browser, s256());
  return browser.post(`${uidPath}/login`, { csrf, email, password: pw });
}

describe('registration', () => {
  it('opens on the registration screen with the e-mail from login_hint, and validates in Dutch', async () => {
    const browser = new Browser(t.app);
    const { uidPath, page, csrf } = await openInteraction(
      browser,
      { ...s256(), login_hint: 'nieuw@example.nl' },
      endpoints.registrations,
    );
    expect(page.body).toContain('<h1>Account aanmaken</h1>');
    expect(page.body).toContain('value="nieuw@example.nl"');
    // What the new account agrees to, one click away.
    expect(page.body).toMatch(/<a href="[^"]*\/voorwaarden">algemene voorwaarden<\/a>/);
    expect(page.body).toMatch(/<a href="[^"]*\/privacy">privacybeleid<\/a>/);
    expect(page.headers['cache-control']).toBe('no-store');

    const bad = await browser.post(`${uidPath}/register`, {
      csrf,
      name: ' ',
      email: 'geen-adres',
      password: 'kort',
      passwordRepeat: 'anders',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Naam is verplicht');
    expect(bad.body).toContain('Voer een geldig e-mailadres in');
    expect(bad.body).toContain('Je wachtwoord moet minstens 8 tekens lang zijn');
    const mismatch = await browser.post(`${uidPath}/register`, {
      csrf,
      name: 'Nieuw',
      email: 'nieuw@example.nl',
      password,
      passwordRepeat: `${password}x`,
    });
    expect(mismatch.body).toContain('De wachtwoorden zijn niet gelijk');
    const { rows } = await t.db.query("SELECT 1 FROM accounts WHERE email = 'nieuw@example.nl'");
    expect(rows).toHaveLength(0);
  });

  it('refuses common and breached passwords, one repeated character and the e-mail address, saying why', async () => {
    const browser = new Browser(t.app);
    const { uidPath, csrf } = await openInteraction(browser, s256(), endpoints.registrations);
    const attempt = (pw: string, email = 'henk.jansen@example.nl') =>
      browser.post(`${uidPath}/register`, { csrf, name: 'Henk', email, password: pw, passwordRepeat: pw });
    for (const pw of ['password', '12345678', 'Qwertyuiop', 'wachtwoord']) {
      const res = await attempt(pw);
      expect(res.statusCode, pw).toBe(400);
      expect(res.body, pw).toContain('het staat op een lijst van veelgebruikte of uitgelekte wachtwoorden');
    }
    const repeated = await attempt('aaaaaaaa');
    expect(repeated.statusCode).toBe(400);
    expect(repeated.body).toContain('Je wachtwoord mag niet uit één steeds herhaald teken bestaan');
    for (const pw of [
      'henk.jansen@example.nl',
      'HENK.JANSEN@example.nl',
      'henk.jansen',
      'henk.jansen2024!',
    ]) {
      const res = await attempt(pw);
      expect(res.statusCode, pw).toBe(400);
      expect(res.body, pw).toContain('Je wachtwoord mag je e-mailadres');
    }
    const { rows } = await t.db.query("SELECT 1 FROM accounts WHERE email = 'henk.jansen@example.nl'");
    expect(rows).toHaveLength(0);
    // No composition rules: a long phrase of plain words is fine (also the end-to-end run's password).
    await registerThroughProvider(t.app, {
      name: 'Henk',
      email: 'henk.jansen@example.nl',
      password: 'een-veilig-wachtwoord',
    });
  });

  it('stores an argon2id hash, mails a verification link that works once, and refuses a duplicate e-mail', async () => {
    const { tokens } = await registerThroughProvider(t.app, {
      name: 'Anna',
      email: 'Anna@Example.nl',
      password,
    });
    const { rows } = await t.db.query<{ password_hash: string; email_verified: boolean }>(
      "SELECT password_hash, email_verified FROM accounts WHERE lower(email) = 'anna@example.nl'",
    );
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0]!.email_verified).toBe(false);
    expect(decodeJwt(tokens.id_token).email_verified).toBe(false);

    const mail = await t.smtp.waitFor((m) => m.to.some((to) => to.toLowerCase() === 'anna@example.nl'));
    expect(mail.subject).toBe('Bevestig je e-mailadres voor Aandenken');
    const link = linkIn(mail.text);
    const ok = await verifyWithPassword(t.app, link, password);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('Je e-mailadres is bevestigd');
    expect(ok.headers['cache-control']).toBe('no-store');
    const again = await t.app.inject({ url: link });
    expect(again.statusCode).toBe(400);
    expect(again.headers['cache-control']).toBe('no-store');
    const verified = await t.db.query(
      "SELECT email_verified FROM accounts WHERE lower(email) = 'anna@example.nl'",
    );
    expect(verified.rows[0]).toEqual({ email_verified: true });

    const browser = new Browser(t.app);
    const { uidPath, csrf } = await openInteraction(browser, s256(), endpoints.registrations);
    const dup = await browser.post(`${uidPath}/register`, {
      csrf,
      name: 'Iemand anders',
      email: 'anna@EXAMPLE.nl',
      password,
      passwordRepeat: password,
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.body).toContain('Er bestaat al een account met dit e-mailadres');
  });

  it('refuses a form without the interaction’s token', async () => {
    const browser = new Browser(t.app);
    const { uidPath } = await openInteraction(browser, s256(), endpoints.registrations);
    const res = await browser.post(`${uidPath}/register`, {
      csrf: 'vervalst',
      name: 'X',
      email: 'csrf@example.nl',
      password,
      passwordRepeat: password,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Deze pagina is verlopen');
    expect(res.headers['cache-control']).toBe('no-store');
    const { rows } = await t.db.query("SELECT 1 FROM accounts WHERE email = 'csrf@example.nl'");
    expect(rows).toHaveLength(0);
  });
});

describe('login failures', () => {
  it('answer the same for a wrong password and an unknown e-mail', async () => {
    await registerThroughProvider(t.app, { name: 'Bram', email: 'bram@example.nl', password });
    const wrong = await tryLogin('bram@example.nl', 'verkeerd-wachtwoord');
    const unknown = await tryLogin('niemand@example.nl', 'verkeerd-wachtwoord');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    const message = (html: string) => /role="alert">([^<]+)</.exec(html)?.[1];
    expect(message(wrong.body)).toBe('Onjuist e-mailadres of wachtwoord.');
    expect(message(unknown.body)).toBe(message(wrong.body));
  });

  it('lock an address after the configured failures, also against the right password, and unlock later', async () => {
    await registerThroughProvider(t.app, { name: 'Cas', email: 'cas@example.nl', password });
    for (let i = 0; i < 2; i++)
      expect((await tryLogin('cas@example.nl', 'fout-fout-fout')).statusCode).toBe(401);
    const third = await tryLogin('cas@example.nl', 'fout-fout-fout');
    expect(third.statusCode).toBe(401);
    const locked = await tryLogin('cas@example.nl', password);
    expect(locked.statusCode).toBe(429);
    expect(locked.body).toContain('Te veel mislukte pogingen. Probeer het over 2 minuten opnieuw.');
    // Unknown addresses lock the same way, so the lock tells nothing about existence.
    for (let i = 0; i < 3; i++) await tryLogin('onbekend@example.nl', 'fout-fout-fout');
    expect((await tryLogin('onbekend@example.nl', 'fout-fout-fout')).body).toContain(
      'Te veel mislukte pogingen',
    );

    // The lock expires: move it into the past, as time would.
    await t.db.query(
      "UPDATE login_failures SET locked_until = now() - interval '1 second' WHERE email = 'cas@example.nl'",
    );
    const ok = await tryLogin('cas@example.nl', password);
    expect(ok.statusCode).toBe(303);
    const { rows } = await t.db.query("SELECT 1 FROM login_failures WHERE email = 'cas@example.nl'");
    expect(rows).toHaveLength(0);
  });

  it('check at most LOGIN_FAILURE_FACTOR passwords when 20 wrong ones arrive at the same moment', async () => {
    await registerThroughProvider(t.app, { name: 'Gijs', email: 'gijs@example.nl', password });
    const forms = [];
    for (let i = 0; i < 20; i++) {
      const browser = new Browser(t.app);
      forms.push({ browser, ...(await openInteraction(browser, s256())) });
    }
    const answers = await Promise.all(
      forms.map(({ browser, uidPath, csrf }) =>
        browser.post(`${uidPath}/login`, { csrf, email: 'gijs@example.nl', password: `fout-${uidPath}` }),
      ),
    );
    // Every answer that is not 'locked' is a password that argon2 checked.
    const checked = answers.filter((a) => !a.body.includes('Te veel mislukte pogingen'));
    expect(checked.length).toBeLessThanOrEqual(3);
    expect(checked.every((a) => a.statusCode === 401)).toBe(true);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(20 - checked.length);
    const { rows } = await t.db.query<{ failures: number }>(
      "SELECT failures FROM login_failures WHERE email = 'gijs@example.nl'",
    );
    expect(rows[0]!.failures).toBe(3);
  });

  it('waits longer after more failures, up to the maximum', async () => {
    await t.db.query(
      "INSERT INTO login_failures (email, failures, last_failure_at) VALUES ('veel@example.nl', 8, now())",
    );
    expect((await tryLogin('veel@example.nl', 'fout-fout-fout')).statusCode).toBe(401);
    expect((await tryLogin('veel@example.nl', 'fout-fout-fout')).body).toContain(
      'Probeer het over 5 minuten opnieuw',
    );
    const { rows } = await t.db.query<{ failures: number; wait: number }>(
      "SELECT failures, round(extract(epoch FROM locked_until - last_failure_at))::int AS wait FROM login_failures WHERE email = 'veel@example.nl'",
    );
    expect(rows[0]).toEqual({ failures: 9, wait: 300 });
  });
});

describe('forgotten password', () => {
  it('mails a single-use, expiring link without telling whether the address exists', async () => {
    await registerThroughProvider(t.app, { name: 'Dirk', email: 'dirk@example.nl', password });
    const browser = new Browser(t.app);
    const { uidPath } = await openInteraction(browser, s256());
    const form = await browser.get(`${uidPath}/forgot`);
    expect(form.body).toContain('<h1>Wachtwoord vergeten</h1>');
    expect(form.headers['cache-control']).toBe('no-store');
    const csrf = csrfOf(form.body);

    const unknown = await browser.post(`${uidPath}/forgot`, { csrf, email: 'bestaat-niet@example.nl' });
    const known = await browser.post(`${uidPath}/forgot`, { csrf, email: 'dirk@example.nl' });
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(known.body).toContain('Als er een account bij dit e-mailadres hoort');
    expect(known.headers['cache-control']).toBe('no-store');

    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('dirk@example.nl') && m.subject.startsWith('Nieuw wachtwoord'),
    );
    expect(t.smtp.messages.some((m) => m.to.includes('bestaat-niet@example.nl'))).toBe(false);
    const { rows: queued } = await t.db.query(
      `SELECT id FROM mail_outbox WHERE 'bestaat-niet@example.nl' = ANY(to_addresses)`,
    );
    expect(queued).toEqual([]);
    const link = linkIn(mail.text);
    const page = await browser.get(link);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    const token = new URL(link, 'http://x').searchParams.get('token')!;
    const resetCsrf = csrfOf(page.body);

    const short = await browser.post(
      `${endpoints.auth.replace(/\/protocol.*/, '')}/login-actions/reset-password`,
      {
        token,
        csrf: resetCsrf,
        password: 'kort',
        passwordRepeat: 'kort',
      },
    );
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Je wachtwoord moet minstens 8 tekens lang zijn');
    for (const [pw, why] of [
      ['12345678', 'lijst van veelgebruikte of uitgelekte wachtwoorden'],
      ['dirk@example.nl', 'Je wachtwoord mag je e-mailadres'],
    ] as const) {
      const weak = await browser.post('/realms/aandenken/login-actions/reset-password', {
        token,
        csrf: resetCsrf,
        password: pw,
        passwordRepeat: pw,
      });
      expect(weak.statusCode, pw).toBe(400);
      expect(weak.body, pw).toContain(why);
    }

    const newPassword = 'een-nieuw-wachtwoord';
    const done = await browser.post('/realms/aandenken/login-actions/reset-password', {
      token,
      csrf: resetCsrf,
      password: newPassword,
      passwordRepeat: newPassword,
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Je wachtwoord is gewijzigd');
    // The same browser continues the sign-in it started.
    expect(done.body).toContain(`${uidPath}?scherm=gewijzigd`);

    const reused = await browser.post('/realms/aandenken/login-actions/reset-password', {
      token,
      csrf: resetCsrf,
      password: 'nog-een-ander-wachtwoord',
      passwordRepeat: 'nog-een-ander-wachtwoord',
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.body).toContain('Deze link is verlopen of al gebruikt');

    expect((await tryLogin('dirk@example.nl', password)).statusCode).toBe(401);
    await signInWithPassword(t.app, 'dirk@example.nl', newPassword);
  });

  it('ends every session, grant and refresh token of the account (a pre-hijack of the address ends)', async () => {
    // Someone registers an address that is not theirs and keeps the tokens.
    const { tokens: attacker } = await registerThroughProvider(t.app, {
      name: 'Niet Els',
      email: 'els@example.nl',
      password: 'wachtwoord-van-de-kaper',
    });
    const rotated = await refresh(t.app, attacker.refresh_token);
    expect(rotated.statusCode).toBe(200);
    const attackerRefresh = rotated.json().refresh_token as string;
    const accountId = decodeJwt(attacker.access_token).sub!;
    const { rows: before } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM oidc_models WHERE payload->>'accountId' = $1`,
      [accountId],
    );
    expect(before[0]!.n).toBeGreaterThan(0);

    // The real owner uses 'Wachtwoord vergeten' and the mailed link.
    const browser = new Browser(t.app);
    const { uidPath } = await openInteraction(browser, s256());
    const form = await browser.get(`${uidPath}/forgot`);
    await browser.post(`${uidPath}/forgot`, { csrf: csrfOf(form.body), email: 'els@example.nl' });
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('els@example.nl') && m.subject.startsWith('Nieuw wachtwoord'),
    );
    const link = linkIn(mail.text);
    const page = await browser.get(link);
    const done = await browser.post('/realms/aandenken/login-actions/reset-password', {
      token: new URL(link, 'http://x').searchParams.get('token')!,
      csrf: csrfOf(page.body),
      password: 'het-wachtwoord-van-els',
      passwordRepeat: 'het-wachtwoord-van-els',
    });
    expect(done.statusCode).toBe(200);

    const refused = await refresh(t.app, attackerRefresh);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('invalid_grant');
    expect((await refresh(t.app, attacker.refresh_token)).json().error).toBe('invalid_grant');
    const { rows: after } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM oidc_models
       WHERE payload->>'accountId' = $1 OR grant_id IN (SELECT grant_id FROM oidc_models WHERE payload->>'accountId' = $1)`,
      [accountId],
    );
    expect(after[0]!.n).toBe(0);
    expect((await tryLogin('els@example.nl', 'wachtwoord-van-de-kaper')).statusCode).toBe(401);
    const { tokens: owner } = await signInWithPassword(t.app, 'els@example.nl', 'het-wachtwoord-van-els');
    expect(decodeJwt(owner.id_token).email_verified).toBe(true);

    // The reset proved the mailbox: the verification link from the registration asks for nothing more.
    const verifyMail = await t.smtp.waitFor(
      (m) => m.to.includes('els@example.nl') && m.subject.startsWith('Bevestig'),
    );
    const verified = await t.app.inject({ url: linkIn(verifyMail.text) });
    expect(verified.statusCode).toBe(200);
    expect(verified.body).toContain('Je e-mailadres is bevestigd');
    expect((await signInWithPassword(t.app, 'els@example.nl', 'het-wachtwoord-van-els')).tokens).toBeTruthy();
  });

  it('never lets a session from before a verification carry a verified address', async () => {
    const { tokens: early } = await registerThroughProvider(t.app, {
      name: 'Niet Frits',
      email: 'frits@example.nl',
      password: 'wachtwoord-van-de-kaper',
    });
    expect(decodeJwt(early.id_token).email_verified).toBe(false);
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('frits@example.nl') && m.subject.startsWith('Bevestig'),
    );
    const done = await verifyWithPassword(t.app, linkIn(mail.text), 'wachtwoord-van-de-kaper');
    expect(done.statusCode).toBe(200);
    const refused = await refresh(t.app, early.refresh_token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('invalid_grant');
  });

  it('ends a pre-hijack when the owner only follows the verification link: the password chosen before stops working', async () => {
    // Someone registers an address that is not theirs, with their own password, and keeps the tokens.
    const { tokens: attacker } = await registerThroughProvider(t.app, {
      name: 'Niet Greet',
      email: 'greet@example.nl',
      password: 'wachtwoord-van-de-kaper',
    });
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('greet@example.nl') && m.subject.startsWith('Bevestig'),
    );
    expect(mail.text).toContain('met één klik op deze link');
    const link = linkIn(mail.text);

    // The real owner opens the mailed link, in a browser signed in to their own (other) account. Opening it
    // changes nothing: that is no sign-in of this account (nor is a mail scanner's fetch).
    const owner = new Browser(t.app);
    await registerThroughProvider(t.app, { name: 'Greet', email: 'greet.eigen@example.nl', password }, owner);
    const page = await owner.get(link);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<h1>Bevestig je e-mailadres</h1>');
    expect(page.body).toContain('Vul het wachtwoord van je account in');
    const { rows: still } = await t.db.query<{ email_verified: boolean }>(
      "SELECT email_verified FROM accounts WHERE email = 'greet@example.nl'",
    );
    expect(still[0]!.email_verified).toBe(false);
    const token = new URL(link, 'http://x').searchParams.get('token')!;
    // Without the account's password the holder gets nothing by guessing it: the address stays unconfirmed.
    const guess = await owner.post('/realms/aandenken/login-actions/verify-email', {
      token,
      csrf: csrfOf(page.body),
      stap: 'wachtwoord',
      password: 'eigen-sleutel-van-de-eigenaar',
    });
    expect(guess.statusCode).toBe(401);
    expect(guess.body).toContain('Dit wachtwoord klopt niet.');
    expect(
      (await t.db.query("SELECT email_verified FROM accounts WHERE email = 'greet@example.nl'")).rows[0],
    ).toEqual({ email_verified: false });
    // They choose a new password instead ('Kies een nieuw wachtwoord').
    const choose = await owner.get(`${link}&nieuw=1`);
    expect(choose.body).toContain('<h1>Kies een nieuw wachtwoord</h1>');

    // Refused forms change nothing and say why, in Dutch.
    const forged = await owner.post('/realms/aandenken/login-actions/verify-email', {
      token,
      csrf: 'vervalst',
      stap: 'nieuw',
      password: 'eigen-sleutel-van-de-eigenaar',
      passwordRepeat: 'eigen-sleutel-van-de-eigenaar',
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toContain('Deze link is verlopen of al gebruikt');
    const weak = await owner.post('/realms/aandenken/login-actions/verify-email', {
      token,
      csrf: csrfOf(page.body),
      stap: 'nieuw',
      password: 'password',
      passwordRepeat: 'password',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain('aria-invalid="true"');
    const mismatch = await owner.post('/realms/aandenken/login-actions/verify-email', {
      token,
      csrf: csrfOf(page.body),
      stap: 'nieuw',
      password: 'eigen-sleutel-van-de-eigenaar',
      passwordRepeat: 'iets-anders-helemaal',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toContain('De wachtwoorden zijn niet gelijk');
    expect((await refresh(t.app, attacker.refresh_token)).statusCode).toBe(200);

    const done = await owner.post('/realms/aandenken/login-actions/verify-email', {
      token,
      csrf: csrfOf(page.body),
      stap: 'nieuw',
      password: 'eigen-sleutel-van-de-eigenaar',
      passwordRepeat: 'eigen-sleutel-van-de-eigenaar',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Je e-mailadres is bevestigd');
    expect(done.body).toContain('je wachtwoord is opgeslagen');

    // The attacker's password, refresh tokens and access token are refused; the owner signs in.
    expect((await tryLogin('greet@example.nl', 'wachtwoord-van-de-kaper')).statusCode).toBe(401);
    const { rows: tokensLeft } = await t.db.query(
      `SELECT 1 FROM oidc_models WHERE payload->>'accountId' = $1`,
      [decodeJwt(attacker.access_token).sub],
    );
    expect(tokensLeft).toEqual([]);
    const userinfo = await t.app.inject({
      url: endpoints.userinfo,
      headers: { authorization: `Bearer ${attacker.access_token}` },
    });
    expect(userinfo.statusCode).toBe(401);
    expect((await t.app.inject({ url: link })).statusCode).toBe(400);
    // eslint-disable-next-line no-restricted-syntax -- tokens count in whole seconds
    await new Promise((r) => setTimeout(r, 1100)); // tokens from the second of the verification do not count
    const { tokens } = await signInWithPassword(t.app, 'greet@example.nl', 'eigen-sleutel-van-de-eigenaar');
    expect(decodeJwt(tokens.id_token).email_verified).toBe(true);
    const mine = await t.app.inject({
      url: endpoints.userinfo,
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(mine.json()).toMatchObject({ email: 'greet@example.nl', email_verified: true });
  });

  it('refuses an expired link', async () => {
    const browser = new Browser(t.app);
    const { uidPath, csrf } = await openInteraction(browser, s256());
    await registerThroughProvider(t.app, { name: 'Eva', email: 'eva@example.nl', password });
    await browser.post(`${uidPath}/forgot`, { csrf, email: 'eva@example.nl' });
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('eva@example.nl') && m.subject.startsWith('Nieuw wachtwoord'),
    );
    await t.db.query(
      "UPDATE account_action_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'reset-password'",
    );
    const page = await browser.get(linkIn(mail.text));
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('Deze link is verlopen of al gebruikt');
    expect(page.headers['cache-control']).toBe('no-store');
  });
});

describe('one-click confirmation', () => {
  const verifiedOf = async (email: string) =>
    (
      await t.db.query<{ email_verified: boolean }>(
        'SELECT email_verified FROM accounts WHERE lower(email) = lower($1)',
        [email],
      )
    ).rows[0]?.email_verified;
  const confirmMail = (email: string) =>
    t.smtp.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Bevestig'));
  const continueHref = (html: string) => /<a class="btn btn-primary" href="([^"]+)"/.exec(html)?.[1];

  it('confirms in one click in the browser that registered: every sign-in stays; a password reset later ends them all', async () => {
    const email = 'hanna@example.nl';
    const { browser, tokens: first } = await registerThroughProvider(t.app, {
      name: 'Hanna',
      email,
      password,
    });
    const { tokens: phone } = await signInWithPassword(t.app, email, password);
    const link = linkIn((await confirmMail(email)).text);

    const done = await browser.get(link);
    expect(done.statusCode).toBe(200);
    expect(done.headers['cache-control']).toBe('no-store');
    expect(done.body).toContain('<h1>Je e-mailadres is bevestigd</h1>');
    expect(done.body).not.toContain('type="password"');
    expect(await verifiedOf(email)).toBe(true);
    // Nobody is signed out: both sign-ins renew, and the access token from before counts as verified.
    expect((await refresh(t.app, first.refresh_token)).statusCode).toBe(200);
    const renewed = await refresh(t.app, phone.refresh_token);
    expect(renewed.statusCode).toBe(200);
    const info = await t.app.inject({
      url: endpoints.userinfo,
      headers: { authorization: `Bearer ${first.access_token}` },
    });
    expect(info.json()).toMatchObject({ email, email_verified: true });
    expect((await browser.get(link)).statusCode).toBe(400);

    // Only a password reset signs out everywhere.
    const resetter = new Browser(t.app);
    const { uidPath } = await openInteraction(resetter, s256());
    const form = await resetter.get(`${uidPath}/forgot`);
    await resetter.post(`${uidPath}/forgot`, { csrf: csrfOf(form.body), email });
    const resetLink = linkIn(
      (await t.smtp.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Nieuw wachtwoord'))).text,
    );
    const resetPage = await resetter.get(resetLink);
    const reset = await resetter.post('/realms/aandenken/login-actions/reset-password', {
      token: new URL(resetLink, 'http://x').searchParams.get('token')!,
      csrf: csrfOf(resetPage.body),
      password: 'zomer-regen-over-de-duinen',
      passwordRepeat: 'zomer-regen-over-de-duinen',
    });
    expect(reset.statusCode).toBe(200);
    expect((await refresh(t.app, renewed.json().refresh_token as string)).json().error).toBe('invalid_grant');
  });

  it('elsewhere opening the link changes nothing; the account’s password confirms it and no sign-in ends', async () => {
    const email = 'ilse@example.nl';
    const { tokens } = await registerThroughProvider(t.app, { name: 'Ilse', email, password });
    const link = linkIn((await confirmMail(email)).text);
    // A mail scanner, or the person on another device: a form, nothing used up.
    const phone = new Browser(t.app);
    const page = await phone.get(link);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Bevestig je e-mailadres</h1>');
    expect(page.body).toContain('ilse@example.nl');
    expect(await verifiedOf(email)).toBe(false);
    const form = {
      token: new URL(link, 'http://x').searchParams.get('token')!,
      csrf: csrfOf(page.body),
      stap: 'wachtwoord',
    };
    const wrong = await phone.post('/realms/aandenken/login-actions/verify-email', {
      ...form,
      password: 'niet-het-goede',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('aria-invalid="true"');
    expect(await verifiedOf(email)).toBe(false);
    const ok = await phone.post('/realms/aandenken/login-actions/verify-email', { ...form, password });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('Je e-mailadres is bevestigd');
    expect(await verifiedOf(email)).toBe(true);
    expect((await refresh(t.app, tokens.refresh_token)).statusCode).toBe(200);
  });

  it('returns the person to the path they came from, and only to a path on the site', async () => {
    const path = '/memorial/6a0c7a52-0000-4000-8000-000000000001/beheer?tab=mensen';
    const { browser } = await registerThroughProvider(
      t.app,
      { name: 'Joke', email: 'joke@example.nl', password },
      new Browser(t.app),
      path,
    );
    const link = linkIn((await confirmMail('joke@example.nl')).text);
    expect(new URL(link, 'http://x').searchParams.get('terug')).toBe(path);
    const done = await browser.get(link);
    expect(continueHref(done.body)).toBe(
      `http://localhost:8080/memorial/6a0c7a52-0000-4000-8000-000000000001/beheer?tab=mensen&amp;aanmelden=1`,
    );

    // Another site, a protocol-relative or backslashed address, a scheme: never followed, nor mailed.
    for (const [i, bad] of [
      'https://evil.example/x',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
    ].entries()) {
      const email = `kees${i}@example.nl`;
      const { browser: b } = await registerThroughProvider(
        t.app,
        { name: 'Kees', email, password },
        new Browser(t.app),
        bad,
      );
      const mailed = linkIn((await confirmMail(email)).text);
      expect(new URL(mailed, 'http://x').searchParams.has('terug')).toBe(false);
      // The same in a link someone altered by hand.
      const altered = await b.get(`${mailed}&terug=${encodeURIComponent(bad)}`);
      expect(altered.statusCode).toBe(200);
      expect(continueHref(altered.body)).toBe('http://localhost:8080/mijn-paginas?aanmelden=1');
    }
  });
});

describe('Google without credentials', () => {
  it('shows no Google button, on the screens or in the site', async () => {
    const browser = new Browser(t.app);
    const { uidPath, page } = await openInteraction(browser, s256());
    expect(page.body).toContain('<h1>Inloggen</h1>');
    expect(page.body).not.toContain('Inloggen met Google');
    expect(page.body).not.toContain('class="divider"');
    const register = await browser.get(`${uidPath}?scherm=registreren`);
    expect(register.body).toContain('<h1>Account aanmaken</h1>');
    expect(register.body).not.toContain('Inloggen met Google');

    const methods = await t.app.inject({ url: '/core/account/sign-in-methods' });
    expect(methods.statusCode).toBe(200);
    expect(methods.json()).toEqual({ google: false });
    // An external provider (Keycloak) brokers Google itself, under the alias the web's hint names.
    expect(signInMethods({ embeddedIdentity: false, googleEnabled: false })).toEqual({ google: true });
  });

  it('a Google start that still arrives (an old tab, kc_idp_hint) gets the login screen saying why, no dead end', async () => {
    const browser = new Browser(t.app);
    const { uidPath, csrf } = await openInteraction(browser, s256());
    const button = await browser.post(`${uidPath}/google`, { csrf });
    expect(button.statusCode).toBe(200);
    expect(button.body).toContain(
      'Inloggen met Google kan hier niet. Log in met je e-mailadres en wachtwoord.',
    );
    expect(button.body).toContain(`action="${uidPath}/login"`);
    expect(button.headers['cache-control']).toBe('no-store');

    const hinted = await openInteraction(new Browser(t.app), {
      ...s256(),
      kc_idp_hint: 'google',
      login_hint: 'anna@example.nl',
    });
    expect(hinted.page.body).toContain('Inloggen met Google kan hier niet.');
    expect(hinted.page.body).toContain('value="anna@example.nl"');
    expect(hinted.page.body).toContain(`action="${hinted.uidPath}/login"`);
    expect(hinted.page.headers['cache-control']).toBe('no-store');
  });

  it('refuses an unknown identity-provider hint', async () => {
    const res = await new Browser(t.app).get(
      `${endpoints.auth}?${new URLSearchParams({ client_id: 'web', redirect_uri: 'http://localhost:8080/auth/callback', response_type: 'code', scope: 'openid', ...s256(), kc_idp_hint: 'facebook' })}`,
    );
    expect(new URL(res.headers.location as string).searchParams.get('error')).toBe('invalid_request');
  });
});

describe('the provider’s error page', () => {
  it('is in Dutch and never stored', async () => {
    const res = await new Browser(t.app).get(
      `${endpoints.auth}?${new URLSearchParams({ client_id: 'web', redirect_uri: 'https://evil.example/cb', response_type: 'code', scope: 'openid', ...s256() })}`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('<h1>Er ging iets mis</h1>');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('theme', () => {
  const htmlTag = (body: string) => /<html[^>]*>/.exec(body)?.[0];

  it('sends every screen in the theme of the site’s cookie: dark without one, light when chosen', async () => {
    const dark = await openInteraction(new Browser(t.app), s256());
    expect(htmlTag(dark.page.body)).toBe('<html lang="nl" class="dark">');

    const lightBrowser = new Browser(t.app);
    lightBrowser.jar.set('aandenken-theme', 'light');
    const light = await openInteraction(lightBrowser, s256());
    expect(htmlTag(light.page.body)).toBe('<html lang="nl">');
    expect((await lightBrowser.get(`${light.uidPath}/forgot`)).body).toMatch(/<html lang="nl">/);
    const failed = await lightBrowser.post(`${light.uidPath}/login`, {
      csrf: light.csrf,
      email: 'niemand@example.nl',
      password: 'fout-fout-fout',
    });
    expect(htmlTag(failed.body)).toBe('<html lang="nl">');
    // The provider's own pages (its error page) too.
    const error = await lightBrowser.get(
      `${endpoints.auth}?${new URLSearchParams({ client_id: 'web', redirect_uri: 'https://evil.example/cb', response_type: 'code', scope: 'openid', ...s256() })}`,
    );
    expect(htmlTag(error.body)).toBe('<html lang="nl">');

    const explicitDark = new Browser(t.app);
    explicitDark.jar.set('aandenken-theme', 'dark');
    expect(htmlTag((await openInteraction(explicitDark, s256())).page.body)).toBe(
      '<html lang="nl" class="dark">',
    );
    // Still no inline script: the CSP allows none.
    expect(light.page.body).not.toMatch(/<script>|<script [^>]*>[^<]/);
  });
});

describe('per-address limit on the forms', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestApp({ IDENTITY_RATE_LIMIT_MAX: '3' });
  });
  afterAll(async () => limited?.close());

  async function loginFrom(address: string, email: string, pw: string) {
    const browser = new Browser(limited.app, address);
    const { uidPath, csrf } = await openInteraction(browser, s256());
    return browser.post(`${uidPath}/login`, { csrf, email, password: pw });
  }

  it('answers one password tried against many accounts from one address with the login screen and 429', async () => {
    await registerThroughProvider(limited.app, { name: 'Fien', email: 'fien@example.nl', password });
    // Spraying: one password, a different account each time, so no account's lockout is reached.
    for (const email of ['a@example.nl', 'b@example.nl', 'c@example.nl']) {
      expect((await loginFrom('203.0.113.7', email, 'zomer2024!')).statusCode).toBe(401);
    }
    const limitedRes = await loginFrom('203.0.113.7', 'fien@example.nl', password);
    expect(limitedRes.statusCode).toBe(429);
    expect(limitedRes.headers['content-type']).toContain('text/html');
    expect(limitedRes.headers['cache-control']).toBe('no-store');
    expect(Number(limitedRes.headers['retry-after'])).toBeGreaterThan(0);
    expect(limitedRes.body).toContain('<h1>Inloggen</h1>');
    expect(/role="alert">([^<]+)</.exec(limitedRes.body)?.[1]).toBe(
      'Te veel pogingen vanaf dit netwerk. Probeer het over 10 minuten opnieuw.',
    );
    expect(limitedRes.body).toContain('value="fien@example.nl"');
    const { rows } = await limited.db.query("SELECT 1 FROM login_failures WHERE email = 'fien@example.nl'");
    expect(rows).toHaveLength(0);

    // Someone on another network is not affected.
    expect((await loginFrom('198.51.100.4', 'fien@example.nl', password)).statusCode).toBe(303);
  });

  it('answers the registration form with its own screen too', async () => {
    const browser = new Browser(limited.app, '192.0.2.50');
    const { uidPath, csrf } = await openInteraction(browser, s256(), endpoints.registrations);
    const form = { csrf, name: 'Gijs', email: 'gijs@example.nl', password: 'kort', passwordRepeat: 'kort' };
    for (let i = 0; i < 3; i++)
      expect((await browser.post(`${uidPath}/register`, form)).statusCode).toBe(400);
    const res = await browser.post(`${uidPath}/register`, form);
    expect(res.statusCode).toBe(429);
    expect(res.body).toContain('<h1>Account aanmaken</h1>');
    expect(res.body).toContain('Te veel pogingen vanaf dit netwerk');
    expect(res.body).toContain('value="gijs@example.nl"');
  });
});
