/**
 * Live streams (the guestbook's list, the kaarsjesmoment) end when the caller's access ends: an editor
 * removed, the partner role withdrawn, the company suspended, the token expired, the guest's code
 * regenerated, the page made invite-only or private. And their caps: per caller, per address, per process,
 * with "samen" counting people rather than connections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { amsterdamDate, amsterdamInstant } from '../src/shared/amsterdam-time.ts';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { guestToken, member, memorial, person, type Person } from './fixtures/content.ts';
import { createCompany, createLinkToken, createMemorial } from './memorial-fixtures.ts';

let t: TestContext;
let base: string;
let team: string;
let owner: Person;
const ownerEmail = 'eigenaar-live@example.nl';
const realClock = { now: () => new Date() };
const DAY = 24 * 3_600_000;
const tomorrow = amsterdamDate(new Date(Date.now() + DAY));
/** During the kaarsjesmoment every test plans (tomorrow 20:00-21:00, Amsterdam time). */
const during = new Date(amsterdamInstant(tomorrow, '20:10'));

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'team@aandenken.test' });
  t.app.deps.clock = { now: () => during };
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  team = (await issueUserToken(t, { email: 'team@aandenken.test', name: 'Team' })).token;
  owner = await person(t, ownerEmail, 'Olga Eigenaar');
});
afterAll(async () => {
  if (t) t.app.deps.clock = realClock;
  await t?.close();
});

const uid = () => crypto.randomUUID().slice(0, 8);
const bearer = (token?: string | null): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token?: string | null, payload?: object, app: App = t.app) =>
  app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload } : {}) });

/** Settles with `p`, or fails when it takes longer than `ms`: the promise the issue makes. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** One server-sent-events stream read by a real HTTP client; `ended` settles when the server ends it. */
async function sse(url: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const events: { event: string; data: unknown }[] = [];
  const waiting: (() => void)[] = [];
  let done = false;
  const ended = (async () => {
    if (!res.ok) return;
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done: over } = await reader.read();
        if (over) break;
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
      // aborted by the test
    } finally {
      done = true;
      for (const w of waiting.splice(0)) w();
    }
  })();
  let read = 0;
  return {
    res,
    events,
    ended,
    /** The next event of this kind (events before it are passed over); fails when the stream ended. */
    async next<T = Record<string, unknown>>(event: string): Promise<T> {
      for (;;) {
        while (read < events.length) {
          const e = events[read++]!;
          if (e.event === event) return e.data as T;
        }
        if (done) throw new Error(`the stream ended before '${event}'`);
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    close: () => abort.abort(),
  };
}
type Sse = Awaited<ReturnType<typeof sse>>;

/** Ends within 5 s of the change, and delivers nothing after it. */
async function endsAfter(s: Sse, change: () => Promise<unknown>, deliverAfter?: () => Promise<unknown>) {
  const before = s.events.length;
  await change();
  await within(s.ended, 5_000, 'the stream ends');
  await deliverAfter?.();
  // What the server still sent after the change is at most what it had under way: no new content.
  expect(s.events.slice(before).filter((e) => e.event === 'entry' || e.event === 'candle')).toEqual([]);
}

// --- the guestbook -------------------------------------------------------------------------------------

const guestbookUrl = (memorialId: string, rest = '') => `/core/memorial/${memorialId}/guestbook${rest}`;
const guestbookStream = (memorialId: string, token: string, origin = base) =>
  sse(`${origin}${guestbookUrl(memorialId, '/stream')}`, bearer(token));
let signer = 0;
const sign = (token: string, name: string) =>
  t.app.inject({
    method: 'POST',
    url: `/core/guestbook/${token}/entries`,
    payload: { name, address: 'Dorpsstraat 1, Ons Dorp', message: 'Veel sterkte' },
    remoteAddress: `10.77.0.${++signer % 250}`,
  });

/** An approved company with its first user (administrator). */
const company = () => createCompany(t, { name: 'Uitvaartzorg De Linde' });
/** A page the company made for a family: the partner manages it as an editor. */
async function carePage(companyId: string, token: string) {
  const familyEmail = `familie-${uid()}@example.nl`;
  const res = await call('POST', `/core/companies/${companyId}/pages`, token, {
    firstName: 'Johanna',
    lastName: 'Willems',
    birthDate: '1941-03-02',
    deathDate: '2026-11-01',
    familyEmail,
  });
  expect(res.statusCode, res.body).toBe(201);
  const mail = await t.smtp.waitFor((m) => m.to.includes(familyEmail), 20_000);
  const code = /\/overnemen\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
  return { memorialId: res.json().memorialId as string, familyEmail, code };
}

describe("the guestbook's live list ends when the caller's access ends", () => {
  it('an editor removed: the stream ends within 5 s and delivers no entry after it', async () => {
    const m = await memorial(t, owner);
    const editor = await person(t, `redacteur-${uid()}@example.nl`, 'Eddy Redacteur');
    await member(t, m, editor, 'editor');
    const opened = await call('PUT', guestbookUrl(m), owner.token, { open: true });
    expect(opened.statusCode, opened.body).toBe(200);
    const token = opened.json().guestbook.token as string;

    const s = await guestbookStream(m, editor.token);
    expect(s.res.status).toBe(200);
    await s.next('ready');
    expect((await sign(token, 'Voor het vertrek')).statusCode).toBe(201);
    expect(await s.next('entry')).toMatchObject({ name: 'Voor het vertrek' });

    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id FROM memorial_members WHERE memorial_id = $1 AND user_id = $2',
      [m, editor.userId],
    );
    await endsAfter(
      s,
      async () =>
        expect((await call('DELETE', `/core/memorial/users/${rows[0]!.id}`, owner.token)).statusCode).toBe(
          204,
        ),
      async () => expect((await sign(token, 'Na het vertrek')).statusCode).toBe(201),
    );
    // The owner's stream goes on.
    const o = await guestbookStream(m, owner.token);
    await o.next('ready');
    o.close();
  });

  it('the family withdraws the partner role: the partner’s stream ends within 5 s', async () => {
    const c = await company();
    const page = await carePage(c.id, c.admin.token);
    const family = await issueUserToken(t, { email: page.familyEmail, name: 'Familie' });
    const accepted = await call('POST', `/core/handover/${page.code}/accept`, family.token, {
      partnerRoleAllowed: true,
      shownPublicly: false,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const s = await guestbookStream(page.memorialId, c.admin.token);
    expect(s.res.status).toBe(200);
    await s.next('ready');
    await endsAfter(s, async () => {
      const res = await call('PUT', `/core/memorial/${page.memorialId}/care`, family.token, {
        partnerRoleAllowed: false,
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect((await guestbookStream(page.memorialId, c.admin.token)).res.status).toBe(404);
  });

  it('the company is suspended: its streams end within 5 s', async () => {
    const c = await company();
    const page = await carePage(c.id, c.admin.token);
    const s = await guestbookStream(page.memorialId, c.admin.token);
    expect(s.res.status).toBe(200);
    await s.next('ready');
    await endsAfter(s, async () =>
      expect((await call('POST', `/core/team/companies/${c.id}/suspend`, team)).statusCode).toBe(200),
    );
  });

  it('a change whose notification was lost is caught by the periodic check', async () => {
    const m = await memorial(t, owner);
    const editor = await person(t, `redacteur-${uid()}@example.nl`, 'Eddy Redacteur');
    await member(t, m, editor, 'editor');
    const s = await guestbookStream(m, editor.token);
    await s.next('ready');
    // As if the notification went missing (the listening connection was down when it was sent).
    await t.db.exec('ALTER TABLE memorial_members DISABLE TRIGGER memorial_members_notify_live_access');
    try {
      await t.db.query('DELETE FROM memorial_members WHERE memorial_id = $1 AND user_id = $2', [
        m,
        editor.userId,
      ]);
    } finally {
      await t.db.exec('ALTER TABLE memorial_members ENABLE TRIGGER memorial_members_notify_live_access');
    }
    // What runs every RECHECK_MS.
    t.app.deps.liveStreams.recheckAll();
    await within(s.ended, 5_000, 'the stream ends');
  });

  it('the access token expires: the stream ends then, within 5 s', async () => {
    const m = await memorial(t, owner);
    const email = `kort-${uid()}@example.nl`;
    const short = await issueUserToken(t, { email, name: 'Kees Kort' }, 6);
    await t.db.query(
      `INSERT INTO users (id, email, name) VALUES ($1, $2, 'Kees Kort') ON CONFLICT DO NOTHING`,
      [short.userId, email],
    );
    await t.db.query(`INSERT INTO memorial_members (memorial_id, user_id, role) VALUES ($1, $2, 'editor')`, [
      m,
      short.userId,
    ]);
    const expiresAt = JSON.parse(Buffer.from(short.token.split('.')[1]!, 'base64url').toString()).exp * 1000;
    const s = await guestbookStream(m, short.token);
    expect(s.res.status).toBe(200);
    await s.next('ready');
    await within(s.ended, Math.max(0, expiresAt - Date.now()) + 5_000, 'the stream ends at expiry');
  });
});

// --- the kaarsjesmoment --------------------------------------------------------------------------------

const momentUrl = (memorialId: string) => `/core/memorial/${memorialId}/candle-moments`;
const momentStream = (
  memorialId: string,
  headers: Record<string, string> = {},
  origin = base,
  client?: string,
) => sse(`${origin}${momentUrl(memorialId)}/live${client ? `?client=${client}` : ''}`, headers);
/** A page with a kaarsjesmoment on now (the app's clock). */
async function pageWithMoment(visibility: 'public' | 'private') {
  // Through the service: a real access code, as regenerating and the page's settings need.
  const { id: m } = await createMemorial(t, { ...owner, email: ownerEmail }, { visibility });
  const res = await call('POST', momentUrl(m), owner.token, { date: tomorrow, startTime: '20:00' });
  expect(res.statusCode, res.body).toBe(201);
  return m;
}
const light = (memorialId: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/core/candles/${memorialId}`,
    headers,
    payload: { name: 'Marieke', message: 'Samen met jullie' },
  });

describe("the kaarsjesmoment's stream ends when the caller's access ends", () => {
  it("the guest's access code is regenerated: the guest's stream ends within 5 s", async () => {
    const m = await pageWithMoment('private');
    const guest = await guestToken(t, m, 'Gerda');
    const s = await momentStream(m, guest.headers);
    expect(s.res.status).toBe(200);
    await s.next('state');
    expect((await light(m, guest.headers)).statusCode).toBe(201);
    await s.next('candle');
    await endsAfter(
      s,
      async () =>
        expect(
          (await call('POST', `/core/memorial/${m}/access-code/regenerate`, owner.token)).statusCode,
        ).toBe(200),
      async () => expect((await light(m, owner.headers)).statusCode).toBe(201),
    );
  });

  it('the page is made invite-only: a guest who came in by the code is out within 5 s, one by an invitation stays', async () => {
    const m = await pageWithMoment('private');
    const byCode = await guestToken(t, m, 'Gerda');
    const link = await createLinkToken(t, m);
    const consumed = await t.app.inject({
      method: 'POST',
      url: '/core/guest/token-consume',
      payload: { token: link },
    });
    expect(consumed.statusCode, consumed.body).toBe(200);
    const byLink = bearer(consumed.json().token);
    const a = await momentStream(m, byCode.headers);
    const b = await momentStream(m, byLink);
    await a.next('state');
    await b.next('state');
    await endsAfter(a, async () => {
      const res = await call('PUT', '/core/memorial', owner.token, { id: m, inviteOnly: true });
      expect(res.statusCode, res.body).toBe(200);
    });
    const lit = await light(m, owner.headers);
    expect(lit.statusCode).toBe(201);
    expect(await b.next('candle')).toMatchObject({ id: lit.json().id });
    expect((await call('GET', `/core/memorial/${m}`, byCode.token)).statusCode).toBe(401);
    b.close();
  });

  it('a public page is made private: a visitor’s stream ends within 5 s', async () => {
    const m = await pageWithMoment('public');
    const s = await momentStream(m);
    expect(s.res.status).toBe(200);
    await s.next('state');
    await endsAfter(
      s,
      async () => {
        const res = await call('PUT', '/core/memorial', owner.token, { id: m, visibility: 'private' });
        expect(res.statusCode, res.body).toBe(200);
      },
      async () => expect((await light(m, owner.headers)).statusCode).toBe(201),
    );
    expect((await momentStream(m)).res.status).toBe(404);
  });

  it('an editor removed from a private page: their stream ends within 5 s', async () => {
    const m = await pageWithMoment('private');
    const editor = await person(t, `redacteur-${uid()}@example.nl`, 'Eddy Redacteur');
    await member(t, m, editor, 'editor');
    const s = await momentStream(m, editor.headers);
    await s.next('state');
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id FROM memorial_members WHERE memorial_id = $1 AND user_id = $2',
      [m, editor.userId],
    );
    await endsAfter(s, async () =>
      expect((await call('DELETE', `/core/memorial/users/${rows[0]!.id}`, owner.token)).statusCode).toBe(204),
    );
  });

  it('the access token expires: the stream ends then, within 5 s', async () => {
    const m = await pageWithMoment('private');
    const email = `kort-${uid()}@example.nl`;
    const short = await issueUserToken(t, { email, name: 'Kees Kort' }, 6);
    await t.db.query(
      `INSERT INTO users (id, email, name) VALUES ($1, $2, 'Kees Kort') ON CONFLICT DO NOTHING`,
      [short.userId, email],
    );
    await t.db.query(
      `INSERT INTO memorial_members (memorial_id, user_id, role) VALUES ($1, $2, 'contributor')`,
      [m, short.userId],
    );
    const expiresAt = JSON.parse(Buffer.from(short.token.split('.')[1]!, 'base64url').toString()).exp * 1000;
    const s = await momentStream(m, bearer(short.token));
    expect(s.res.status).toBe(200);
    await s.next('state');
    await within(s.ended, Math.max(0, expiresAt - Date.now()) + 5_000, 'the stream ends at expiry');
  });
});

// --- caps ----------------------------------------------------------------------------------------------

describe('caps on live streams', () => {
  /** A second process on the same database with small caps, behind a proxy that names the client. */
  let capped: App;
  let cappedBase: string;
  const from = (address: string, headers: Record<string, string> = {}) => ({
    ...headers,
    'x-forwarded-for': address,
  });
  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: t.dataDir,
      SMTP_URL: t.smtp.url,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: t.config.PUBLIC_URL,
      RATE_LIMIT_MAX: '10000',
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      TRUST_PROXY: 'true',
      LIVE_STREAMS_PER_CALLER: '2',
      LIVE_STREAMS_PER_ADDRESS: '3',
      LIVE_STREAMS_MAX: '5',
    });
    capped = await buildApp({ config, db: t.db });
    capped.deps.clock = { now: () => during };
    await capped.ready();
    cappedBase = await capped.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => capped?.close());

  /** Closes the streams and waits until the process has let go of them. */
  async function closeAll(streams: Sse[]) {
    for (const s of streams) s.close();
    await expect.poll(() => capped.deps.liveStreams.open()).toBe(0);
  }

  it('a user or guest token holds at most LIVE_STREAMS_PER_CALLER streams (429 in Dutch above it)', async () => {
    const m = await memorial(t, owner);
    const open = [
      await guestbookStream(m, owner.token, cappedBase),
      await guestbookStream(m, owner.token, cappedBase),
    ];
    for (const s of open) await s.next('ready');
    const refused = await fetch(`${cappedBase}${guestbookUrl(m, '/stream')}`, {
      headers: bearer(owner.token),
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      code: 'RATE_LIMITED',
      message:
        'Je hebt al 2 live verbindingen open. Sluit een ander venster of tabblad en probeer het opnieuw.',
    });
    // Closing one frees its place.
    open.pop()!.close();
    await expect.poll(() => capped.deps.liveStreams.open()).toBe(1);
    const again = await guestbookStream(m, owner.token, cappedBase);
    expect(again.res.status).toBe(200);
    await closeAll([...open, again]);
  });

  it('an address holds at most LIVE_STREAMS_PER_ADDRESS streams; another address is not affected', async () => {
    const m = await pageWithMoment('public');
    const open: Sse[] = [];
    for (let i = 0; i < 3; i++) {
      const s = await momentStream(m, from('203.0.113.7'), cappedBase, crypto.randomUUID());
      expect(s.res.status).toBe(200);
      open.push(s);
    }
    const refused = await fetch(`${cappedBase}${momentUrl(m)}/live`, { headers: from('203.0.113.7') });
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { code: string; message: string };
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.message).toBe(
      'Vanaf dit adres zijn al te veel live verbindingen open. Sluit een ander venster of tabblad en probeer het opnieuw.',
    );
    const elsewhere = await momentStream(m, from('198.51.100.4'), cappedBase);
    expect(elsewhere.res.status).toBe(200);
    await closeAll([...open, elsewhere]);
  });

  it('"samen" counts people: one person’s many connections count once', async () => {
    const m = await pageWithMoment('public');
    const visitor = await person(t, `bezoeker-${uid()}@example.nl`, 'Bea Bezoeker');
    const pageView = crypto.randomUUID();
    const open: Sse[] = [];
    // One signed-in visitor in two tabs, and one page view without an account reconnecting.
    for (const [headers, client] of [
      [from('192.0.2.1', visitor.headers), undefined],
      [from('192.0.2.2', visitor.headers), undefined],
      [from('192.0.2.3'), pageView],
      [from('192.0.2.3'), pageView],
    ] as const) {
      const s = await momentStream(m, headers, cappedBase, client);
      expect(s.res.status).toBe(200);
      open.push(s);
    }
    expect((await open[3]!.next<{ together: number }>('state')).together).toBe(2);
    // Another page view from that address is another person.
    const other = await momentStream(m, from('192.0.2.3'), cappedBase, crypto.randomUUID());
    expect((await other.next<{ together: number }>('state')).together).toBe(3);
    await closeAll([...open, other]);
  });

  it('the process holds at most LIVE_STREAMS_MAX streams (503 above it) and reads go on', async () => {
    const m = await pageWithMoment('public');
    const open: Sse[] = [];
    for (let i = 0; i < 5; i++) {
      const s = await momentStream(m, from(`198.18.0.${i + 1}`), cappedBase);
      expect(s.res.status).toBe(200);
      open.push(s);
    }
    const refused = await fetch(`${cappedBase}${momentUrl(m)}/live`, { headers: from('198.18.0.99') });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toEqual({
      code: 'OVERLOADED',
      message: 'Er kijken nu heel veel mensen live mee. Probeer het over een halve minuut opnieuw.',
    });
    // Reads are not streams: they are answered.
    expect((await fetch(`${cappedBase}/core/memorial/${m}`, { headers: from('198.18.0.99') })).status).toBe(
      200,
    );
    expect((await fetch(`${cappedBase}/healthz`)).status).toBe(200);
    await closeAll(open);
  });
});
