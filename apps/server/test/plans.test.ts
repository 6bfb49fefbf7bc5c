/** Plans and the trial (docs/plans.md): limits, read-only pages, reminder mails, the team's hand. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plans as planDefinitions, pricingPlans } from '@aandenken/contract';
import { planService } from '../src/modules/plans/service.ts';
import { amsterdamDaysUntil } from '../src/shared/amsterdam-time.ts';
import { limitFor, planAllows, planStateOf } from '../src/shared/plans.ts';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { cast, form, jpeg, memorial, member, person, type Person } from './fixtures/content.ts';

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp({ TRIAL_DAYS: '14' });
  c = await cast(t, 'plans');
});
afterAll(async () => t?.close());

type Headers = Record<string, string> | undefined;
const post = (url: string, headers: Headers, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as object });
const put = (url: string, headers: Headers, payload: unknown) =>
  t.app.inject({ method: 'PUT', url, headers, payload: payload as object });
const planOf = (id: string, headers: Headers) => t.app.inject({ url: `/core/memorial/${id}/plan`, headers });

const setPlan = (id: string, sql: string, params: unknown[] = []) =>
  t.db.query(`UPDATE memorial_plans SET ${sql} WHERE memorial_id = $1`, [id, ...params]);
const endTrial = (id: string) => setPlan(id, `trial_started_at = now() - interval '15 days'`);

async function freshMemorial(tag: string) {
  const owner = await person(t, `owner-${tag}@example.nl`, `Oma ${tag}`);
  const contributor = await person(t, `contrib-${tag}@example.nl`, `Kees ${tag}`);
  const guest = await person(t, `guest-${tag}@example.nl`, `Gerda ${tag}`);
  const id = await memorial(t, owner, { visibility: 'public', firstName: `Plan ${tag}` });
  await member(t, id, contributor, 'contributor');
  await member(t, id, guest, 'guest');
  return { id, owner: { ...owner, email: `owner-${tag}@example.nl` }, contributor, guest };
}

async function concept(who: Person, memorialId: string) {
  return post('/core/memories/concept', who.headers, {
    memorialId,
    yearLabel: '1990',
    text: 'Samen aan zee.',
  });
}
async function publishOne(who: Person, memorialId: string) {
  const m = await concept(who, memorialId);
  expect(m.statusCode).toBe(201);
  return post('/core/memories/publish', who.headers, { id: m.json().id });
}

describe('one definition of the plans', () => {
  it('the pricing cards read the plans: prices and the Basis limit come from the definition', () => {
    const basis = pricingPlans.find((p) => p.id === 'basis')!;
    const premium = pricingPlans.find((p) => p.id === 'premium')!;
    expect(basis.price).toBe(planDefinitions.basis.priceCents / 100);
    expect(basis.price).toBe(50);
    expect(premium.price).toBe(199);
    expect(basis.benefitList).toContain('Upload tot 6 herinneringen');
    expect(premium.popular).toBe(1);
  });

  it('planAllows and limitFor: Basis has the basic features and 6 memories; Premium and the trial everything; read-only nothing', () => {
    const now = new Date();
    const basis = planStateOf(
      {
        plan: 'basis',
        trial_started_at: now,
        paid_until: new Date(now.getTime() + DAY),
        payer_company_id: null,
      },
      now,
      30,
    );
    const trial = planStateOf(
      { plan: 'trial', trial_started_at: now, paid_until: null, payer_company_id: null },
      now,
      30,
    );
    const premium = planStateOf(
      { plan: 'premium', trial_started_at: now, paid_until: null, payer_company_id: null },
      now,
      30,
    );
    const lapsed = planStateOf(
      {
        plan: 'trial',
        trial_started_at: new Date(now.getTime() - 31 * DAY),
        paid_until: null,
        payer_company_id: null,
      },
      now,
      30,
    );
    expect(planAllows(basis, 'basicVideo')).toBe(true);
    expect(planAllows(basis, 'guestbook')).toBe(false);
    expect(planAllows(basis, 'aiBiography')).toBe(false);
    expect(planAllows(trial, 'guestbook')).toBe(true);
    expect(planAllows(premium, 'printedBook')).toBe(true);
    expect(planAllows(lapsed, 'basicVideo')).toBe(false);
    expect(lapsed.readOnly).toBe(true);
    expect(limitFor(basis, 'memories')).toBe(6);
    expect(limitFor(basis, 'futureMessages')).toBe(1);
    expect(limitFor(premium, 'memories')).toBeNull();
    expect(limitFor(trial, 'memories')).toBeNull();
  });
});

describe('the trial', () => {
  it('every new memorial starts a trial of TRIAL_DAYS with Premium’s features', async () => {
    const res = await planOf(c.publicId, c.owner.headers);
    expect(res.statusCode).toBe(200);
    const plan = res.json();
    expect(plan).toMatchObject({ plan: 'trial', state: 'active', canPay: true, paidByCompany: false });
    expect(plan.features).toContain('guestbook');
    expect(plan.memories.max).toBeNull();
    const ends = new Date(plan.endsAt).getTime();
    expect(Math.abs(ends - (Date.now() + 14 * DAY))).toBeLessThan(60_000);
    // The day it is made counts in full: 'nog 14 dagen', not 13.
    expect(plan.daysLeft).toBe(14);
  });

  it('counts the days left as Amsterdam’s calendar does, at the boundaries of a day', () => {
    const at = (iso: string) => new Date(iso);
    // Made at 23:59 Amsterdam time (winter, UTC+1) with a 30-day trial: still 30 that evening.
    const made = at('2026-11-28T22:59:00Z');
    const ends = new Date(made.getTime() + 30 * DAY);
    expect(amsterdamDaysUntil(ends, made)).toBe(30);
    // One minute later it is the next day in Amsterdam (while still the 28th in UTC): 29.
    expect(amsterdamDaysUntil(ends, at('2026-11-28T23:00:00Z'))).toBe(29);
    // Made just after midnight: the whole day counts too.
    const early = at('2026-11-28T23:01:00Z');
    expect(amsterdamDaysUntil(new Date(early.getTime() + 30 * DAY), early)).toBe(30);
    // The day before the end: 1; the last day itself, until its hour: 0; after it: 0.
    expect(amsterdamDaysUntil(ends, at('2026-12-27T12:00:00Z'))).toBe(1);
    expect(amsterdamDaysUntil(ends, at('2026-12-28T00:00:00Z'))).toBe(0);
    expect(amsterdamDaysUntil(ends, at('2027-01-05T00:00:00Z'))).toBe(0);
    // Across the change to summer time (a day of 23 hours): still whole days.
    expect(amsterdamDaysUntil(at('2027-03-29T10:00:00Z'), at('2027-03-27T10:00:00Z'))).toBe(2);
  });

  it('a memorial made any other way (straight into the table) gets its trial from the trigger', async () => {
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memorials m LEFT JOIN memorial_plans p ON p.memorial_id = m.id
        WHERE p.memorial_id IS NULL`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('members and guests see the plan, only owners and editors may pay; strangers and anonymous callers get nothing', async () => {
    expect((await planOf(c.publicId, c.guest.headers)).json()).toMatchObject({ canPay: false, payments: [] });
    expect((await planOf(c.publicId, c.editor.headers)).json().canPay).toBe(true);
    expect((await planOf(c.publicId, c.stranger.headers)).statusCode).toBe(403);
    expect((await planOf(c.privateId, c.stranger.headers)).statusCode).toBe(404);
    expect((await planOf(c.publicId, undefined)).statusCode).toBe(401);
  });
});

describe('Basis: at most 6 memories (published ones count)', () => {
  it('the seventh is refused with 403 PLAN_LIMIT and a Dutch message, on writing, publishing and approving', async () => {
    const w = await freshMemorial('limit');
    await setPlan(w.id, `plan = 'basis', paid_until = now() + interval '300 days'`);
    // Drafts written before the limit was reached; they do not count until published.
    const early = await concept(w.contributor, w.id);
    const pending = await concept(w.guest, w.id);
    expect(
      (await post('/core/memories/publish', w.guest.headers, { id: pending.json().id })).json().status,
    ).toBe('pending');
    for (let i = 0; i < 5; i++) expect((await publishOne(w.owner, w.id)).statusCode).toBe(200);
    let plan = (await planOf(w.id, w.owner.headers)).json();
    expect(plan.memories).toEqual({ used: 5, max: 6 });
    expect(plan.features).not.toContain('guestbook');
    expect((await publishOne(w.contributor, w.id)).statusCode).toBe(200);
    plan = (await planOf(w.id, w.owner.headers)).json();
    expect(plan.memories).toEqual({ used: 6, max: 6 });

    const seventh = await concept(w.contributor, w.id);
    expect(seventh.statusCode).toBe(403);
    expect(seventh.json().code).toBe('PLAN_LIMIT');
    expect(seventh.json().message).toMatch(/Basis-abonnement.*6 herinneringen/);
    const publish = await post('/core/memories/publish', w.contributor.headers, { id: early.json().id });
    expect(publish.statusCode).toBe(403);
    expect(publish.json().code).toBe('PLAN_LIMIT');
    const approve = await put('/core/memories/status', w.owner.headers, {
      id: pending.json().id,
      status: 'published',
    });
    expect(approve.statusCode).toBe(403);
    expect(approve.json().code).toBe('PLAN_LIMIT');
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memories WHERE memorial_id = $1 AND status = 'published'`,
      [w.id],
    );
    expect(rows[0]!.n).toBe(6);

    // Premium: unlimited again.
    await setPlan(w.id, `plan = 'premium', paid_until = NULL`);
    expect(
      (await post('/core/memories/publish', w.contributor.headers, { id: early.json().id })).statusCode,
    ).toBe(200);
  });

  it('two publications at once cannot both take the last place', async () => {
    const w = await freshMemorial('race');
    await setPlan(w.id, `plan = 'basis', paid_until = now() + interval '300 days'`);
    for (let i = 0; i < 5; i++) expect((await publishOne(w.owner, w.id)).statusCode).toBe(200);
    const a = (await concept(w.owner, w.id)).json().id;
    const b = (await concept(w.contributor, w.id)).json().id;
    const results = await Promise.all([
      post('/core/memories/publish', w.owner.headers, { id: a }),
      post('/core/memories/publish', w.contributor.headers, { id: b }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 403]);
  });
});

describe('read-only after the trial (or a Basis year) ends unpaid', () => {
  it('visitors still read and light candles; nothing new is added; nothing is deleted', async () => {
    const w = await freshMemorial('ro');
    const before = await publishOne(w.owner, w.id);
    expect(before.statusCode).toBe(200);
    const draft = (await concept(w.contributor, w.id)).json().id;
    await endTrial(w.id);

    const plan = (await planOf(w.id, w.owner.headers)).json();
    expect(plan).toMatchObject({ state: 'read_only', plan: 'trial', features: [], daysLeft: 0 });

    const refused = await concept(w.owner, w.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'PLAN_READ_ONLY' });
    expect(refused.json().message).toMatch(/blijft online/);
    expect((await post('/core/memories/publish', w.contributor.headers, { id: draft })).json().code).toBe(
      'PLAN_READ_ONLY',
    );
    const photo = await form(
      { memorialId: w.id },
      { data: await jpeg(), type: 'image/jpeg', name: 'foto.jpg' },
    );
    const upload = await t.app.inject({
      method: 'POST',
      url: '/core/memorial-media',
      payload: photo.payload,
      headers: { ...w.owner.headers, ...photo.headers },
    });
    expect(upload.statusCode).toBe(403);
    expect(upload.json().code).toBe('PLAN_READ_ONLY');
    const bio = await put('/core/memorial/biography', w.owner.headers, {
      memorialId: w.id,
      html: '<p>Nieuw</p>',
    });
    expect(bio.statusCode).toBe(403);
    expect(bio.json().code).toBe('PLAN_READ_ONLY');

    // Reading and candles go on, for anyone.
    expect((await t.app.inject({ url: `/core/memorial/${w.id}` })).statusCode).toBe(200);
    const wall = await post('/core/memories/query-memorial', undefined, { memorialId: w.id, limit: 10 });
    expect(wall.json().items.map((m: { id: string }) => m.id)).toContain(before.json().id);
    const candle = await post(`/core/candles/${w.id}`, undefined, { name: 'Een bezoeker', kind: 'candle' });
    expect(candle.statusCode).toBe(201);

    // A Basis year that lapsed is the same.
    await setPlan(w.id, `plan = 'basis', paid_until = now() - interval '1 day'`);
    expect((await concept(w.owner, w.id)).json().code).toBe('PLAN_READ_ONLY');
    await setPlan(w.id, `paid_until = now() + interval '1 day'`);
    expect((await concept(w.owner, w.id)).statusCode).toBe(201);
  });
});

describe('reminder mails', () => {
  it('7 days and 1 day before the end, and when the page becomes read-only: each once, with a link to pay', async () => {
    const w = await freshMemorial('mail');
    const plans = planService(t.app.deps);
    const mine = (m: { to: string[] }) => m.to.includes(w.owner.email);
    // Sweeps all pages; counts what it sent about this one (other tests' pages may be due as well).
    const sweep = async () => {
      await plans.sweep();
      const { rows } = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM memorial_plan_notices WHERE memorial_id = $1',
        [w.id],
      );
      return rows[0]!.n;
    };
    // 14-day trial; it started 8 days ago: 6 days left.
    await setPlan(w.id, `trial_started_at = now() - interval '8 days'`);
    expect(await sweep()).toBe(1);
    expect(await sweep()).toBe(1);
    await t.smtp.waitFor((m) => mine(m) && m.subject.startsWith('Over 7 dagen'));

    await setPlan(w.id, `trial_started_at = now() - interval '13 days 12 hours'`);
    expect(await sweep()).toBe(2);
    expect(await sweep()).toBe(2);
    const tomorrow = await t.smtp.waitFor((m) => mine(m) && m.subject.startsWith('Morgen'));
    expect(tomorrow.text).toContain(`${t.config.APP_URL}/page/payment/${w.id}`);

    await endTrial(w.id);
    expect(await sweep()).toBe(3);
    expect(await sweep()).toBe(3);
    const readOnly = await t.smtp.waitFor((m) => mine(m) && m.subject.includes('alleen te lezen'));
    expect(readOnly.text).toContain('blijft online');
    expect(readOnly.text).toContain(`/page/payment/${w.id}`);
    // eslint-disable-next-line no-restricted-syntax -- that no fourth mail follows
    await new Promise((r) => setTimeout(r, 300));
    expect(t.smtp.messages.filter(mine)).toHaveLength(3);

    // A new Basis year that ends gets its own reminders.
    await setPlan(w.id, `plan = 'basis', paid_until = now() + interval '3 days'`);
    expect(await sweep()).toBe(4);
    expect(await sweep()).toBe(4);
    // Premium never ends.
    await setPlan(w.id, `plan = 'premium', paid_until = NULL`);
    expect(await sweep()).toBe(4);
  });
});

describe('the team sets a plan by hand', () => {
  it('only the team; audited with the reason; a read-only page becomes writable', async () => {
    const w = await freshMemorial('team');
    await endTrial(w.id);
    const url = `/core/team/memorials/${w.id}/plan`;
    const body = { plan: 'premium', reason: 'Betaald per bankoverschrijving' };
    expect((await post(url, w.owner.headers, body)).statusCode).toBe(403);
    expect((await post(url, undefined, body)).statusCode).toBe(401);
    const team = (await issueUserToken(t, { email: 'team@aandenken.test', name: 'Team' })).token;
    const headers = { authorization: `Bearer ${team}` };
    expect((await post(url, headers, { plan: 'premium' })).statusCode).toBe(400);
    const res = await post(url, headers, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ plan: 'premium', state: 'active', endsAt: null });
    expect((await concept(w.owner, w.id)).statusCode).toBe(201);
    const { rows } = await t.db.query<{ action: string; details: Record<string, unknown> }>(
      `SELECT action, details FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'plan.set_by_team'`,
      [w.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.details).toMatchObject({
      from: 'trial',
      to: 'premium',
      reason: 'Betaald per bankoverschrijving',
    });
    const basis = await post(url, headers, { plan: 'basis', reason: 'Correctie' });
    expect(basis.json().plan).toBe('basis');
    expect(new Date(basis.json().endsAt).getTime()).toBeGreaterThan(Date.now() + 360 * DAY);
  });
});
