import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RSVP_PEOPLE_MAX } from '@aandenken/contract';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast, guestToken } from './fixtures/content.ts';
import { runRsvpSummaries } from '../src/modules/funeral-day/service.ts';
import { amsterdamDate, amsterdamInstant, csvField } from '../src/modules/funeral-day/calendar.ts';

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;
let address = 0;
const realClock = { now: () => new Date() };

beforeAll(async () => {
  t = await createTestApp();
  c = await cast(t, 'funeral');
});
afterAll(async () => t?.close());

type Headers = Record<string, string> | undefined;
const DAY = 24 * 3_600_000;
const inDays = (n: number) => amsterdamDate(new Date(Date.now() + n * DAY));
const at = (d: Date) => {
  t.app.deps.clock = { now: () => d };
};

const service = (over: Record<string, unknown> = {}) => ({
  kind: 'uitvaart',
  date: inDays(10),
  startTime: '14:30',
  endTime: '15:45',
  placeName: 'Aula Zorgvlied',
  address: 'Amsteldijk 273, 1079 LK Amsterdam',
  programme: 'Welkom\nMuziek: Bach; toespraken, afscheid',
  livestreamUrl: 'https://stream.example.nl/uitvaart',
  afterText: 'Koffietafel in de aula',
  rsvpOpen: true,
  ...over,
});
const create = (memorialId: string, headers: Headers, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/core/memorial/${memorialId}/services`,
    headers,
    payload: payload as object,
  });
const list = (memorialId: string, headers?: Headers) =>
  t.app.inject({ method: 'GET', url: `/core/memorial/${memorialId}/services`, headers });
const rsvp = (memorialId: string, serviceId: string, payload: unknown, headers?: Headers) =>
  t.app.inject({
    method: 'POST',
    url: `/core/memorial/${memorialId}/services/${serviceId}/rsvp`,
    headers,
    payload: payload as object,
    remoteAddress: `10.3.0.${++address % 250}`,
  });

describe('services on the memorial page', () => {
  afterAll(() => {
    t.app.deps.clock = realClock;
  });

  it('lets owners and editors add, change and remove a service; others may not', async () => {
    const res = await create(c.publicId, c.editor.headers, service());
    expect(res.statusCode).toBe(201);
    const s = res.json();
    expect(s).toMatchObject({
      kind: 'uitvaart',
      startTime: '14:30',
      endTime: '15:45',
      placeName: 'Aula Zorgvlied',
      livestreamUrl: 'https://stream.example.nl/uitvaart',
      rsvpOpen: true,
      rsvpAccepting: true,
      dayReached: false,
    });
    expect(s.mapUrl).toBe(
      `https://www.openstreetmap.org/search?query=${encodeURIComponent('Aula Zorgvlied, Amsteldijk 273, 1079 LK Amsterdam')}`,
    );
    expect(s.startsAt).toMatch(/T14:30:00\+0[12]:00$/);

    for (const h of [c.contributor.headers, c.guest.headers]) {
      const r = await create(c.publicId, h, service());
      expect(r.statusCode).toBe(403);
      expect(r.json().code).toBeTruthy();
    }
    expect((await create(c.publicId, undefined, service())).statusCode).toBe(401);
    expect((await create(c.privateId, c.stranger.headers, service())).statusCode).toBe(404);

    const put = await t.app.inject({
      method: 'PUT',
      url: `/core/memorial/${c.publicId}/services/${s.id}`,
      headers: c.owner.headers,
      payload: service({ kind: 'afscheid', endTime: null }),
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ kind: 'afscheid', endTime: null });
    const putOther = await t.app.inject({
      method: 'PUT',
      url: `/core/memorial/${c.privateId}/services/${s.id}`,
      headers: c.owner.headers,
      payload: service(),
    });
    expect(putOther.statusCode).toBe(404);
    expect(putOther.json().code).toBe('SERVICE_NOT_FOUND');

    const del = (h: Headers) =>
      t.app.inject({ method: 'DELETE', url: `/core/memorial/${c.publicId}/services/${s.id}`, headers: h });
    expect((await del(c.contributor.headers)).statusCode).toBe(403);
    expect((await del(c.owner.headers)).json()).toEqual({ id: s.id, deleted: true });
    expect((await del(c.owner.headers)).statusCode).toBe(404);
    const log = await t.db.query<{ action: string }>(
      'SELECT action FROM memorial_audit_log WHERE target_id = $1 ORDER BY created_at, id',
      [s.id],
    );
    expect(log.rows.map((r) => r.action)).toEqual(['service.created', 'service.updated', 'service.deleted']);
  });

  it('validates with Dutch messages as {code, message} and stores nothing', async () => {
    const before = (await t.db.query('SELECT count(*)::int AS n FROM memorial_services')).rows[0];
    const res = await create(
      c.publicId,
      c.owner.headers,
      service({
        kind: 'bruiloft',
        date: '2026-02-30',
        startTime: '25:00',
        placeName: ' ',
        livestreamUrl: 'javascript:alert(1)',
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(res.json().fields).toMatchObject({
      kind: 'Kies uitvaart, afscheid, crematie of herdenking',
      date: 'Datum bestaat niet',
      startTime: 'Begintijd moet de vorm UU:MM hebben',
      placeName: 'Naam van de plaats is verplicht',
    });
    const order = await create(
      c.publicId,
      c.owner.headers,
      service({ startTime: '15:00', endTime: '14:00' }),
    );
    expect(order.statusCode).toBe(400);
    expect(order.json().fields).toEqual({ endTime: 'Eindtijd moet na de begintijd liggen' });
    const link = await create(c.publicId, c.owner.headers, service({ livestreamUrl: 'javascript:alert(1)' }));
    expect(link.json().fields).toEqual({
      livestreamUrl: 'Livestreamlink moet een webadres zijn (https://…)',
    });
    expect((await t.db.query('SELECT count(*)::int AS n FROM memorial_services')).rows[0]).toEqual(before);
  });

  it('shows services to whoever may see the page; the livestream only from the day on', async () => {
    const s = (await create(c.privateId, c.owner.headers, service())).json();
    const token = await guestToken(t, c.privateId);
    for (const h of [undefined, c.stranger.headers])
      expect((await list(c.privateId, h)).statusCode).toBe(404);
    const seen = (await list(c.privateId, token.headers)).json().services;
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ id: s.id, livestreamUrl: null, dayReached: false });
    expect((await list(c.privateId, c.editor.headers)).json().services[0].livestreamUrl).toBe(
      'https://stream.example.nl/uitvaart',
    );

    at(amsterdamInstant(s.date, '08:00'));
    const onTheDay = (await list(c.privateId, token.headers)).json().services[0];
    expect(onTheDay).toMatchObject({ livestreamUrl: 'https://stream.example.nl/uitvaart', dayReached: true });
    t.app.deps.clock = realClock;

    // The public page's anonymous read comes from the cache, which a change invalidates.
    const pub = (await create(c.publicId, c.owner.headers, service({ placeName: 'Kerk' }))).json();
    const first = (await list(c.publicId)).json().services as { id: string; placeName: string }[];
    expect(first.find((x) => x.id === pub.id)?.placeName).toBe('Kerk');
    await t.app.inject({
      method: 'PUT',
      url: `/core/memorial/${c.publicId}/services/${pub.id}`,
      headers: c.owner.headers,
      payload: service({ placeName: 'Dorpskerk' }),
    });
    await expect
      .poll(
        async () =>
          ((await list(c.publicId)).json().services as { id: string; placeName: string }[]).find(
            (x) => x.id === pub.id,
          )?.placeName,
      )
      .toBe('Dorpskerk');
  });

  it('gives a calendar file in Europe/Amsterdam time to visitors who can see the page', async () => {
    const s = (
      await create(
        c.privateId,
        c.owner.headers,
        service({ date: '2026-12-04', placeName: 'Aula, De Nieuwe Ooster' }),
      )
    ).json();
    const url = `/core/memorial/${c.privateId}/services/${s.id}/calendar.ics`;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    const res = await t.app.inject({ method: 'GET', url, headers: c.guest.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="uitvaart-2026-12-04.ics"');
    const ics = res.body;
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics).toContain('TZID:Europe/Amsterdam');
    expect(ics).toContain('DTSTART;TZID=Europe/Amsterdam:20261204T143000\r\n');
    expect(ics).toContain('DTEND;TZID=Europe/Amsterdam:20261204T154500\r\n');
    expect(ics).toContain(`UID:${s.id}@aandenken.nl\r\n`);
    expect(ics).toContain('SUMMARY:Uitvaart Jan Testpersoon\r\n');
    expect(ics).toContain('LOCATION:Aula\\, De Nieuwe Ooster\\, Amsteldijk 273\\, 1079 LK Amsterdam\r\n');
    expect(ics.replace(/\r\n /g, '')).toContain('Muziek: Bach\\; toespraken\\, afscheid');
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    // No end time: an hour, written in UTC (14:30 CET is 13:30 UTC).
    const open = (
      await create(c.privateId, c.owner.headers, service({ date: '2026-12-04', endTime: null }))
    ).json();
    const noEnd = await t.app.inject({
      method: 'GET',
      url: `/core/memorial/${c.privateId}/services/${open.id}/calendar.ics`,
      headers: c.owner.headers,
    });
    expect(noEnd.body).toContain('DTEND:20261204T143000Z\r\n');
  });
});

describe('RSVP for the gathering', () => {
  afterAll(() => {
    t.app.deps.clock = realClock;
  });

  it('takes a name, 1 to 20 people and a note, without an account, until it closes', async () => {
    const closes = new Date(Date.now() + 2 * DAY);
    const s = (
      await create(c.publicId, c.owner.headers, service({ rsvpClosesAt: closes.toISOString() }))
    ).json();
    const ok = await rsvp(c.publicId, s.id, {
      name: ' Tante Jet ',
      people: 3,
      note: 'Wij komen met de trein',
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ people: 3 });

    const bad = await rsvp(c.publicId, s.id, { name: '', people: RSVP_PEOPLE_MAX + 1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({
      name: 'Naam is verplicht',
      people: `Aantal personen is maximaal ${RSVP_PEOPLE_MAX}`,
    });
    expect((await rsvp(c.publicId, s.id, { name: 'Piet', people: 0 })).json().fields).toEqual({
      people: 'Aantal personen is minimaal 1',
    });
    expect(
      (await rsvp(c.publicId, '00000000-0000-4000-8000-000000000000', { name: 'X', people: 1 })).statusCode,
    ).toBe(404);

    at(new Date(closes.getTime() - 1000));
    expect((await rsvp(c.publicId, s.id, { name: 'Net op tijd', people: 1 })).statusCode).toBe(201);
    at(closes);
    const late = await rsvp(c.publicId, s.id, { name: 'Te laat', people: 2 });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ code: 'RSVP_CLOSED', message: 'Aanmelden is gesloten.' });
    expect(
      (await list(c.publicId, c.owner.headers)).json().services.find((x: { id: string }) => x.id === s.id),
    ).toMatchObject({ rsvpAccepting: false });
    t.app.deps.clock = realClock;

    // Without a closing time it closes when the service starts; switched off it takes none.
    const off = (await create(c.publicId, c.owner.headers, service({ rsvpOpen: false }))).json();
    expect((await rsvp(c.publicId, off.id, { name: 'Iemand', people: 1 })).statusCode).toBe(409);
    const plain = (await create(c.publicId, c.owner.headers, service())).json();
    at(amsterdamInstant(plain.date, '14:30'));
    expect((await rsvp(c.publicId, plain.id, { name: 'Iemand', people: 1 })).statusCode).toBe(409);
    t.app.deps.clock = realClock;
  });

  it('needs access to a private page', async () => {
    const s = (await create(c.privateId, c.owner.headers, service())).json();
    expect((await rsvp(c.privateId, s.id, { name: 'Vera', people: 1 })).statusCode).toBe(404);
    expect((await rsvp(c.privateId, s.id, { name: 'Vera', people: 1 }, c.stranger.headers)).statusCode).toBe(
      404,
    );
    const token = await guestToken(t, c.privateId);
    expect((await rsvp(c.privateId, s.id, { name: 'Gast', people: 2 }, token.headers)).statusCode).toBe(201);
  });

  it('is limited per address', async () => {
    const s = (await create(c.publicId, c.owner.headers, service())).json();
    const from = '10.9.9.9';
    const codes: number[] = [];
    for (let i = 0; i < 11; i++)
      codes.push(
        (
          await t.app.inject({
            method: 'POST',
            url: `/core/memorial/${c.publicId}/services/${s.id}/rsvp`,
            payload: { name: `Gast ${i}`, people: 1 },
            remoteAddress: from,
          })
        ).statusCode,
      );
    expect(codes.slice(0, 10).every((x) => x === 201)).toBe(true);
    expect(codes[10]).toBe(429);
  });

  it('shows the family the list with totals and exports it as CSV for Dutch Excel', async () => {
    const s = (await create(c.publicId, c.owner.headers, service({ date: '2026-12-04' }))).json();
    await rsvp(c.publicId, s.id, { name: 'Familie de Vries', people: 4, note: 'Met "opa"; na de dienst' });
    await rsvp(c.publicId, s.id, { name: '=HYPERLINK("x")', people: 1 });
    const url = `/core/memorial/${c.publicId}/services/${s.id}/rsvps`;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url, headers: c.contributor.headers })).statusCode).toBe(403);
    const listed = await t.app.inject({ method: 'GET', url, headers: c.editor.headers });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ count: 2, totalPeople: 5 });
    expect(listed.json().rsvps[0]).toMatchObject({ name: 'Familie de Vries', people: 4 });

    expect(
      (await t.app.inject({ method: 'GET', url: `${url}.csv`, headers: c.guest.headers })).statusCode,
    ).toBe(403);
    const csv = await t.app.inject({ method: 'GET', url: `${url}.csv`, headers: c.owner.headers });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(
      'attachment; filename="aanmeldingen-uitvaart-2026-12-04.csv"',
    );
    expect([...csv.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Naam;Aantal personen;Opmerking;Aangemeld op');
    expect(lines[1]).toMatch(
      /^Familie de Vries;4;"Met ""opa""; na de dienst";\d{2}-\d{2}-\d{4},? \d{2}:\d{2}$/,
    );
    expect(lines[2]).toMatch(/^"'=HYPERLINK\(""x""\)";1;;/);
    expect(lines[3]).toBe('Totaal;5;;');
    expect(csvField('-1')).toBe("'-1");
  });

  it('mails the family a summary once a day while there are new RSVPs', async () => {
    const owner = c.owner;
    const s = (await create(c.privateId, owner.headers, service({ placeName: 'Samenvatting' }))).json();
    // Earlier services' RSVPs get their first summary in this run too; this test follows its own.
    await t.db.query(
      'INSERT INTO service_rsvp_summaries (service_id, sent_at) SELECT id, now() FROM memorial_services WHERE id <> $1 ON CONFLICT DO NOTHING',
      [s.id],
    );
    const token = await guestToken(t, c.privateId);
    await rsvp(c.privateId, s.id, { name: 'Oom Kees', people: 2 }, token.headers);
    await rsvp(c.privateId, s.id, { name: 'Buurvrouw Ans', people: 1 }, token.headers);
    const mine = () =>
      t.smtp.messages.filter(
        (m) => m.subject.startsWith('Nieuwe aanmeldingen') && m.text.includes('Oom Kees'),
      );

    // The application's clock a minute behind the database's (two servers' clocks never agree exactly): the
    // RSVPs stay counted as summarised, whatever the summary's own time says.
    at(new Date(Date.now() - 60_000));
    expect((await runRsvpSummaries(t.app.deps)).services).toBe(1);
    t.app.deps.clock = realClock;
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(`owner-funeral@example.nl`) && m.text.includes('Oom Kees'),
    );
    expect(mail.subject).toBe('Nieuwe aanmeldingen voor de uitvaart van Jan Testpersoon');
    // Each owner and editor by their own name.
    const { rows: named } = await t.db.query<{ name: string }>('SELECT name FROM users WHERE email = $1', [
      'owner-funeral@example.nl',
    ]);
    expect(mail.text.split('\n')[0]).toBe(`Beste ${named[0]!.name},`);
    expect(mail.text).toContain('- Buurvrouw Ans: 1 persoon');
    expect(mail.text).toContain('In totaal: 2 aanmeldingen, 3 personen.');
    await t.smtp.waitFor((m) => m.to.includes('editor-funeral@example.nl') && m.text.includes('Oom Kees'));
    expect(t.smtp.messages.some((m) => m.to.includes('contributor-funeral@example.nl'))).toBe(false);

    // The same day again: nothing; the next day without new RSVPs: nothing.
    expect((await runRsvpSummaries(t.app.deps)).services).toBe(0);
    at(new Date(Date.now() + DAY));
    expect((await runRsvpSummaries(t.app.deps)).services).toBe(0);
    t.app.deps.clock = realClock;
    await t.app.deps.outbox.idle();
    expect(mine()).toHaveLength(2);

    // A new RSVP: the next day's summary lists only it, with the totals.
    await rsvp(c.privateId, s.id, { name: 'Nicht Lies', people: 2 }, token.headers);
    expect((await runRsvpSummaries(t.app.deps)).services).toBe(0);
    at(new Date(Date.now() + DAY));
    expect((await runRsvpSummaries(t.app.deps)).services).toBe(1);
    t.app.deps.clock = realClock;
    const next = await t.smtp.waitFor(
      (m) => m.to.includes('owner-funeral@example.nl') && m.text.includes('Nicht Lies'),
    );
    expect(next.text).not.toContain('Oom Kees');
    expect(next.text).toContain('In totaal: 3 aanmeldingen, 5 personen.');
  });
});
