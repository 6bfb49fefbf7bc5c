import { solveChallenge } from 'altcha-lib/v1';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accessCodeCrypto } from '../src/shared/access-code.ts';
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

/**
 * The global budget of wrong access codes asks for a proof of work instead of refusing; links
 * that name a memorial are checked against it alone, with its own growing lock; owners can switch codes off.
 * Small budgets through the config, so the tests do not need thousands of requests.
 */
const BUDGET = 6;
let t: TestContext;
let u: Users;
beforeAll(async () => {
  t = await createTestApp({
    ACCESS_CODE_GLOBAL_FAILURES_PER_HOUR: String(BUDGET),
    ACCESS_CODE_POW_MAX_NUMBER: '2000',
  });
  u = await createUsers(t);
});
afterAll(async () => t?.close());
beforeEach(async () => {
  await t.db.query('DELETE FROM access_code_attempts');
  await t.db.query('DELETE FROM access_code_alerts');
});

let n = 0;
const nextAddress = () => `10.9.${Math.floor(++n / 250)}.${n % 250}`;
const tokenFor = (payload: Record<string, unknown>, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url: '/core/guest/token', payload, remoteAddress });
async function wrongCode(): Promise<string> {
  const codes = accessCodeCrypto(t.db);
  for (;;) {
    const code = codes.generate();
    const taken = await t.db.query('SELECT 1 FROM memorials WHERE access_code_hash = $1', [
      await codes.hash(code),
    ]);
    if (taken.rows.length === 0) return code;
  }
}
/** Wrong codes from as many addresses as there are codes, so no address reaches its own limit. */
async function useUpBudget() {
  for (let i = 0; i < BUDGET; i++) {
    expect((await tokenFor({ accessCode: await wrongCode() })).statusCode).toBe(404);
  }
}
type Challenge = { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
/** Solves a challenge as the browser does (the same library), and encodes the answer as the form sends it. */
async function solve(c: Challenge, number?: number): Promise<string> {
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  expect(solution).not.toBeNull();
  const payload = {
    algorithm: c.algorithm,
    challenge: c.challenge,
    number: number ?? solution!.number,
    salt: c.salt,
    signature: c.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

describe('above the global budget of wrong codes', () => {
  it('asks for a proof of work instead of refusing; a solved challenge lets a right code in, once', async () => {
    const m = await createMemorial(t, u.owner);
    await useUpBudget();

    // A visitor who never failed, with the right code: no refusal, a challenge with a Dutch message.
    const address = nextAddress();
    const asked = await tokenFor({ accessCode: m.accessCode }, address);
    expect(asked.statusCode).toBe(429);
    const body = asked.json();
    expect(body).toMatchObject({
      code: 'CHALLENGE_REQUIRED',
      message:
        'Er worden nu veel onjuiste codes geprobeerd. Je browser lost eerst een korte rekenpuzzel op; daarna wordt je code gecontroleerd.',
      challenge: { algorithm: 'SHA-256', maxnumber: 2000, salt: expect.stringContaining('expires=') },
    });

    const pow = await solve(body.challenge);
    const opened = await tokenFor({ accessCode: m.accessCode, pow }, address);
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({ memorialId: m.id });

    // The same solution a second time: refused, with a new challenge.
    const again = await tokenFor({ accessCode: m.accessCode, pow }, address);
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({
      code: 'CHALLENGE_REQUIRED',
      message:
        'De rekenpuzzel is verlopen of al gebruikt. Je browser lost een nieuwe op; probeer het daarna opnieuw.',
      challenge: { algorithm: 'SHA-256' },
    });
    expect(again.json().challenge.signature).not.toBe(body.challenge.signature);

    // A solved challenge and a wrong code: judged, and wrong.
    const next = (await tokenFor({ accessCode: m.accessCode }, address)).json().challenge;
    const wrong = await tokenFor({ accessCode: await wrongCode(), pow: await solve(next) }, address);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().code).toBe('ACCESS_CODE_INVALID');
  });

  it('refuses forged, tampered, foreign-algorithm and garbage solutions with a new challenge, never 5xx', async () => {
    const m = await createMemorial(t, u.owner);
    await useUpBudget();
    const c = (await tokenFor({ accessCode: m.accessCode })).json().challenge as Challenge;
    const right = JSON.parse(Buffer.from(await solve(c), 'base64').toString());
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
    const refused = [
      enc({ ...right, number: right.number + 1 }),
      enc({ ...right, signature: 'f'.repeat(64) }),
      enc({ ...right, algorithm: 'SHA-1' }),
      enc({ ...right, algorithm: 'MD5' }),
      enc({ ...right, salt: right.salt.replace(/expires=\d+/, 'expires=9999999999') }),
      enc({ ...right, salt: right.salt.replace(/\?.*$/, '') }),
      enc(null),
      enc([1, 2]),
      enc({ ...right, number: -1 }),
      enc({ ...right, number: '12' }),
      'bm90IGpzb24=',
      'AAAA',
    ];
    for (const pow of refused) {
      const res = await tokenFor({ accessCode: m.accessCode, pow });
      expect(res.statusCode, pow).toBe(429);
      expect(res.json().code).toBe('CHALLENGE_REQUIRED');
    }
    const bad = await tokenFor({ accessCode: m.accessCode, pow: 'geen base64!' });
    expect(bad.statusCode).toBe(400);
    // The right solution still works (nothing above used it up).
    expect((await tokenFor({ accessCode: m.accessCode, pow: enc(right) })).statusCode).toBe(200);
    // An expired challenge is refused.
    const old = (await tokenFor({ accessCode: m.accessCode })).json().challenge as Challenge;
    const oldPow = await solve(old);
    const realNow = Date.now;
    Date.now = () => realNow() + 11 * 60_000;
    try {
      expect((await tokenFor({ accessCode: m.accessCode, pow: oldPow })).statusCode).toBe(429);
    } finally {
      Date.now = realNow;
    }
  });

  it('keeps the per-address limits: 5 wrong codes a minute, then 429 even with a solved challenge', async () => {
    const m = await createMemorial(t, u.owner);
    await useUpBudget();
    const address = nextAddress();
    for (let i = 0; i < 5; i++) {
      const c = (await tokenFor({ accessCode: m.accessCode }, address)).json().challenge;
      const res = await tokenFor({ accessCode: await wrongCode(), pow: await solve(c) }, address);
      expect(res.statusCode).toBe(404);
    }
    const limited = await tokenFor({ accessCode: m.accessCode }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Te veel pogingen met een onjuiste code. Probeer het later opnieuw.',
    });
  });

  it('tells the team by mail, at most once an hour', async () => {
    const m = await createMemorial(t, u.owner);
    const subject = 'Veel onjuiste toegangscodes: bezoekers krijgen een rekenpuzzel';
    const before = await t.db.query('SELECT 1 FROM mail_outbox WHERE subject = $1', [subject]);
    await useUpBudget();
    expect((await tokenFor({ accessCode: m.accessCode })).statusCode).toBe(429);
    const mail = await t.smtp.waitFor((x) => x.subject === subject);
    expect(mail.to).toContain('team@aandenken.test');
    expect(mail.text).toContain('rekenpuzzel');
    // More challenged attempts within the hour: no second mail.
    for (let i = 0; i < 3; i++) expect((await tokenFor({ accessCode: m.accessCode })).statusCode).toBe(429);
    const count = async () =>
      (await t.db.query('SELECT 1 FROM mail_outbox WHERE subject = $1', [subject])).rows.length -
      before.rows.length;
    expect(await count()).toBe(1);
    // An hour later, still over budget: one more.
    await t.db.query(`UPDATE access_code_alerts SET sent_at = sent_at - interval '61 minutes'`);
    expect((await tokenFor({ accessCode: m.accessCode })).statusCode).toBe(429);
    expect(await count()).toBe(2);
  });

  it('below the budget asks nothing: a mistyped code and then the right one just work', async () => {
    const m = await createMemorial(t, u.owner);
    const address = nextAddress();
    expect((await tokenFor({ accessCode: await wrongCode() }, address)).statusCode).toBe(404);
    expect((await tokenFor({ accessCode: m.accessCode }, address)).statusCode).toBe(200);
  });
});

describe('an access code for a named memorial (links in mails and on printed cards)', () => {
  const locked =
    'Voor deze pagina is te vaak een onjuiste code geprobeerd. Probeer het later opnieuw, of gebruik de link uit je uitnodiging.';
  const lockMinutes = async (id: string) => {
    const { rows } = await t.db.query<{ m: number }>(
      `SELECT extract(epoch FROM locked_until - now()) / 60 AS m FROM memorial_code_guards WHERE memorial_id = $1`,
      [id],
    );
    return Number(rows[0]!.m);
  };

  it('compares the code with that memorial only, and is not asked for a proof of work', async () => {
    const m = await createMemorial(t, u.owner);
    const other = await createMemorial(t, u.otherOwner);
    await useUpBudget();
    const res = await tokenFor({ accessCode: m.accessCode, memorialId: m.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().memorialId).toBe(m.id);
    // The right code of another page, named with this one: wrong.
    const crossed = await tokenFor({ accessCode: other.accessCode, memorialId: m.id });
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json().code).toBe('ACCESS_CODE_INVALID');
    // An id that is no memorial: like a wrong code.
    const none = await tokenFor({
      accessCode: m.accessCode,
      memorialId: '00000000-0000-4000-8000-000000000000',
    });
    expect(none.statusCode).toBe(404);
  });

  it('locks a memorial after 10 wrong codes in 15 minutes, for 15, then 30 minutes, at most 24 hours; other memorials are not affected', async () => {
    const m = await createMemorial(t, u.owner);
    const other = await createMemorial(t, u.owner);
    const fail = async () => tokenFor({ accessCode: await wrongCode(), memorialId: m.id });
    for (let i = 0; i < 10; i++) expect((await fail()).statusCode).toBe(404);

    const right = await tokenFor({ accessCode: m.accessCode, memorialId: m.id });
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ code: 'RATE_LIMITED', message: locked });
    expect(await lockMinutes(m.id)).toBeGreaterThan(14);
    expect(await lockMinutes(m.id)).toBeLessThanOrEqual(15);
    // Another memorial is not affected; nor is the general form (over the global budget now: with a challenge).
    expect((await tokenFor({ accessCode: other.accessCode, memorialId: other.id })).statusCode).toBe(200);
    const address = nextAddress();
    const c = (await tokenFor({ accessCode: m.accessCode }, address)).json().challenge;
    expect((await tokenFor({ accessCode: m.accessCode, pow: await solve(c) }, address)).statusCode).toBe(200);

    // The lock ends; 10 more failures lock it again, now for 30 minutes.
    await t.db.query(
      `UPDATE memorial_code_guards SET locked_until = now() - interval '1 second',
         window_start = window_start - interval '16 minutes' WHERE memorial_id = $1`,
      [m.id],
    );
    expect((await tokenFor({ accessCode: m.accessCode, memorialId: m.id })).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await fail()).statusCode).toBe(404);
    expect((await fail()).statusCode).toBe(429);
    expect(await lockMinutes(m.id)).toBeGreaterThan(29);
    expect(await lockMinutes(m.id)).toBeLessThanOrEqual(30);

    // After many locks, the lock stops growing at 24 hours (and a day-long lock does not reset the growth).
    await t.db.query(
      `UPDATE memorial_code_guards SET locks = 12, locked_until = now() - interval '1 second',
         window_start = window_start - interval '16 minutes', last_failure_at = now() - interval '24 hours'
       WHERE memorial_id = $1`,
      [m.id],
    );
    for (let i = 0; i < 10; i++) expect((await fail()).statusCode).toBe(404);
    expect((await fail()).statusCode).toBe(429);
    expect(await lockMinutes(m.id)).toBeGreaterThan(24 * 60 - 1);
    expect(await lockMinutes(m.id)).toBeLessThanOrEqual(24 * 60);
  });

  it('lets no more than 10 of many simultaneous wrong codes through', async () => {
    const m = await createMemorial(t, u.owner);
    const codes = await Promise.all(Array.from({ length: 16 }, () => wrongCode()));
    const statuses = (
      await Promise.all(codes.map((accessCode) => tokenFor({ accessCode, memorialId: m.id })))
    ).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 404).every((s) => s === 429)).toBe(true);
  });

  it('mails the owner once, at 100 wrong codes', async () => {
    const m = await createMemorial(t, u.owner, { firstName: 'Grietje', lastName: 'Bos' });
    const subject = 'Veel onjuiste toegangscodes voor de gedenkpagina van Grietje Bos';
    expect((await tokenFor({ accessCode: await wrongCode(), memorialId: m.id })).statusCode).toBe(404);
    // 98 more failures as if over many windows (the lock would otherwise take days).
    await t.db.query(`UPDATE memorial_code_guards SET total_failures = 99 WHERE memorial_id = $1`, [m.id]);
    const sent = async () =>
      (await t.db.query('SELECT 1 FROM mail_outbox WHERE subject = $1', [subject])).rows;
    expect(await sent()).toHaveLength(0);
    expect((await tokenFor({ accessCode: await wrongCode(), memorialId: m.id })).statusCode).toBe(404);
    const mail = await t.smtp.waitFor((x) => x.subject === subject);
    expect(mail.to).toContain(u.owner.email);
    expect(mail.text).toContain('100 onjuiste toegangscodes');
    expect(mail.text).toContain('Alleen op uitnodiging');
    expect((await tokenFor({ accessCode: await wrongCode(), memorialId: m.id })).statusCode).toBe(404);
    expect(await sent()).toHaveLength(1);
  });
});

describe('an invite-only memorial', () => {
  const put = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/core/memorial', headers: auth(token), payload });

  it('opens by no code at all, shows none, and still opens by invitation links', async () => {
    const m = await createMemorial(t, u.owner, { visibility: 'private' });
    await addMember(t, m.id, u.editor, 'editor');
    const invite = await createInvite(t, m.id, u.owner);
    const link = await createLinkToken(t, m.id, invite.id);

    // Only the owner decides.
    const byEditor = await put(u.editor.token, { id: m.id, inviteOnly: true });
    expect(byEditor.statusCode).toBe(403);
    expect(byEditor.json().message).toBe(
      'Alleen de eigenaar bepaalt of de pagina alleen op uitnodiging te openen is.',
    );
    const res = await put(u.owner.token, { id: m.id, inviteOnly: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ inviteOnly: true, accessCode: null });
    const seen = await t.app.inject({ url: `/core/memorial/${m.id}`, headers: auth(u.editor.token) });
    expect(seen.json()).toMatchObject({ inviteOnly: true, accessCode: null });

    for (const payload of [{ accessCode: m.accessCode }, { accessCode: m.accessCode, memorialId: m.id }]) {
      const tried = await tokenFor(payload);
      expect(tried.statusCode).toBe(404);
      expect(tried.json().code).toBe('ACCESS_CODE_INVALID');
    }
    const mailed = await t.app.inject({
      method: 'POST',
      url: `/core/memorial/${m.id}/access-code/mail`,
      headers: auth(u.owner.token),
      payload: { email: 'iemand@example.nl' },
    });
    expect(mailed.statusCode).toBe(409);
    expect(mailed.json().code).toBe('MEMORIAL_INVITE_ONLY');

    const consumed = await t.app.inject({
      method: 'POST',
      url: '/core/guest/token-consume',
      payload: { token: link },
    });
    expect(consumed.statusCode).toBe(200);
    expect(consumed.json().memorialId).toBe(m.id);

    const audit = await t.db.query(
      `SELECT details FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'memorial.invite_only_changed'`,
      [m.id],
    );
    expect(audit.rows).toEqual([{ details: { from: false, to: true } }]);

    // Switched back, the code works again.
    expect((await put(u.owner.token, { id: m.id, inviteOnly: false })).json().accessCode).toBe(m.accessCode);
    expect((await tokenFor({ accessCode: m.accessCode })).statusCode).toBe(200);
  });

  it('refuses a setting that is no yes or no', async () => {
    const m = await createMemorial(t, u.owner);
    const res = await put(u.owner.token, { id: m.id, inviteOnly: 'ja' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });
});
