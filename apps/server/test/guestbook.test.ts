import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUESTBOOK_RATE_LIMIT } from '@aandenken/contract';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast, eventually } from './fixtures/content.ts';
import { guestbookLive } from '../src/modules/guestbook/live.ts';
import { LATIN_EXTENDED_NAMES, pdfInfo, pdfText } from './fixtures/pdf-reader.ts';

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;
/** A second app process on the same database: the live stream must carry entries written by another. */
let other: App;
let address = 0;

beforeAll(async () => {
  t = await createTestApp();
  c = await cast(t, 'guestbook');
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: t.dataDir,
    SMTP_URL: t.smtp.url,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: t.config.PUBLIC_URL,
    RATE_LIMIT_MAX: '10000',
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  });
  other = await buildApp({ config, db: t.db });
  await other.ready();
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

type Headers = Record<string, string> | undefined;
const url = (memorialId: string, rest = '') => `/core/memorial/${memorialId}/guestbook${rest}`;
const get = (memorialId: string, headers: Headers, rest = '') =>
  t.app.inject({ method: 'GET', url: url(memorialId, rest), headers });
const setOpen = (memorialId: string, headers: Headers, open: boolean) =>
  t.app.inject({ method: 'PUT', url: url(memorialId), headers, payload: { open } });
const info = (token: string) => t.app.inject({ method: 'GET', url: `/core/guestbook/${token}` });
const sign = (token: string, payload: unknown, remoteAddress = `10.16.0.${++address % 250}`) =>
  t.app.inject({
    method: 'POST',
    url: `/core/guestbook/${token}/entries`,
    payload: payload as object,
    remoteAddress,
  });
const entryCount = async () =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM guestbook_entries')).rows[0]!.n;

describe('the guestbook', () => {
  let token = '';

  it('is for owners and editors only: anonymous 401, a contributor 403, a stranger 404', async () => {
    for (const [method, rest] of [
      ['GET', ''],
      ['GET', '/entries.csv'],
      ['GET', '/entries.pdf'],
      ['GET', '/stream'],
    ] as const) {
      const res = await t.app.inject({ method, url: url(c.privateId, rest) });
      expect(res.statusCode, rest).toBe(401);
      expect(res.json().message).toBeTruthy();
    }
    expect((await setOpen(c.privateId, undefined, true)).statusCode).toBe(401);
    expect((await setOpen(c.privateId, c.contributor.headers, true)).statusCode).toBe(403);
    for (const rest of ['', '/stream']) {
      expect((await get(c.privateId, c.guest.headers, rest)).statusCode).toBe(403);
      expect((await get(c.privateId, c.contributor.headers, rest)).statusCode).toBe(403);
      expect((await get(c.privateId, c.stranger.headers, rest)).statusCode).toBe(404);
    }
    expect((await get(c.privateId, c.owner.headers)).json()).toEqual({ allowed: true, guestbook: null });
  });

  it('opens with a short link; a visitor of a private page signs it without account or access code', async () => {
    const res = await setOpen(c.privateId, c.editor.headers, true);
    expect(res.statusCode).toBe(200);
    const gb = res.json().guestbook;
    expect(gb.open).toBe(true);
    expect(gb.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(gb.url).toBe(`${t.config.APP_URL}/g/${gb.token}`);
    token = gb.token;

    const page = await info(token);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ open: true });
    expect(page.json().name).toBeTruthy();

    const signed = await sign(token, {
      name: '  Anna de Vries ',
      address: 'Dorpsstraat 1\n1234 AB Ergens',
      message: 'Veel sterkte.',
    });
    expect(signed.statusCode).toBe(201);
    const list = (await get(c.privateId, c.owner.headers)).json().guestbook.entries;
    expect(list).toEqual([
      expect.objectContaining({
        id: signed.json().id,
        name: 'Anna de Vries',
        address: 'Dorpsstraat 1\n1234 AB Ergens',
        message: 'Veel sterkte.',
        hidden: false,
      }),
    ]);
    // Opening again keeps the link.
    expect((await setOpen(c.privateId, c.owner.headers, true)).json().guestbook.token).toBe(token);
  });

  it('refuses bad input with Dutch messages and stores nothing; an unknown link is 404', async () => {
    const before = await entryCount();
    const res = await sign(token, { name: '   ', message: 'x'.repeat(1001) });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBeTruthy();
    expect(res.json().message).toMatch(/[a-z]/);
    expect(JSON.stringify(res.json())).toMatch(/Naam is verplicht|maximaal 1000/);
    expect(await entryCount()).toBe(before);
    const unknown = await sign('A'.repeat(22), { name: 'Bram' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('GUESTBOOK_NOT_FOUND');
    expect((await info('nope')).statusCode).toBe(404);
  });

  it('lets the family hide an entry; the exports leave it out and guard against formulas', async () => {
    const bad = await sign(token, { name: 'Reclame', message: 'Koop nu!' });
    const formula = await sign(token, { name: '=HYPERLINK("x")', message: 'Rust zacht; we denken aan je' });
    expect(formula.statusCode).toBe(201);
    const hideUrl = url(c.privateId, `/entries/${bad.json().id}`);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: hideUrl,
          headers: c.contributor.headers,
          payload: { hidden: true },
        })
      ).statusCode,
    ).toBe(403);
    const hid = await t.app.inject({
      method: 'PUT',
      url: hideUrl,
      headers: c.owner.headers,
      payload: { hidden: true },
    });
    expect(hid.statusCode).toBe(200);
    expect(hid.json()).toMatchObject({ name: 'Reclame', hidden: true });
    const missing = await t.app.inject({
      method: 'PUT',
      url: url(c.publicId, `/entries/${bad.json().id}`),
      headers: c.owner.headers,
      payload: { hidden: true },
    });
    expect(missing.statusCode).toBe(404);

    const csv = await get(c.privateId, c.owner.headers, '/entries.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const body = csv.rawPayload.toString('utf8');
    expect(body.startsWith('\uFEFFNaam;Adres;Bericht;Geschreven op\r\n')).toBe(true);
    expect(body).toContain('Anna de Vries;"Dorpsstraat 1\n1234 AB Ergens";Veel sterkte.;');
    expect(body).toContain(`"'=HYPERLINK(""x"")";;"Rust zacht; we denken aan je";`);
    expect(body).not.toContain('Reclame');
    expect(body.endsWith('\r\n')).toBe(true);

    const pdf = await get(c.privateId, c.owner.headers, '/entries.pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const doc = pdfInfo(pdf.rawPayload);
    expect(doc.pages).toBe(1);
    expect(doc.title).toMatch(/^Condoleanceregister /);

    // The family sees hidden entries in its list (marked), so it can show one again.
    const entries = (await get(c.privateId, c.owner.headers)).json().guestbook.entries;
    expect(entries.find((e: { id: string }) => e.id === bad.json().id).hidden).toBe(true);
  });

  it('prints names in Turkish, Polish and Vietnamese as written in the PDF, and leaves emoji out', async () => {
    for (const name of LATIN_EXTENDED_NAMES.split(', '))
      expect(
        (await sign(token, { name, message: `Rust zacht 🕊️ lieve ${name.split(' ')[0]} ❤️` })).statusCode,
      ).toBe(201);
    const pdf = await get(c.privateId, c.owner.headers, '/entries.pdf');
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload);
    for (const name of LATIN_EXTENDED_NAMES.split(', ')) expect(text).toMatch(new RegExp(`^${name}$`, 'm'));
    // Left out, not drawn as boxes (which the extractor would give as a break or a wide gap).
    expect(text).toMatch(/^Rust zacht lieve Ayşe$/m);
    expect(text).toMatch(/^Rust zacht lieve Nguyễn$/m);
    expect(text).not.toMatch(/[?\uFFFD]/);
  });

  it('closes when the family closes it: signing is refused, the link says closed', async () => {
    expect((await setOpen(c.privateId, c.owner.headers, false)).json().guestbook.open).toBe(false);
    const before = await entryCount();
    const res = await sign(token, { name: 'Te laat' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'GUESTBOOK_CLOSED',
      message: 'Het condoleanceregister is gesloten.',
    });
    expect(await entryCount()).toBe(before);
    expect((await info(token)).json().open).toBe(false);
    const log = await t.db.query<{ action: string }>(
      `SELECT action FROM memorial_audit_log WHERE memorial_id = $1 AND action LIKE 'guestbook.%' ORDER BY created_at, id`,
      [c.privateId],
    );
    expect(log.rows.map((r) => r.action)).toEqual([
      'guestbook.opened',
      'guestbook.opened',
      'guestbook.entry_hidden',
      'guestbook.closed',
    ]);
    expect((await setOpen(c.privateId, c.owner.headers, true)).json().guestbook.open).toBe(true);
  });

  it('is Premium: a Basis page cannot open it, and an open one stops taking signatures', async () => {
    const plan = (p: string) =>
      t.db.query(
        `UPDATE memorial_plans SET plan = $2, paid_until = now() + interval '1 year' WHERE memorial_id = $1`,
        [c.publicId, p],
      );
    await plan('basis');
    const res = await setOpen(c.publicId, c.owner.headers, true);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('PLAN_FEATURE');
    expect(res.json().message).toMatch(/Premium/);
    expect((await get(c.publicId, c.owner.headers)).json()).toEqual({ allowed: false, guestbook: null });

    await plan('premium');
    const opened = (await setOpen(c.publicId, c.owner.headers, true)).json().guestbook;
    await plan('basis');
    expect((await info(opened.token)).json().open).toBe(false);
    const refused = await sign(opened.token, { name: 'Bram' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('PLAN_FEATURE');
    // Closing stays possible.
    expect((await setOpen(c.publicId, c.owner.headers, false)).statusCode).toBe(200);
    await plan('premium');
  });

  it(`limits signing to ${GUESTBOOK_RATE_LIMIT.max} per ${GUESTBOOK_RATE_LIMIT.windowMinutes} minutes per address`, async () => {
    const from = '10.16.1.1';
    for (let i = 0; i < GUESTBOOK_RATE_LIMIT.max; i++)
      expect((await sign(token, { name: `Bezoeker ${i}` }, from)).statusCode).toBe(201);
    const res = await sign(token, { name: 'Een te veel' }, from);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBeTruthy();
    expect((await sign(token, { name: 'Iemand anders' })).statusCode).toBe(201);
  });

  it('streams new and hidden entries live to the family, written by another process', async () => {
    const base = await other.listen({ port: 0, host: '127.0.0.1' });
    const ac = new AbortController();
    const res = await fetch(`${base}${url(c.privateId, '/stream')}`, {
      headers: c.owner.headers,
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    const nextEvent = async (name: string) => {
      for (;;) {
        const events = buffer.split('\n\n');
        buffer = events.pop()!;
        for (let i = 0; i < events.length; i++) {
          const ev = events[i]!;
          if (ev.includes(`event: ${name}\n`)) {
            buffer = events.slice(i + 1).join('\n\n') + (i + 1 < events.length ? '\n\n' : '') + buffer;
            return JSON.parse(ev.split('\ndata: ')[1]!);
          }
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += value;
      }
    };
    await nextEvent('ready');
    // Another page's entries do not arrive on this stream.
    const publicToken = (await setOpen(c.publicId, c.owner.headers, true)).json().guestbook.token;
    expect((await sign(publicToken, { name: 'Elders' })).statusCode).toBe(201);
    const signed = await sign(token, { name: 'Live Lotte', message: 'Dag lieve vriend' });
    const entry = await nextEvent('entry');
    expect(entry).toMatchObject({ id: signed.json().id, name: 'Live Lotte', hidden: false });
    await t.app.inject({
      method: 'PUT',
      url: url(c.privateId, `/entries/${entry.id}`),
      headers: c.editor.headers,
      payload: { hidden: true },
    });
    expect(await nextEvent('entry')).toMatchObject({ id: entry.id, hidden: true });
    ac.abort();
    await reader.cancel().catch(() => {});
  });

  it('listens once per process while streams are open and stops when the last one goes', async () => {
    const log = t.app.log;
    const live = guestbookLive(t.db, log);
    const seen: string[] = [];
    const lost: string[] = [];
    const stream = (tag: string) => ({
      onEntry: (id: string) => seen.push(`${tag} ${id}`),
      onLost: () => lost.push(tag),
    });
    const a = await live.subscribe(c.privateId, stream('a'));
    const b = await live.subscribe(c.privateId.toUpperCase(), stream('b'));
    expect(live.streams()).toBe(2);
    const first = (await sign(token, { name: 'Eerste' })).json().id;
    await eventually(async () => seen.length >= 2);
    expect([...seen].sort()).toEqual([`a ${first}`, `b ${first}`]);
    a();
    a();
    expect(live.streams()).toBe(1);
    b();
    expect(live.streams()).toBe(0);
    // Streams that went get nothing more; a new one starts listening again.
    await sign(token, { name: 'Tweede' });
    const again = await live.subscribe(c.privateId, stream('c'));
    const third = (await sign(token, { name: 'Derde' })).json().id;
    await eventually(async () => seen.includes(`c ${third}`));
    expect(seen.filter((s) => s.startsWith('a ') || s.startsWith('b '))).toHaveLength(2);
    live.close();
    expect(lost).toEqual(['c']);
    expect(live.streams()).toBe(0);
    again();
  });
});
