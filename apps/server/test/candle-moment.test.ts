import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDLE_MOMENT_MAX_MINUTES } from '@aandenken/contract';
import { buildApp, type App } from '../src/app.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast, guestToken } from './fixtures/content.ts';
import { amsterdamDate, amsterdamInstant } from '../src/shared/amsterdam-time.ts';
import { secondSundayOfDecember } from '../src/shared/amsterdam-time.ts';

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;
const realClock = { now: () => new Date() };
const DAY = 24 * 3_600_000;
const tomorrow = () => amsterdamDate(new Date(Date.now() + DAY));

beforeAll(async () => {
  t = await createTestApp();
  c = await cast(t, 'moment');
});
afterAll(async () => t?.close());

type Headers = Record<string, string> | undefined;
const moments = (memorialId: string) => `/core/memorial/${memorialId}/candle-moments`;
const create = (memorialId: string, headers: Headers, payload: unknown) =>
  t.app.inject({ method: 'POST', url: moments(memorialId), headers, payload: payload as object });
const read = (memorialId: string, headers?: Headers) =>
  t.app.inject({ method: 'GET', url: moments(memorialId), headers });

describe('planning a kaarsjesmoment', () => {
  it('is for owners and editors; the others get 401, 403 or 404 and nothing changes', async () => {
    const body = { date: tomorrow(), startTime: '20:00', title: 'Op zijn verjaardag' };
    expect((await create(c.privateId, undefined, body)).statusCode).toBe(401);
    expect((await create(c.privateId, c.contributor.headers, body)).statusCode).toBe(403);
    expect((await create(c.privateId, c.guest.headers, body)).statusCode).toBe(403);
    expect((await create(c.privateId, c.stranger.headers, body)).statusCode).toBe(404);
    const guest = await guestToken(t, c.privateId, 'Gerda');
    expect((await create(c.privateId, guest.headers, body)).statusCode).toBe(403);
    expect((await read(c.privateId, c.owner.headers)).json().moments).toEqual([]);

    const made = await create(c.privateId, c.owner.headers, body);
    expect(made.statusCode).toBe(201);
    const m = made.json();
    expect(m).toMatchObject({
      date: tomorrow(),
      startTime: '20:00',
      durationMinutes: 60,
      title: 'Op zijn verjaardag',
    });
    expect(new Date(m.startsAt).getTime()).toBe(amsterdamInstant(tomorrow(), '20:00').getTime());
    expect(new Date(m.endsAt).getTime() - new Date(m.startsAt).getTime()).toBe(3_600_000);

    const url = `${moments(c.privateId)}/${m.id}`;
    const change = { date: tomorrow(), startTime: '21:30', durationMinutes: 30, title: '' };
    expect((await t.app.inject({ method: 'PUT', url, payload: change })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'PUT', url, headers: c.contributor.headers, payload: change }))
        .statusCode,
    ).toBe(403);
    const changed = await t.app.inject({ method: 'PUT', url, headers: c.editor.headers, payload: change });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ startTime: '21:30', durationMinutes: 30, title: null });

    // Visitors with access see it (a guest link on this private page), strangers and anonymous callers do not.
    expect((await read(c.privateId, guest.headers)).json().moments.map((x: { id: string }) => x.id)).toEqual([
      m.id,
    ]);
    expect((await read(c.privateId)).statusCode).toBe(404);
    expect((await read(c.privateId, c.stranger.headers)).statusCode).toBe(404);

    expect((await t.app.inject({ method: 'DELETE', url, headers: c.guest.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url, headers: c.editor.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url, headers: c.editor.headers })).statusCode).toBe(404);
    expect((await read(c.privateId, c.owner.headers)).json().moments).toEqual([]);

    const log = await t.db.query<{ action: string }>(
      `SELECT action FROM memorial_audit_log WHERE memorial_id = $1 AND action LIKE 'candle_moment.%' ORDER BY created_at, id`,
      [c.privateId],
    );
    expect(log.rows.map((r) => r.action)).toEqual([
      'candle_moment.created',
      'candle_moment.updated',
      'candle_moment.deleted',
    ]);
  });

  it('refuses bad input with 400 and a Dutch message, and a moment that has passed', async () => {
    const bad = [
      { date: '2026-02-30', startTime: '20:00' },
      { date: tomorrow(), startTime: '25:00' },
      { date: tomorrow(), startTime: '20:00', durationMinutes: CANDLE_MOMENT_MAX_MINUTES + 1 },
      { date: tomorrow(), startTime: '20:00', durationMinutes: 'een uur' },
      { date: tomorrow(), startTime: '20:00', title: 'x'.repeat(121) },
      { startTime: '20:00' },
    ];
    for (const body of bad) {
      const res = await create(c.publicId, c.owner.headers, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(/[a-z]/);
    }
    const past = await create(c.publicId, c.owner.headers, { date: '2020-05-04', startTime: '20:00' });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({
      code: 'CANDLE_MOMENT_IN_PAST',
      message: 'Dit moment ligt in het verleden.',
    });
    const unknown = await t.app.inject({
      method: 'PUT',
      url: `${moments(c.publicId)}/00000000-0000-4000-8000-000000000000`,
      headers: c.owner.headers,
      payload: { date: tomorrow(), startTime: '20:00' },
    });
    expect(unknown.statusCode).toBe(404);
    expect((await read(c.publicId)).json().moments).toEqual([]);
  });
});

describe('remembrance days', () => {
  afterAll(() => {
    t.app.deps.clock = realClock;
  });

  it('shows Allerzielen and the page’s own days; Wereldlichtjesdag only on a child’s page', async () => {
    t.app.deps.clock = { now: () => new Date('2026-11-24T10:00:00Z') };
    await t.db.query(
      `UPDATE memorials SET birth_date = '1950-03-01', death_date = '2025-12-01' WHERE id = $1`,
      [c.publicId],
    );
    // Anonymous reads are cached; the change reaches the cache through NOTIFY (at once on PGlite, a moment
    // later from a PostgreSQL server), so the reads are polled.
    const days = async () => (await read(c.publicId)).json().days as { kind: string }[];
    await expect.poll(days).toEqual([
      { kind: 'sterfdag', date: '2026-12-01', time: null, years: 1 },
      { kind: 'verjaardag', date: '2027-03-01', time: null, years: 77 },
      { kind: 'allerzielen', date: '2027-11-02', time: null, years: null },
    ]);
    // A child who died at six: Wereldlichtjesdag, the second Sunday of December at 19:00.
    await t.db.query(
      `UPDATE memorials SET birth_date = '2016-06-10', death_date = '2022-11-02' WHERE id = $1`,
      [c.publicId],
    );
    await expect
      .poll(async () => (await days()).map((d) => d.kind))
      .toEqual(['wereldlichtjesdag', 'verjaardag', 'allerzielen', 'sterfdag']);
    expect((await days())[0]).toEqual({
      kind: 'wereldlichtjesdag',
      date: '2026-12-13',
      time: '19:00',
      years: null,
    });
    expect(secondSundayOfDecember(2027)).toBe('2027-12-12');
    // Without a birth date there is no guessing: no Wereldlichtjesdag.
    await t.db.query('UPDATE memorials SET birth_date = NULL WHERE id = $1', [c.publicId]);
    await expect.poll(async () => (await days()).map((d) => d.kind)).toEqual(['allerzielen', 'sterfdag']);
  });
});

/** One server-sent-events stream read by a real HTTP client. */
/** Reads the stream's `together` events until one says `n` (the test's timeout bounds the wait). */
async function togetherReaches(s: Awaited<ReturnType<typeof stream>>, n: number) {
  for (;;) if ((await s.next<{ together: number }>('together')).together === n) return;
}

async function stream(base: string, memorialId: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  // A page view of its own, as the web app sends: visitors without an account count once per page view.
  const res = await fetch(`${base}${moments(memorialId)}/live?client=${crypto.randomUUID()}`, {
    headers,
    signal: abort.signal,
  });
  const events: { event: string; data: unknown }[] = [];
  const waiting: (() => void)[] = [];
  if (res.ok)
    void (async () => {
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let at;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data) events.push({ event, data: JSON.parse(data) });
            for (const w of waiting.splice(0)) w();
          }
        }
      } catch {
        // aborted
      }
      for (const w of waiting.splice(0)) w();
    })();
  let read = 0;
  return {
    res,
    /** The next event of this kind (events before it are passed over). */
    async next<T = Record<string, unknown>>(event: string): Promise<T> {
      for (;;) {
        while (read < events.length) {
          const e = events[read++]!;
          if (e.event === event) return e.data as T;
        }
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    close: () => abort.abort(),
  };
}

describe('the live stream during a kaarsjesmoment', () => {
  let other: App;
  let base1: string;
  let base2: string;
  let momentId: string;

  beforeAll(async () => {
    const made = await create(c.publicId, c.owner.headers, { date: tomorrow(), startTime: '20:00' });
    momentId = made.json().id;
    await create(c.privateId, c.owner.headers, { date: tomorrow(), startTime: '20:00' });
    // A second process on the same database: they know of each other only through PostgreSQL.
    other = await buildApp({ config: t.config, db: t.db });
    await other.ready();
    base1 = await t.app.listen({ host: '127.0.0.1', port: 0 });
    base2 = await other.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    t.app.deps.clock = realClock;
    await other?.close();
  });

  it('answers 409 when no moment is on, and 404 on a private page to whoever may not see it', async () => {
    const before = await t.app.inject({ method: 'GET', url: `${moments(c.publicId)}/live` });
    expect(before.statusCode).toBe(409);
    expect(before.json()).toMatchObject({ code: 'CANDLE_MOMENT_NOT_LIVE' });
    const during = new Date(amsterdamInstant(tomorrow(), '20:10'));
    t.app.deps.clock = { now: () => during };
    other.deps.clock = { now: () => during };
    expect((await t.app.inject({ method: 'GET', url: `${moments(c.privateId)}/live` })).statusCode).toBe(404);
    const stranger = await t.app.inject({
      method: 'GET',
      url: `${moments(c.privateId)}/live`,
      headers: c.stranger.headers,
    });
    expect(stranger.statusCode).toBe(404);
    // A guest link opens it.
    const guest = await guestToken(t, c.privateId, 'Gerda');
    const s = await stream(base1, c.privateId, guest.headers);
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await s.next('state')).toMatchObject({ together: 1, candles: [] });
    s.close();
  });

  it('shows every connection the candles lit and how many are there together, across processes', async () => {
    const a = await stream(base1, c.publicId);
    const stateA = await a.next<{ moment: { id: string }; together: number }>('state');
    expect(stateA.moment.id).toBe(momentId);
    expect(stateA.together).toBe(1);

    const b = await stream(base2, c.publicId);
    expect((await b.next<{ together: number }>('state')).together).toBe(2);
    // The count as it changes: the echo of A's own arrival may come first, so wait for the value.
    await togetherReaches(a, 2);

    // Lit through the other process: both streams get it.
    const lit = await other.inject({
      method: 'POST',
      url: `/core/candles/${c.publicId}`,
      payload: { name: 'Marieke', message: 'Samen met jullie' },
    });
    expect(lit.statusCode).toBe(201);
    expect(await a.next('candle')).toMatchObject({
      id: lit.json().id,
      name: 'Marieke',
      message: 'Samen met jullie',
    });
    expect(await b.next('candle')).toMatchObject({ id: lit.json().id });

    // Leaving removes the presence: the one who stays sees the count go down.
    b.close();
    await togetherReaches(a, 1);
    a.close();
    await expect
      .poll(
        async () =>
          (await t.db.query('SELECT 1 FROM candle_presence WHERE memorial_id = $1', [c.publicId])).rowCount,
      )
      .toBe(0);
  });
});
