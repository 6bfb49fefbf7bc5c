import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { accessCodeCrypto } from '../src/shared/access-code.ts';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
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
beforeAll(async () => {
  t = await createTestApp();
  u = await createUsers(t);
});
afterAll(async () => t?.close());

let n = 0;
/** Every test its own client address, so limits of one test do not leak into another. */
const nextAddress = () => `10.1.${Math.floor(++n / 250)}.${n % 250}`;
const tokenFor = (accessCode: unknown, remoteAddress: string, app = t.app) =>
  app.inject({ method: 'POST', url: '/core/guest/token', payload: { accessCode }, remoteAddress });
/** A code that belongs to no memorial (codes are random; checked to be sure). */
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

describe('POST /core/guest/token', () => {
  it('gives a 12-hour token for that one memorial with the guest role', async () => {
    const m = await createMemorial(t, u.owner);
    const other = await createMemorial(t, u.otherOwner);
    const res = await tokenFor(m.accessCode, nextAddress());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ memorialId: m.id, token: expect.any(String), guestName: null });
    const hours = (new Date(body.expiresAt).getTime() - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);

    const seen = await t.app.inject({ url: `/core/memorial/${m.id}`, headers: auth(body.token) });
    expect(seen.json()).toMatchObject({ id: m.id, role: 'guest' });
    expect(
      (await t.app.inject({ url: `/core/memorial/${other.id}`, headers: auth(body.token) })).statusCode,
    ).toBe(404);
    // A guest token is no user: it cannot create pages or list "my pages".
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/core/memorial/concept',
          headers: auth(body.token),
          payload: { firstName: 'A', lastName: 'B' },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('answers a wrong code with 404 ACCESS_CODE_INVALID and the Dutch message; a malformed one with 400', async () => {
    const res = await tokenFor(await wrongCode(), nextAddress());
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      code: 'ACCESS_CODE_INVALID',
      message: 'Er is geen pagina gevonden met deze code.',
    });
    for (const [code, message] of [
      ['1234', 'De toegangscode bestaat uit 8 cijfers.'],
      ['', 'Vul de toegangscode in.'],
      ['abcdefgh', 'De toegangscode bestaat uit 8 cijfers.'],
    ] as const) {
      const bad = await tokenFor(code, nextAddress());
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields.accessCode).toBe(message);
    }
    expect((await tokenFor(12345678, nextAddress())).json().fields.accessCode).toBe(
      'Vul de toegangscode in als tekst van 8 cijfers.',
    );
  });

  it('opens the page with the code typed as the card prints it: a space, a dash or a dot in the middle', async () => {
    const m = await createMemorial(t, u.owner);
    const code = m.accessCode;
    for (const typed of [
      `${code.slice(0, 4)} ${code.slice(4)}`,
      `${code.slice(0, 4)}-${code.slice(4)}`,
      `${code.slice(0, 4)}.${code.slice(4)}`,
    ]) {
      const res = await tokenFor(typed, nextAddress());
      expect(res.statusCode, typed).toBe(200);
      expect(res.json().memorialId).toBe(m.id);
      // Also when a link names the page (the code is then compared with that page only).
      const named = await t.app.inject({
        method: 'POST',
        url: '/core/guest/token',
        payload: { accessCode: typed, memorialId: m.id },
        remoteAddress: nextAddress(),
      });
      expect(named.statusCode, typed).toBe(200);
    }
    // Separators are no wildcard: other characters still make the code malformed.
    const other = await tokenFor(`${code.slice(0, 4)}/${code.slice(4)}`, nextAddress());
    expect(other.statusCode).toBe(400);
    expect(other.json().fields.accessCode).toBe('De toegangscode bestaat uit 8 cijfers.');
  });

  it('does not open unpublished or archived pages', async () => {
    const concept = await createMemorial(t, u.owner, { status: 'concept' });
    const archived = await createMemorial(t, u.owner, { status: 'archived' });
    for (const m of [concept, archived]) {
      const res = await tokenFor(m.accessCode, nextAddress());
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('ACCESS_CODE_INVALID');
    }
  });

  it('limits guessing to 5 wrong codes a minute per address; then even the right code gets 429', async () => {
    const m = await createMemorial(t, u.owner);
    const address = nextAddress();
    for (let i = 0; i < 5; i++) expect((await tokenFor(await wrongCode(), address)).statusCode).toBe(404);
    const limited = await tokenFor(await wrongCode(), address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Te veel pogingen met een onjuiste code. Probeer het later opnieuw.',
    });
    const right = await tokenFor(m.accessCode, address);
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual(limited.json());

    // Another address is not affected.
    expect((await tokenFor(m.accessCode, nextAddress())).statusCode).toBe(200);

    // A minute later this address may try again (attempts while limited do not extend the limit).
    await t.db.query(`UPDATE access_code_attempts SET created_at = created_at - interval '61 seconds'`);
    expect((await tokenFor(m.accessCode, address)).statusCode).toBe(200);
  });

  it('lets no more than 5 of many simultaneous wrong guesses through', async () => {
    const address = nextAddress();
    const codes = await Promise.all(Array.from({ length: 12 }, () => wrongCode()));
    const statuses = (await Promise.all(codes.map((c) => tokenFor(c, address)))).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s !== 404).every((s) => s === 429)).toBe(true);
  });

  it('limits to 20 wrong codes an hour per address', async () => {
    const m = await createMemorial(t, u.owner);
    const address = nextAddress();
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 5; i++) expect((await tokenFor(await wrongCode(), address)).statusCode).toBe(404);
      await t.db.query(`UPDATE access_code_attempts SET created_at = created_at - interval '2 minutes'`);
    }
    expect((await tokenFor(m.accessCode, address)).statusCode).toBe(429);
    await t.db.query(`UPDATE access_code_attempts SET created_at = created_at - interval '1 hour'`);
    expect((await tokenFor(m.accessCode, address)).statusCode).toBe(200);
  });

  it('counts in PostgreSQL, so every process sees the same failures', async () => {
    const second = await buildApp({ config: t.config, db: t.db });
    await second.ready();
    try {
      const m = await createMemorial(t, u.owner);
      const address = nextAddress();
      for (let i = 0; i < 5; i++) {
        const app = i % 2 === 0 ? t.app : second;
        expect((await tokenFor(await wrongCode(), address, app)).statusCode).toBe(404);
      }
      expect((await tokenFor(m.accessCode, address, second)).statusCode).toBe(429);
      expect((await tokenFor(m.accessCode, address, t.app)).statusCode).toBe(429);
      const { rows } = await t.db.query<{ outcome: string; n: number }>(
        `SELECT outcome, count(*)::int AS n FROM access_code_attempts GROUP BY outcome ORDER BY outcome`,
      );
      expect(rows.find((r) => r.outcome === 'failed')!.n).toBeGreaterThanOrEqual(5);
    } finally {
      await second.close();
    }
  });

  it('above the global budget (1000 an hour by default), nobody is refused: a mistyped code gets a challenge', async () => {
    const m = await createMemorial(t, u.owner);
    await t.db.query(
      `INSERT INTO access_code_attempts (client_hash, outcome, created_at)
       SELECT 'elders-' || g, 'failed', now() - interval '10 minutes' FROM generate_series(1, 1000) g`,
    );
    try {
      // An ordinary visitor who mistyped once is asked for a proof of work, not refused (13.10);
      // the challenge itself is tested in access-code-guards.test.ts.
      const address = nextAddress();
      const first = await tokenFor(m.accessCode, address);
      expect(first.statusCode).toBe(429);
      expect(first.json()).toMatchObject({ code: 'CHALLENGE_REQUIRED', challenge: expect.any(Object) });
      const again = await tokenFor(m.accessCode, address);
      expect(again.json().code).toBe('CHALLENGE_REQUIRED');
    } finally {
      await t.db.query(`DELETE FROM access_code_attempts WHERE client_hash LIKE 'elders-%'`);
    }
  });

  it('stores neither the code nor the address in clear, and logs uses without the code', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const logged = await buildApp({ config: t.config, db: t.db, logger: { level: 'info', stream } });
    await logged.ready();
    try {
      const m = await createMemorial(t, u.owner);
      const wrong = await wrongCode();
      const address = '192.0.2.77';
      expect((await tokenFor(wrong, address, logged)).statusCode).toBe(404);
      expect((await tokenFor(m.accessCode, address, logged)).statusCode).toBe(200);
      const all = lines.join('');
      expect(all).toContain('access_code.failed');
      expect(all).toContain('access_code.succeeded');
      expect(all).not.toContain(m.accessCode);
      expect(all).not.toContain(wrong);
      const stored = await t.db.query('SELECT * FROM access_code_attempts');
      expect(JSON.stringify(stored.rows)).not.toContain(address);
    } finally {
      await logged.close();
    }
  });
});

describe('POST /core/guest/token-consume', () => {
  it('exchanges a one-time link for a guest token, once', async () => {
    const m = await createMemorial(t, u.owner);
    const invite = await createInvite(t, m.id, u.owner);
    const link = await createLinkToken(t, m.id, invite.id);
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/guest/token-consume',
      payload: { token: link },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ memorialId: m.id, token: expect.any(String) });
    expect(
      (await t.app.inject({ url: `/core/memorial/${m.id}`, headers: auth(res.json().token) })).json().role,
    ).toBe('guest');

    const again = await t.app.inject({
      method: 'POST',
      url: '/core/guest/token-consume',
      payload: { token: link },
    });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({
      code: 'LINK_INVALID',
      message: 'Deze link is ongeldig, verlopen of al gebruikt.',
    });
    const { rows } = await t.db.query('SELECT token_hash FROM guest_link_tokens');
    expect(JSON.stringify(rows)).not.toContain(link);
  });

  it('refuses expired links, links of revoked invites, links from before a code regeneration, and garbage', async () => {
    const m = await createMemorial(t, u.owner);
    const consume = (token: string) =>
      t.app.inject({ method: 'POST', url: '/core/guest/token-consume', payload: { token } });

    const expired = await createLinkToken(t, m.id);
    await t.db.query(
      `UPDATE guest_link_tokens SET created_at = now() - interval '2 days', expires_at = now() - interval '1 day'`,
    );
    expect((await consume(expired)).statusCode).toBe(404);

    const invite = await createInvite(t, m.id, u.owner);
    const ofRevoked = await createLinkToken(t, m.id, invite.id);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/core/guest-invite/${invite.id}`,
          headers: auth(u.owner.token),
        })
      ).statusCode,
    ).toBe(204);
    expect((await consume(ofRevoked)).statusCode).toBe(404);

    const beforeRegeneration = await createLinkToken(t, m.id);
    await t.app.inject({
      method: 'POST',
      url: `/core/memorial/${m.id}/access-code/regenerate`,
      headers: auth(u.owner.token),
    });
    expect((await consume(beforeRegeneration)).statusCode).toBe(404);

    expect((await consume('x'.repeat(43))).statusCode).toBe(404);
    const short = await consume('kort');
    expect(short.statusCode).toBe(400);
    expect(short.json().fields.token).toBe('Token is ongeldig');
  });
});

describe('one-time links of an invitation end with it, and with the membership it made', () => {
  let k = 0;
  const consume = (token: string) =>
    t.app.inject({ method: 'POST', url: '/core/guest/token-consume', payload: { token } });
  const linkInvalid = { code: 'LINK_INVALID', message: 'Deze link is ongeldig, verlopen of al gebruikt.' };
  /** An invitation as the owner sends it; the accept code and the one-time guest link from the mail. */
  async function invitation(memorialId: string, role: 'guest' | 'contributor' = 'guest') {
    const email = `genodigde-${Date.now().toString(36)}-${++k}@example.nl`;
    const res = await t.app.inject({
      method: 'POST',
      url: `/core/guest-invite/${memorialId}`,
      headers: auth(u.owner.token),
      payload: { email, role, name: 'Tante Ria' },
    });
    expect(res.statusCode).toBe(201);
    const mail = await t.smtp.waitFor((x) => x.to.includes(email));
    return {
      id: res.json().id as string,
      email,
      code: /\/uitnodiging\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!,
      link: /#gasttoken=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!,
    };
  }
  const accept = (code: string, token: string) =>
    t.app.inject({ method: 'POST', url: `/core/guest-invite/accept/${code}`, headers: auth(token) });
  const removeMember = (memberId: string) =>
    t.app.inject({ method: 'DELETE', url: `/core/memorial/users/${memberId}`, headers: auth(u.owner.token) });
  /** What a guest token may still do: read the page, light a candle, read the wall. */
  const uses = (memorialId: string, token: string) =>
    Promise.all([
      t.app.inject({ url: `/core/memorial/${memorialId}`, headers: auth(token) }),
      t.app.inject({
        method: 'POST',
        url: `/core/candles/${memorialId}`,
        headers: auth(token),
        payload: { kind: 'candle', name: 'Ria' },
      }),
      t.app.inject({
        method: 'POST',
        url: '/core/memories/query-memorial',
        headers: auth(token),
        payload: { memorialId },
      }),
    ]);

  it('a used link does not work a second time', async () => {
    const m = await createMemorial(t, u.owner);
    const inv = await invitation(m.id);
    expect((await consume(inv.link)).statusCode).toBe(200);
    const again = await consume(inv.link);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(linkInvalid);
  });

  it('an unused link dies when its invitation is accepted', async () => {
    const m = await createMemorial(t, u.owner);
    const inv = await invitation(m.id);
    const invitee = await issueUserToken(t, { email: inv.email, name: 'Tante Ria' });
    expect((await accept(inv.code, invitee.token)).statusCode).toBe(200);
    const res = await consume(inv.link);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(linkInvalid);
  });

  it('a revoked invitation ends its link and the guest token it was exchanged for', async () => {
    const m = await createMemorial(t, u.owner);
    const unused = await invitation(m.id);
    const used = await invitation(m.id);
    const guest = (await consume(used.link)).json().token as string;
    expect((await uses(m.id, guest)).map((r) => r.statusCode)).toEqual([200, 201, 200]);
    for (const inv of [unused, used]) {
      expect(
        (
          await t.app.inject({
            method: 'DELETE',
            url: `/core/guest-invite/${inv.id}`,
            headers: auth(u.owner.token),
          })
        ).statusCode,
      ).toBe(204);
    }
    expect((await consume(unused.link)).json()).toEqual(linkInvalid);
    for (const res of await uses(m.id, guest)) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
  });

  it('removing the member ends the links of their invitation and every guest token issued for them', async () => {
    const m = await createMemorial(t, u.owner);
    const other = await createMemorial(t, u.owner);
    const inv = await invitation(m.id, 'contributor');
    // Looked first as a guest (the link), then accepted with an account; a second tab kept the guest token.
    const guest = (await consume(inv.link)).json().token as string;
    const invitee = await issueUserToken(t, { email: inv.email, name: 'Tante Ria' });
    const accepted = await accept(inv.code, invitee.token);
    expect(accepted.statusCode).toBe(200);
    // Someone else invited to the same page, and a guest of another page, are not affected.
    const bystander = (await consume((await invitation(m.id)).link)).json().token as string;
    const otherGuest = (await consume((await invitation(other.id)).link)).json().token as string;
    const byCode = (await tokenFor(m.accessCode, nextAddress())).json().token as string;

    expect((await removeMember(accepted.json().memberId)).statusCode).toBe(204);
    // The old mail's link opens nothing, …
    expect((await consume(inv.link)).json()).toEqual(linkInvalid);
    // … the account sees nothing, …
    expect(
      (await t.app.inject({ url: `/core/memorial/${m.id}`, headers: auth(invitee.token) })).statusCode,
    ).toBe(404);
    // … and the guest token from the link is refused by every call, the same way (401).
    for (const res of await uses(m.id, guest)) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Je sessie is verlopen. Log opnieuw in.' });
    }
    expect((await uses(m.id, bystander)).map((r) => r.statusCode)).toEqual([200, 201, 200]);
    expect((await uses(other.id, otherGuest)).map((r) => r.statusCode)).toEqual([200, 201, 200]);
    expect((await uses(m.id, byCode)).map((r) => r.statusCode)).toEqual([200, 201, 200]);
  });

  it('a member who leaves ends the guest token from their link too; an unused link of theirs cannot be used', async () => {
    const m = await createMemorial(t, u.owner);
    const inv = await invitation(m.id);
    const guest = (await consume(inv.link)).json().token as string;
    const invitee = await issueUserToken(t, { email: inv.email, name: 'Tante Ria' });
    const { memberId } = (await accept(inv.code, invitee.token)).json() as { memberId: string };
    const left = await t.app.inject({
      method: 'DELETE',
      url: `/core/memorial/users/${memberId}`,
      headers: auth(invitee.token),
    });
    expect(left.statusCode).toBe(204);
    expect((await uses(m.id, guest)).map((r) => r.statusCode)).toEqual([401, 401, 401]);
    const { rows } = await t.db.query<{ ended: boolean }>(
      `SELECT guest_token_ended_at IS NOT NULL AS ended FROM guest_link_tokens WHERE invite_id = $1`,
      [inv.id],
    );
    expect(rows).toEqual([{ ended: true }]);
  });
});

describe('POST /core/memorial/{id}/access-code/mail', () => {
  it('mails the code and a one-time link; the link opens the page as a guest', async () => {
    const m = await createMemorial(t, u.owner, { firstName: 'Klaas', lastName: 'Dekker' });
    const email = `toegang-${Date.now().toString(36)}@example.nl`;
    const res = await t.app.inject({
      method: 'POST',
      url: `/core/memorial/${m.id}/access-code/mail`,
      headers: auth(u.owner.token),
      payload: { email, name: 'Oom Wim' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ mailSent: true, linkExpiresAt: expect.any(String) });
    const mail = await t.smtp.waitFor((x) => x.to.includes(email));
    expect(mail.subject).toBe('Toegang tot de gedenkpagina van Klaas Dekker');
    expect(mail.subject).not.toContain(m.accessCode);
    expect(mail.text).toContain('Beste Oom Wim,');
    expect(mail.text).toContain(`vul deze toegangscode in: ${m.accessCode}`);
    expect(mail.text).toContain(`/beslotenpagina?pagina=${m.id}`);
    const link = /#gasttoken=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const consumed = await t.app.inject({
      method: 'POST',
      url: '/core/guest/token-consume',
      payload: { token: link },
    });
    expect(consumed.json()).toMatchObject({ memorialId: m.id, guestName: 'Oom Wim' });
    const audit = await t.db.query(
      `SELECT details FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'memorial.access_code_mailed'`,
      [m.id],
    );
    expect(audit.rows).toEqual([{ details: { email } }]);
    expect(JSON.stringify(audit.rows)).not.toContain(m.accessCode);
  });

  it('is for owners and editors of a published page only', async () => {
    const concept = await createMemorial(t, u.owner, { status: 'concept' });
    const send = (id: string, token: string, email = 'iemand@example.nl') =>
      t.app.inject({
        method: 'POST',
        url: `/core/memorial/${id}/access-code/mail`,
        headers: auth(token),
        payload: { email },
      });
    const res = await send(concept.id, u.owner.token);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('MEMORIAL_NOT_ACTIVE');
    const m = await createMemorial(t, u.owner);
    await addMember(t, m.id, u.contributor, 'contributor');
    expect((await send(m.id, u.contributor.token)).statusCode).toBe(403);
    expect((await send(m.id, u.stranger.token)).statusCode).toBe(404);
    const bad = await send(m.id, u.owner.token, 'geen-adres');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.email).toBe('Voer een geldig e-mailadres in');
  });
});
