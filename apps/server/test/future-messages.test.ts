import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { amsterdamDate, amsterdamInstant, secondSundayOfDecember } from '../src/shared/amsterdam-time.ts';
import { FUTURE_MAIL_TASK } from '../src/modules/future-mail/service.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast } from './fixtures/content.ts';

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;
let address = 0;
const DAY = 24 * 3_600_000;
const realClock = { now: () => new Date() };

beforeAll(async () => {
  t = await createTestApp();
  c = await cast(t, 'future');
});
let restarted: TestContext['app'] | undefined;
afterAll(async () => {
  // `t.close` closes the app it started; the one started after the restart is closed here.
  await restarted?.close();
  await t?.close();
});

type Headers = Record<string, string> | undefined;
const inDays = (n: number) => amsterdamDate(new Date(Date.now() + n * DAY));
const message = (over: Record<string, unknown> = {}) => ({
  subject: 'Voor je verjaardag',
  body: 'Lieve allemaal,\n\nVandaag denken we samen aan Piet.',
  sendDate: inDays(2),
  sendTime: '09:30',
  ...over,
});
const url = (memorialId: string, messageId?: string) =>
  `/core/memorial/${memorialId}/future-messages${messageId ? `/${messageId}` : ''}`;
const create = (memorialId: string, headers: Headers, payload: unknown) =>
  t.app.inject({ method: 'POST', url: url(memorialId), headers, payload: payload as object });
const list = (memorialId: string, headers: Headers) =>
  t.app.inject({ method: 'GET', url: url(memorialId), headers });
const subscribe = (memorialId: string, payload: unknown, headers?: Headers) =>
  t.app.inject({
    method: 'POST',
    url: `/core/memorial/${memorialId}/subscriptions`,
    headers,
    payload: payload as object,
    remoteAddress: `10.7.0.${++address % 250}`,
  });
const tokenIn = (text: string, path: string) =>
  decodeURIComponent(new RegExp(`${path}\\?t=(\\S+)`).exec(text)![1]!);
const outboxCount = async (subject: string) =>
  (
    await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_outbox WHERE subject = $1', [
      subject,
    ])
  ).rows[0]!.n;

/** Signs up with consent and follows the link in the confirmation mail. */
async function confirmedVisitor(memorialId: string, email: string, kinds: string[]) {
  const res = await subscribe(memorialId, { email, kinds, consent: true });
  expect(res.statusCode).toBe(202);
  const mail = await t.smtp.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Bevestig'));
  const confirm = await t.app.inject({
    method: 'POST',
    url: '/core/subscriptions/confirm',
    payload: { token: tokenIn(mail.text, '/meldingen/bevestigen') },
  });
  expect(confirm.statusCode).toBe(200);
  return confirm.json();
}

describe('future messages', () => {
  it('lets owners and editors schedule, change and cancel a message; others may not', async () => {
    const res = await create(c.publicId, c.editor.headers, message());
    expect(res.statusCode).toBe(201);
    const m = res.json();
    expect(m).toMatchObject({
      status: 'scheduled',
      sendTime: '09:30',
      sendDate: inDays(2),
      recipientCount: null,
    });
    expect(new Date(m.sendAt).getTime()).toBe(amsterdamInstant(inDays(2), '09:30').getTime());

    expect((await create(c.publicId, undefined, message())).statusCode).toBe(401);
    expect((await list(c.publicId, undefined)).statusCode).toBe(401);
    for (const h of [c.contributor.headers, c.guest.headers])
      expect((await create(c.publicId, h, message())).statusCode).toBe(403);
    expect((await create(c.publicId, c.stranger.headers, message())).statusCode).toBe(403);
    expect((await create(c.privateId, c.stranger.headers, message())).statusCode).toBe(404);

    const put = await t.app.inject({
      method: 'PUT',
      url: url(c.publicId, m.id),
      headers: c.owner.headers,
      payload: message({ subject: 'Een jaar later', sendTime: '10:00' }),
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ subject: 'Een jaar later', sendTime: '10:00', status: 'scheduled' });

    const del = await t.app.inject({
      method: 'DELETE',
      url: url(c.publicId, m.id),
      headers: c.owner.headers,
    });
    expect(del.json()).toMatchObject({ id: m.id, status: 'cancelled' });
    const again = await t.app.inject({
      method: 'PUT',
      url: url(c.publicId, m.id),
      headers: c.owner.headers,
      payload: message(),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('FUTURE_MESSAGE_NOT_EDITABLE');
    const log = await t.db.query<{ action: string }>(
      'SELECT action FROM memorial_audit_log WHERE target_id = $1 ORDER BY created_at, id',
      [m.id],
    );
    expect(log.rows.map((r) => r.action)).toEqual([
      'future_message.created',
      'future_message.updated',
      'future_message.cancelled',
    ]);
  });

  it('refuses bad input with Dutch messages and stores nothing', async () => {
    const before = (await t.db.query('SELECT count(*)::int AS n FROM future_messages')).rows[0];
    const bad = await create(c.publicId, c.owner.headers, {
      subject: ' ',
      body: '',
      sendDate: '2027-02-30',
      sendTime: '25:00',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({
      subject: 'Onderwerp is verplicht',
      body: 'Bericht is verplicht',
      sendDate: 'Datum bestaat niet',
      sendTime: 'Tijd moet de vorm UU:MM hebben',
    });
    const past = await create(c.publicId, c.owner.headers, message({ sendDate: inDays(-1) }));
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({
      code: 'FUTURE_MESSAGE_IN_PAST',
      message: 'Kies een moment in de toekomst.',
    });
    const unknown = await t.app.inject({
      method: 'PUT',
      url: url(c.publicId, 'geen-uuid'),
      headers: c.owner.headers,
      payload: message(),
    });
    expect(unknown.statusCode).toBe(404);
    const noConsent = await subscribe(c.publicId, {
      email: 'a@example.nl',
      kinds: ['birthday'],
      consent: false,
    });
    expect(noConsent.statusCode).toBe(400);
    expect(noConsent.json().fields).toMatchObject({ consent: 'Geef toestemming om e-mail te ontvangen' });
    const badToken = await t.app.inject({
      method: 'POST',
      url: '/core/mail/unsubscribe?t=aaaaaaaaaaaa.bbbb',
    });
    expect(badToken.statusCode).toBe(400);
    expect(badToken.json().code).toBe('MAIL_TOKEN_INVALID');
    expect((await t.db.query('SELECT count(*)::int AS n FROM future_messages')).rows[0]).toEqual(before);
  });

  it('holds a Basis page to one message and shows the limit', async () => {
    await t.db.query(
      `UPDATE memorial_plans SET plan = 'basis', paid_until = now() + interval '1 year' WHERE memorial_id = $1`,
      [c.privateId],
    );
    expect((await list(c.privateId, c.owner.headers)).json()).toMatchObject({ limit: 1, used: 0 });
    const first = await create(c.privateId, c.owner.headers, message());
    expect(first.statusCode).toBe(201);
    const second = await create(c.privateId, c.owner.headers, message());
    expect(second.statusCode).toBe(403);
    expect(second.json().code).toBe('PLAN_LIMIT');
    expect(second.json().message).toContain('Basis');
    expect((await list(c.privateId, c.editor.headers)).json()).toMatchObject({ limit: 1, used: 1 });
    // Cancelled (this one is never sent, see below) it no longer counts.
    await t.app.inject({
      method: 'DELETE',
      url: url(c.privateId, first.json().id),
      headers: c.owner.headers,
    });
    expect((await list(c.privateId, c.owner.headers)).json()).toMatchObject({ limit: 1, used: 0 });
  });

  it('sends a message once at its moment, after a restart in between, and never a cancelled one', async () => {
    await confirmedVisitor(c.publicId, 'bezoeker@example.nl', ['messages', 'birthday']);
    // Signed up but never confirmed: gets nothing.
    expect(
      (await subscribe(c.publicId, { email: 'twijfel@example.nl', kinds: ['messages'], consent: true }))
        .statusCode,
    ).toBe(202);
    const m = (await create(c.publicId, c.owner.headers, message({ subject: 'Op zijn verjaardag' }))).json();
    const cancelled = (
      await create(c.publicId, c.owner.headers, message({ subject: 'Nooit verstuurd' }))
    ).json();
    await t.app.inject({ method: 'DELETE', url: url(c.publicId, cancelled.id), headers: c.owner.headers });
    expect((await list(c.publicId, c.owner.headers)).json().recipients).toBe(6);

    // Before its moment nothing goes.
    await t.app.deps.queue.runNow(FUTURE_MAIL_TASK);
    expect(await outboxCount('Op zijn verjaardag')).toBe(0);

    // The process stops and a new one starts on the same database, its clock past the moment.
    await t.app.close();
    t.app = restarted = await buildApp({ config: t.config, db: t.db });
    await t.app.ready();
    t.app.deps.clock = { now: () => new Date(Date.now() + 3 * DAY) };
    await t.app.deps.queue.runNow(FUTURE_MAIL_TASK);
    await t.app.deps.queue.runNow(FUTURE_MAIL_TASK);

    const visitorMail = await t.smtp.waitFor(
      (x) => x.subject === 'Op zijn verjaardag' && x.to.includes('bezoeker@example.nl'),
    );
    expect(visitorMail.text).toContain('Vandaag denken we samen aan Piet.');
    expect(visitorMail.headers['list-unsubscribe']).toMatch(
      /^<http:\/\/localhost:8080\/core\/mail\/unsubscribe\?t=/,
    );
    expect(visitorMail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    await t.smtp.waitFor(
      (x) => x.subject === 'Op zijn verjaardag' && x.to.includes('guest-future@example.nl'),
    );
    // Six addresses (five members and the confirmed visitor), once each, even after a second run.
    expect(await outboxCount('Op zijn verjaardag')).toBe(6);
    expect(await outboxCount('Nooit verstuurd')).toBe(0);
    expect(
      t.smtp.messages.some((x) => x.to.includes('twijfel@example.nl') && x.subject === 'Op zijn verjaardag'),
    ).toBe(false);
    const after = (await list(c.publicId, c.owner.headers)).json().messages as {
      id: string;
      status: string;
      recipientCount: number;
    }[];
    expect(after.find((x) => x.id === m.id)).toMatchObject({ status: 'sent', recipientCount: 6 });
    expect(after.find((x) => x.id === cancelled.id)).toMatchObject({ status: 'cancelled' });
    t.app.deps.clock = realClock;
  }, 120_000);

  it('switches mail off with one click, without a session, and sends anniversary reminders once', async () => {
    const mail = await t.smtp.waitFor(
      (x) => x.subject === 'Op zijn verjaardag' && x.to.includes('bezoeker@example.nl'),
    );
    const token = tokenIn(mail.text, '/meldingen/afmelden');
    const off = await t.app.inject({
      method: 'POST',
      url: `/core/mail/unsubscribe?t=${encodeURIComponent(token)}`,
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ memorialId: c.publicId, kind: 'messages', unsubscribed: true });
    // The mail program's one-click POST (RFC 8058) to the header's address works too, and again.
    const oneClick = /<([^>]+)>/
      .exec(mail.headers['list-unsubscribe']!)![1]!
      .replace('http://localhost:8080', '');
    const form = await t.app.inject({
      method: 'POST',
      url: oneClick,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(form.statusCode).toBe(200);
    // A member can switch the family's messages off the same way.
    const memberMail = await t.smtp.waitFor(
      (x) => x.subject === 'Op zijn verjaardag' && x.to.includes('guest-future@example.nl'),
    );
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/core/mail/unsubscribe?t=${encodeURIComponent(tokenIn(memberMail.text, '/meldingen/afmelden'))}`,
        })
      ).statusCode,
    ).toBe(200);
    expect((await list(c.publicId, c.owner.headers)).json().recipients).toBe(4);
    // A forged token changes nothing.
    const forged = token.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
    expect(
      (await t.app.inject({ method: 'POST', url: `/core/mail/unsubscribe?t=${encodeURIComponent(forged)}` }))
        .statusCode,
    ).toBe(400);

    // The birthday reminder the visitor still wants: on the day, from 08:00 in Amsterdam, once.
    const today = amsterdamDate(new Date());
    await t.db.query(`UPDATE memorials SET birth_date = $2::date - interval '80 years' WHERE id = $1`, [
      c.publicId,
      today,
    ]);
    t.app.deps.clock = { now: () => amsterdamInstant(today, '09:00') };
    await t.app.deps.queue.runNow(FUTURE_MAIL_TASK);
    await t.app.deps.queue.runNow(FUTURE_MAIL_TASK);
    t.app.deps.clock = realClock;
    const reminder = await t.smtp.waitFor(
      (x) => x.to.includes('bezoeker@example.nl') && x.subject.startsWith('Vandaag is de verjaardag'),
    );
    expect(reminder.text).toContain('80 jaar');
    // No account has proven this address, so its owner's name is not known.
    expect(reminder.text.split('\n')[0]).toBe('Hallo,');
    expect(reminder.text).toContain(`/memorial/${c.publicId}`);
    expect(await outboxCount(reminder.subject)).toBe(1);
    const stop = await t.app.inject({
      method: 'POST',
      url: `/core/mail/unsubscribe?t=${encodeURIComponent(tokenIn(reminder.text, '/meldingen/afmelden'))}`,
    });
    expect(stop.json()).toMatchObject({ kind: 'birthday', unsubscribed: true });
    // Nothing left to send: the sign-up is gone, the opt-outs keep the address switched off.
    const left = await t.db.query(
      `SELECT 1 FROM memorial_subscriptions WHERE lower(email) = 'bezoeker@example.nl'`,
    );
    expect(left.rows).toEqual([]);
    const off2 = await t.db.query<{ kind: string }>(
      `SELECT kind FROM memorial_mail_opt_outs WHERE email_lower = 'bezoeker@example.nl' ORDER BY kind`,
    );
    expect(off2.rows.map((r) => r.kind)).toEqual(['birthday', 'messages']);
  });

  it('sends remembrance reminders (Allerzielen, Wereldlichtjesdag, a kaarsjesmoment) once, only to those who asked', async () => {
    await confirmedVisitor(c.publicId, 'herdenker@example.nl', ['remembrance']);
    await confirmedVisitor(c.publicId, 'alleen-berichten@example.nl', ['messages']);
    const sweepOn = async (date: string) => {
      t.app.deps.clock = { now: () => amsterdamInstant(date, '09:00') };
      await t.app.deps.queue.runNow(FUTURE_MAIL_TASK);
      await t.app.deps.queue.runNow(FUTURE_MAIL_TASK);
      t.app.deps.clock = realClock;
    };
    const to = (subject: string) => (x: { to: string[] | string; subject: string }) =>
      x.to.includes('herdenker@example.nl') && x.subject.startsWith(subject);

    // Allerzielen: every page. The address's owner signed in once, so the mail greets them by that name.
    await t.db.query(
      `INSERT INTO users (id, email, name) VALUES ($1, 'herdenker@example.nl', 'Hanna Herdenker')`,
      [`herdenker-${Date.now()}`],
    );
    await sweepOn('2031-11-02');
    const allerzielen = await t.smtp.waitFor(to('Allerzielen: we denken aan'));
    expect(allerzielen.text.split('\n')[0]).toBe('Beste Hanna Herdenker,');
    expect(allerzielen.text).toContain(`/memorial/${c.publicId}`);
    expect(allerzielen.headers['list-unsubscribe']).toMatch(/^<http.+>$/);
    expect(await outboxCount(allerzielen.subject)).toBe(1); // once, and not to the messages-only address

    // Wereldlichtjesdag: only on a child's page (died before the 18th birthday, shared/child-age.ts; its
    // boundaries in child-age.test.ts). Born on 29 February, died on 28 February 18 years later: not a child.
    await t.db.query(
      `UPDATE memorials SET birth_date = '2008-02-29', death_date = '2026-02-28' WHERE id = $1`,
      [c.publicId],
    );
    const lichtjesdag = secondSundayOfDecember(2031);
    await sweepOn(lichtjesdag);
    const grown = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM mail_outbox WHERE subject LIKE 'Wereldlichtjesdag:%'`,
    );
    expect(grown.rows[0]!.n).toBe(0);
    await t.db.query(
      `UPDATE memorials SET birth_date = '2015-03-01', death_date = '2021-05-01' WHERE id = $1`,
      [c.publicId],
    );
    // The day is swept once (a change later that day waits for the next occasion): the next year's.
    await sweepOn(secondSundayOfDecember(2032));
    const child = await t.smtp.waitFor(to('Wereldlichtjesdag: een lichtje voor'));
    expect(child.text).toContain('19:00');

    // The day of a kaarsjesmoment the family planned, with its time.
    await t.db.query(
      `INSERT INTO candle_moments (memorial_id, moment_date, starts_at, starts_at_instant, ends_at_instant)
       VALUES ($1, '2032-01-15', '20:30', '2032-01-15T19:30:00Z', '2032-01-15T20:30:00Z')`,
      [c.publicId],
    );
    await sweepOn('2032-01-14');
    await sweepOn('2032-01-15');
    const moment = await t.smtp.waitFor(to('Vandaag om 20:30: kaarsjesmoment voor'));
    expect(await outboxCount(moment.subject)).toBe(1);

    // One click switches these off.
    const stop = await t.app.inject({
      method: 'POST',
      url: `/core/mail/unsubscribe?t=${encodeURIComponent(tokenIn(moment.text, '/meldingen/afmelden'))}`,
    });
    expect(stop.json()).toMatchObject({ kind: 'remembrance', unsubscribed: true });
    await sweepOn('2032-11-02');
    const after = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM mail_outbox WHERE subject LIKE 'Allerzielen:%'`,
    );
    expect(after.rows[0]!.n).toBe(1);
  });

  it('sweeps a day’s reminders once: not again that day in this process or another, and still after 08:00 when the server was down then', async () => {
    await confirmedVisitor(c.publicId, 'dagelijks@example.nl', ['deathday']);
    await t.db.query(`UPDATE memorials SET death_date = '2021-06-15' WHERE id = $1`, [c.publicId]);
    const day = '2034-06-15';
    // Both processes read one clock, their background runs too (a run by the real clock would sweep today).
    let now = amsterdamInstant(day, '07:30');
    const clock = { now: () => now };
    t.app.deps.clock = clock;
    const runAt = async (app: TestContext['app'], date: string, time: string) => {
      now = amsterdamInstant(date, time);
      await app.deps.queue.runNow(FUTURE_MAIL_TASK);
    };
    const remindersTo = async (email: string) =>
      (
        await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM mail_outbox WHERE $1 = ANY (to_addresses) AND subject LIKE 'Vandaag is het % geleden dat %'`,
          [email],
        )
      ).rows[0]!.n;
    const swept = async () =>
      (
        await t.db.query<{ swept_on: string | null }>(
          `SELECT swept_on::text FROM scheduled_mail_sweeps WHERE name = 'reminders'`,
        )
      ).rows[0]!.swept_on;

    // Before 08:00 nothing is swept.
    await runAt(t.app, day, '07:30');
    expect(await remindersTo('dagelijks@example.nl')).toBe(0);
    expect(await swept()).not.toBe(day);

    // The server was down at 08:00: a process started at 14:30 sweeps the day, once.
    const started = await buildApp({ config: t.config, db: t.db });
    started.deps.clock = clock;
    try {
      await started.ready();
      await runAt(started, day, '14:30');
      expect(await remindersTo('dagelijks@example.nl')).toBe(1);
      expect(await swept()).toBe(day);

      // Someone signs up for it after the sweep. Another run that day, in this process or another, does not
      // read the sign-ups again: the new one gets nothing today (it would, had they been read), nor anyone twice.
      await confirmedVisitor(c.publicId, 'later@example.nl', ['deathday']);
      await runAt(started, day, '15:30');
      await runAt(t.app, day, '16:00');
      await runAt(t.app, day, '23:59');
      expect(await remindersTo('dagelijks@example.nl')).toBe(1);
      expect(await remindersTo('later@example.nl')).toBe(0);

      // The next year's day: both, once.
      await runAt(t.app, '2035-06-15', '08:00');
      await runAt(started, '2035-06-15', '08:01');
      expect(await remindersTo('dagelijks@example.nl')).toBe(2);
      expect(await remindersTo('later@example.nl')).toBe(1);
    } finally {
      t.app.deps.clock = realClock;
      await started.close();
    }
  });

  it('asks a visitor of a private page for access first', async () => {
    const res = await subscribe(c.privateId, { email: 'x@example.nl', kinds: ['messages'], consent: true });
    expect(res.statusCode).toBe(404);
  });
});
