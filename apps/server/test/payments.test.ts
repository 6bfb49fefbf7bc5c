/**
 * Payments through Mollie (docs/plans.md), against a local stand-in speaking Mollie's v2 API
 * (support/mollie-standin.ts): creating a payment, the webhook's edge cases (unknown ids, replays,
 * out-of-order calls, paid after expiry), failures that leave the page as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, forgeSignature, type TestContext } from './helpers.ts';
import { memorial, member, person, type Person } from './fixtures/content.ts';
import { startMollieStandIn, type MollieStandIn } from './support/mollie-standin.ts';
import { LATIN_EXTENDED_NAMES, pdfText } from './fixtures/pdf-reader.ts';

let t: TestContext;
let mollie: MollieStandIn;
const DAY = 86_400_000;

beforeAll(async () => {
  mollie = await startMollieStandIn();
  t = await createTestApp({ MOLLIE_API_KEY: mollie.apiKey, MOLLIE_API_URL: mollie.url });
});
afterAll(async () => {
  await t?.close();
  await mollie?.close();
});

type Headers = Record<string, string> | undefined;
let ip = 0;
/** Each from its own address: paying is limited per address, and these tests pay often. */
const post = (url: string, headers: Headers, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers,
    payload: payload as object,
    remoteAddress: `10.44.${(++ip >> 8) & 255}.${ip & 255}`,
  });
const buyer = {
  buyerName: 'Jan Jansen',
  buyerAddress: 'Dorpsstraat 1',
  buyerPostalCode: '1234 AB',
  buyerCity: 'Utrecht',
};
/** Mollie's webhook: a form with only the payment's id. */
const webhook = (id: string | undefined) =>
  t.app.inject({
    method: 'POST',
    url: '/core/payments/webhook',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: id === undefined ? '' : new URLSearchParams({ id }).toString(),
  });
const planOf = async (id: string, who: Person) =>
  (await t.app.inject({ url: `/core/memorial/${id}/plan`, headers: who.headers })).json();

let n = 0;
async function page() {
  const tag = `p${++n}`;
  const owner = await person(t, `owner-${tag}@example.nl`, `Olga ${tag}`);
  const editor = await person(t, `editor-${tag}@example.nl`, `Eddy ${tag}`);
  const id = await memorial(t, owner, { visibility: 'private', firstName: `Betaal ${tag}` });
  await member(t, id, editor, 'editor');
  return { id, owner, editor };
}
async function pay(who: Person, memorialId: string, plan: 'basis' | 'premium', details = buyer) {
  const res = await post('/core/payments', who.headers, { memorialId, plan, ...details });
  expect(res.statusCode, res.body).toBe(201);
  const { paymentId, checkoutUrl } = res.json() as { paymentId: string; checkoutUrl: string };
  const { rows } = await t.db.query<{ mollie_id: string }>('SELECT mollie_id FROM payments WHERE id = $1', [
    paymentId,
  ]);
  return { paymentId, checkoutUrl, mollieId: rows[0]!.mollie_id };
}
const paymentStatus = async (paymentId: string) =>
  (await t.db.query<{ status: string }>('SELECT status FROM payments WHERE id = $1', [paymentId])).rows[0]!
    .status;
const grants = async (memorialId: string) =>
  (
    await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'plan.paid'`,
      [memorialId],
    )
  ).rows[0]!.n;

describe('creating a payment', () => {
  it('asks Mollie for the plan’s price, with our id in the metadata, the webhook and the way back', async () => {
    const p = await page();
    const { paymentId, checkoutUrl, mollieId } = await pay(p.editor, p.id, 'premium');
    expect(checkoutUrl).toBe(`${mollie.url}/checkout/${mollieId}`);
    const remote = mollie.payments.get(mollieId)!;
    expect(remote.amount).toEqual({ value: '199.00', currency: 'EUR' });
    expect(remote.metadata).toEqual({ paymentId, memorialId: p.id });
    expect(remote.webhookUrl).toBe(`${t.config.API_URL}/core/payments/webhook`);
    expect(remote.redirectUrl).toBe(`${t.config.APP_URL}/page/payment/${p.id}?betaling=${paymentId}`);
    expect(remote.description).toContain('Premium');
    const basis = await pay(p.owner, p.id, 'basis');
    expect(mollie.payments.get(basis.mollieId)!.amount.value).toBe('50.00');
    // The page is unchanged until Mollie says paid.
    expect((await planOf(p.id, p.owner)).plan).toBe('trial');
    expect((await planOf(p.id, p.owner)).payments).toHaveLength(2);
  });

  it('refuses a missing buyer address, and Premium twice', async () => {
    const p = await page();
    const bad = await post('/core/payments', p.owner.headers, {
      memorialId: p.id,
      plan: 'basis',
      buyerName: 'Jan',
    });
    expect(bad.statusCode).toBe(400);
    await t.db.query(`UPDATE memorial_plans SET plan = 'premium' WHERE memorial_id = $1`, [p.id]);
    const again = await post('/core/payments', p.owner.headers, {
      memorialId: p.id,
      plan: 'premium',
      ...buyer,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/Premium al/);
  });

  it('a page a partner pays for never gets a payment screen', async () => {
    const p = await page();
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO company_requests (company_name, first_name, last_name, postal_code, street_name, house_number,
                                     phone_number, email, company_type)
       VALUES ('Uitvaart BV', 'A', 'B', '1234 AB', 'Straat', '1', '0612345678', 'u@example.nl', 'FuneralDirector')
       RETURNING id::text AS id`,
    );
    await t.db.query(
      `INSERT INTO companies (id, slug, company_type, name, street_name, house_number, postal_code, phone_number, email)
       VALUES ($1, $2, 'FuneralDirector', 'Uitvaart BV', 'Straat', '1', '1234 AB', '0612345678', 'u@example.nl')`,
      [rows[0]!.id, `uitvaart-${rows[0]!.id.slice(0, 8)}`],
    );
    await t.db.query(`UPDATE memorial_plans SET payer_company_id = $2 WHERE memorial_id = $1`, [
      p.id,
      rows[0]!.id,
    ]);
    expect(await planOf(p.id, p.owner)).toMatchObject({ paidByCompany: true, canPay: false });
    const res = await post('/core/payments', p.owner.headers, {
      memorialId: p.id,
      plan: 'premium',
      ...buyer,
    });
    expect(res.statusCode).toBe(409);
  });
});

describe('the webhook', () => {
  it('paid: grants the plan once, however often Mollie calls (replays)', async () => {
    const p = await page();
    const { paymentId, mollieId } = await pay(p.owner, p.id, 'premium');
    mollie.setStatus(mollieId, 'paid');
    for (let i = 0; i < 3; i++) expect((await webhook(mollieId)).statusCode).toBe(200);
    await Promise.all([webhook(mollieId), webhook(mollieId)]);
    expect(await paymentStatus(paymentId)).toBe('paid');
    expect(await grants(p.id)).toBe(1);
    expect(await planOf(p.id, p.owner)).toMatchObject({ plan: 'premium', state: 'active', endsAt: null });
  });

  it('Basis: a year from now, extended once per payment, not per call', async () => {
    const p = await page();
    const first = await pay(p.owner, p.id, 'basis');
    mollie.setStatus(first.mollieId, 'paid');
    await webhook(first.mollieId);
    await webhook(first.mollieId);
    const plan = await planOf(p.id, p.owner);
    expect(plan.plan).toBe('basis');
    const ends = new Date(plan.endsAt).getTime();
    expect(ends).toBeGreaterThan(Date.now() + 364 * DAY);
    expect(ends).toBeLessThan(Date.now() + 367 * DAY);
    // A second year is added to the end of the first.
    const second = await pay(p.owner, p.id, 'basis');
    mollie.setStatus(second.mollieId, 'paid');
    await webhook(second.mollieId);
    await webhook(second.mollieId);
    expect(new Date((await planOf(p.id, p.owner)).endsAt).getTime()).toBeGreaterThan(Date.now() + 729 * DAY);
  });

  it('an unknown or malformed id is ignored without asking Mollie', async () => {
    const before = mollie.requests.length;
    for (const id of ['tr_onbekend123', 'geen-id', "tr_'; DROP TABLE payments;--", undefined]) {
      const res = await webhook(id);
      expect(res.statusCode).toBe(200);
    }
    expect((await post('/core/payments/webhook', undefined, { id: 'tr_json1' })).statusCode).toBe(200);
    expect(mollie.requests.length).toBe(before);
  });

  it('out of order: a late call that finds the payment open or expired never undoes paid', async () => {
    const p = await page();
    const { paymentId, mollieId } = await pay(p.owner, p.id, 'premium');
    mollie.setStatus(mollieId, 'paid');
    await webhook(mollieId);
    mollie.setStatus(mollieId, 'expired'); // as if Mollie's state were read from an older notification
    await webhook(mollieId);
    expect(await paymentStatus(paymentId)).toBe('paid');
    expect((await planOf(p.id, p.owner)).plan).toBe('premium');
  });

  it('failed, canceled or expired leave the page as it was; paid after expiry still counts', async () => {
    const p = await page();
    await t.db.query(
      `UPDATE memorial_plans SET trial_started_at = now() - interval '40 days' WHERE memorial_id = $1`,
      [p.id],
    );
    expect((await planOf(p.id, p.owner)).state).toBe('read_only');
    for (const status of ['failed', 'canceled'] as const) {
      const attempt = await pay(p.owner, p.id, 'premium');
      mollie.setStatus(attempt.mollieId, status);
      await webhook(attempt.mollieId);
      expect(await paymentStatus(attempt.paymentId)).toBe(status);
      expect(await planOf(p.id, p.owner)).toMatchObject({ plan: 'trial', state: 'read_only' });
    }
    const late = await pay(p.owner, p.id, 'premium');
    mollie.setStatus(late.mollieId, 'expired');
    await webhook(late.mollieId);
    expect(await paymentStatus(late.paymentId)).toBe('expired');
    expect((await planOf(p.id, p.owner)).state).toBe('read_only');
    mollie.setStatus(late.mollieId, 'paid');
    await webhook(late.mollieId);
    expect(await paymentStatus(late.paymentId)).toBe('paid');
    expect(await planOf(p.id, p.owner)).toMatchObject({ plan: 'premium', state: 'active' });
    // Writable again.
    const concept = await post('/core/memories/concept', p.owner.headers, {
      memorialId: p.id,
      yearLabel: '2001',
      text: 'Weer open.',
    });
    expect(concept.statusCode).toBe(201);
  });

  it('a payment whose amount at Mollie is not ours is not taken', async () => {
    const p = await page();
    const { paymentId, mollieId } = await pay(p.owner, p.id, 'premium');
    mollie.payments.get(mollieId)!.amount = { value: '0.01', currency: 'EUR' };
    mollie.setStatus(mollieId, 'paid');
    await webhook(mollieId);
    expect(await paymentStatus(paymentId)).toBe('open');
    expect((await planOf(p.id, p.owner)).plan).toBe('trial');
  });
});

describe('the result screen', () => {
  it('asks Mollie while the payment is open, so the result shows even before the webhook came', async () => {
    const p = await page();
    const { paymentId, mollieId } = await pay(p.owner, p.id, 'premium');
    const open = await t.app.inject({ url: `/core/payments/${paymentId}`, headers: p.owner.headers });
    expect(open.json()).toMatchObject({ status: 'open', plan: 'premium', amountCents: 19900 });
    mollie.setStatus(mollieId, 'paid');
    const paid = await t.app.inject({ url: `/core/payments/${paymentId}`, headers: p.owner.headers });
    expect(paid.json().status).toBe('paid');
    expect((await planOf(p.id, p.owner)).plan).toBe('premium');
    const unknown = await t.app.inject({
      url: `/core/payments/${crypto.randomUUID()}`,
      headers: p.owner.headers,
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('when Mollie cannot be reached, or payments are off', () => {
  it('502 PAYMENT_PROVIDER_ERROR in Dutch, and the attempt is marked failed', async () => {
    const down = await createTestApp({ MOLLIE_API_KEY: 'test_x', MOLLIE_API_URL: 'http://127.0.0.1:9' });
    try {
      const owner = await person(down, 'owner-down@example.nl', 'Olga Down');
      const id = await memorial(down, owner, { visibility: 'private' });
      const res = await down.app.inject({
        method: 'POST',
        url: '/core/payments',
        headers: owner.headers,
        payload: { memorialId: id, plan: 'premium', ...buyer },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ code: 'PAYMENT_PROVIDER_ERROR' });
      expect(res.json().message).toMatch(/niets afgeschreven/);
      const { rows } = await down.db.query<{ status: string }>('SELECT status FROM payments');
      expect(rows.map((r) => r.status)).toEqual(['failed']);
    } finally {
      await down.close();
    }
  });

  it('without MOLLIE_API_KEY the plan says payments are off, and paying answers 409 PAYMENTS_DISABLED', async () => {
    const off = await createTestApp();
    try {
      const owner = await person(off, 'owner-off@example.nl', 'Olga Uit');
      const id = await memorial(off, owner, { visibility: 'private' });
      const plan = await off.app.inject({ url: `/core/memorial/${id}/plan`, headers: owner.headers });
      expect(plan.json()).toMatchObject({ paymentsEnabled: false, canPay: true });
      const res = await off.app.inject({
        method: 'POST',
        url: '/core/payments',
        headers: owner.headers,
        payload: { memorialId: id, plan: 'basis', ...buyer },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'PAYMENTS_DISABLED' });
      expect(res.json().message).toMatch(/Online betalen staat/);
    } finally {
      await off.close();
    }
  });
});

describe('invoices', () => {
  it('one per paid payment, in an unbroken sequence, 21% VAT, mailed with a signed link, downloadable', async () => {
    const p = await page();
    const premium = await pay(p.owner, p.id, 'premium');
    mollie.setStatus(premium.mollieId, 'paid');
    await Promise.all([webhook(premium.mollieId), webhook(premium.mollieId), webhook(premium.mollieId)]);
    const { rows } = await t.db.query<{
      id: string;
      number: number;
      amount_cents: number;
      vat_cents: number;
      buyer_name: string;
      description: string;
    }>(
      `SELECT id::text AS id, number, amount_cents, vat_cents, buyer_name, description FROM invoices WHERE payment_id = $1`,
      [premium.paymentId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount_cents: 19900, vat_cents: 3454, buyer_name: 'Jan Jansen' });
    expect(rows[0]!.description).toContain('Premium');

    // Every invoice of this database, numbered 1, 2, 3 … without a gap.
    const all = (
      await t.db.query<{ number: number }>('SELECT number FROM invoices ORDER BY number')
    ).rows.map((r) => r.number);
    expect(all).toEqual(all.map((_, i) => i + 1));
    const counter = await t.db.query<{ last_number: number }>('SELECT last_number FROM invoice_counter');
    expect(counter.rows[0]!.last_number).toBe(all.length);

    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(`owner-p${n}@example.nl`) && m.subject.startsWith('Je factuur AK-'),
    );
    expect(mail.text).toContain('waarvan € 34,54 btw');
    // Greeted by the name they gave for the invoice.
    expect(mail.text.split('\n')[0]).toBe('Beste Jan Jansen,');
    const link = /https?:\/\/\S+\/core\/invoices\/\S+/.exec(mail.text)![0];
    const url = link.replace(t.config.API_URL, '');
    const pdf = await t.app.inject({ url });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // A tampered or expired link: refused; signed in as an owner it works without one.
    expect((await t.app.inject({ url: forgeSignature(url) })).statusCode).toBe(401);
    const expired = url.replace(/exp=\d+/, 'exp=1000');
    expect((await t.app.inject({ url: expired })).statusCode).toBe(401);
    const bare = `/core/invoices/${rows[0]!.id}/pdf`;
    expect((await t.app.inject({ url: bare, headers: p.owner.headers })).statusCode).toBe(200);
    const stranger = await person(t, 'stranger-inv@example.nl', 'Vera Vreemd');
    expect((await t.app.inject({ url: bare, headers: stranger.headers })).statusCode).toBe(404);

    // The plan shows it with a link that works.
    const plan = await planOf(p.id, p.owner);
    const listed = plan.payments.find((x: { id: string }) => x.id === premium.paymentId);
    expect(listed.invoice.number).toMatch(/^AK-\d{6}$/);
    expect((await t.app.inject({ url: listed.invoice.url.replace(t.config.API_URL, '') })).statusCode).toBe(
      200,
    );
  });

  it('prints a buyer in Turkish, Polish or Vietnamese as written, emoji left out', async () => {
    const p = await page();
    const paid = await pay(p.owner, p.id, 'basis', {
      buyerName: LATIN_EXTENDED_NAMES,
      buyerAddress: 'Bloemstraat 🌷 1',
      buyerPostalCode: '1234 AB',
      buyerCity: 'Utrecht',
    });
    mollie.setStatus(paid.mollieId, 'paid');
    await webhook(paid.mollieId);
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id::text AS id FROM invoices WHERE payment_id = $1',
      [paid.paymentId],
    );
    const pdf = await t.app.inject({ url: `/core/invoices/${rows[0]!.id}/pdf`, headers: p.owner.headers });
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain(LATIN_EXTENDED_NAMES);
    expect(text).toMatch(/^Bloemstraat 1$/m);
    expect(text).toContain('€ 50,00');
    expect(text).not.toMatch(/[?\uFFFD]/);
  });

  it('a deleted account: the invoice keeps the buyer for the books, the payment forgets the mailed address', async () => {
    const p = await page();
    const premium = await pay(p.owner, p.id, 'premium');
    mollie.setStatus(premium.mollieId, 'paid');
    await webhook(premium.mollieId);
    const before = await t.db.query<{ buyer_email: string | null }>(
      'SELECT buyer_email FROM payments WHERE id = $1',
      [premium.paymentId],
    );
    expect(before.rows[0]!.buyer_email).toBe(`owner-p${n}@example.nl`);
    const gone = await post('/core/account/delete', p.owner.headers, {
      confirmation: `owner-p${n}@example.nl`,
    });
    expect(gone.statusCode, gone.body).toBe(200);
    const after = await t.db.query<{ buyer_email: string | null; buyer_name: string }>(
      `SELECT p.buyer_email, i.buyer_name FROM payments p JOIN invoices i ON i.payment_id = p.id WHERE p.id = $1`,
      [premium.paymentId],
    );
    expect(after.rows[0]).toEqual({ buyer_email: null, buyer_name: 'Jan Jansen' });
  });

  it('Basis: 50 euro with € 8,68 VAT; an unpaid payment has no invoice', async () => {
    const p = await page();
    const basis = await pay(p.owner, p.id, 'basis');
    const open = await pay(p.owner, p.id, 'premium');
    mollie.setStatus(basis.mollieId, 'paid');
    await webhook(basis.mollieId);
    const { rows } = await t.db.query<{ payment_id: string; vat_cents: number; description: string }>(
      `SELECT payment_id::text AS payment_id, vat_cents, description FROM invoices WHERE memorial_id = $1`,
      [p.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ payment_id: basis.paymentId, vat_cents: 868 });
    expect(rows[0]!.description).toMatch(/Basis.*tot \d+ \w+ \d{4}/);
    const res = await t.app.inject({ url: `/core/payments/${open.paymentId}`, headers: p.owner.headers });
    expect(res.json().invoice).toBeNull();
  });
});

describe('one open payment per page and plan', () => {
  const creates = () =>
    mollie.requests.filter((r) => r.method === 'POST' && r.path === '/v2/payments').length;

  it('clicks at once make one payment: one Mollie payment, the same checkout to all, one invoice once paid', async () => {
    const p = await page();
    const before = creates();
    const answers = await Promise.all(
      [p.owner, p.editor, p.owner, p.editor].map((who) =>
        post('/core/payments', who.headers, { memorialId: p.id, plan: 'premium', ...buyer }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    const ids = new Set(answers.map((r) => r.json().paymentId as string));
    const urls = new Set(answers.map((r) => r.json().checkoutUrl as string));
    expect([ids.size, urls.size]).toEqual([1, 1]);
    expect(creates() - before).toBe(1);
    const { rows } = await t.db.query<{ mollie_id: string }>(
      `SELECT mollie_id FROM payments WHERE memorial_id = $1`,
      [p.id],
    );
    expect(rows).toHaveLength(1);
    // A later click with a corrected address: the same payment, and the invoice names that buyer.
    const again = await pay(p.owner, p.id, 'premium');
    expect(again.paymentId).toBe([...ids][0]);
    const corrected = await post('/core/payments', p.owner.headers, {
      memorialId: p.id,
      plan: 'premium',
      ...buyer,
      buyerAddress: 'Dorpsstraat 3',
    });
    expect(corrected.json().paymentId).toBe(again.paymentId);
    expect(creates() - before).toBe(1);
    mollie.setStatus(again.mollieId, 'paid');
    await Promise.all([webhook(again.mollieId), webhook(again.mollieId), webhook(again.mollieId)]);
    const invoices = await t.db.query<{ buyer_address: string }>(
      'SELECT buyer_address FROM invoices WHERE memorial_id = $1',
      [p.id],
    );
    expect(invoices.rows).toEqual([{ buyer_address: 'Dorpsstraat 3' }]);
    expect(await grants(p.id)).toBe(1);
  });

  it('a payment being paid (pending at Mollie) is not made again: 409; once it failed, a new one', async () => {
    const p = await page();
    const first = await pay(p.owner, p.id, 'basis');
    mollie.setStatus(first.mollieId, 'pending');
    const underway = await post('/core/payments', p.owner.headers, {
      memorialId: p.id,
      plan: 'basis',
      ...buyer,
    });
    expect(underway.statusCode).toBe(409);
    expect(underway.json()).toMatchObject({
      code: 'PAYMENT_UNDERWAY',
      message: expect.stringMatching(/loopt al/),
    });
    mollie.setStatus(first.mollieId, 'failed');
    const second = await pay(p.owner, p.id, 'basis');
    expect(second.paymentId).not.toBe(first.paymentId);
    expect(await paymentStatus(first.paymentId)).toBe('failed');
  });

  it('a payment left unstarted by a request that died is closed after a while, and a new one made', async () => {
    const p = await page();
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO payments (memorial_id, plan, amount_cents, buyer_name, buyer_address, buyer_postal_code,
                             buyer_city, created_at)
       VALUES ($1, 'premium', 19900, 'Jan', 'Dorpsstraat 1', '1234 AB', 'Utrecht', now() - interval '1 minute')
       RETURNING id::text AS id`,
      [p.id],
    );
    const fresh = await pay(p.owner, p.id, 'premium');
    expect(fresh.paymentId).not.toBe(rows[0]!.id);
    expect(await paymentStatus(rows[0]!.id)).toBe('failed');
  });
});

describe('a refund by the team', () => {
  it('through Mollie, once, with a credit invoice (the next number, negative amounts), the plan taken back', async () => {
    const p = await page();
    const { paymentId, mollieId } = await pay(p.owner, p.id, 'premium');
    mollie.setStatus(mollieId, 'paid');
    await webhook(mollieId);
    const url = `/core/team/payments/${paymentId}/refund`;
    expect((await post(url, p.owner.headers, { reason: 'Niet tevreden' })).statusCode).toBe(403);
    const team = await person(t, 'team@aandenken.test', 'Team');
    expect((await post(url, team.headers, {})).statusCode).toBe(400);
    const res = await post(url, team.headers, { reason: 'Niet tevreden' });
    expect(res.statusCode, res.body).toBe(200);
    expect(mollie.refunds.filter((r) => r.paymentId === mollieId)).toEqual([
      expect.objectContaining({ amount: { value: '199.00', currency: 'EUR' } }),
    ]);
    const again = await post(url, team.headers, { reason: 'Nog eens' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('PAYMENT_NOT_REFUNDABLE');
    expect(mollie.refunds.filter((r) => r.paymentId === mollieId)).toHaveLength(1);

    const { rows } = await t.db.query<{
      kind: string;
      number: number;
      amount_cents: number;
      vat_cents: number;
    }>('SELECT kind, number, amount_cents, vat_cents FROM invoices WHERE payment_id = $1 ORDER BY number', [
      paymentId,
    ]);
    expect(rows.map((r) => [r.kind, r.amount_cents, r.vat_cents])).toEqual([
      ['invoice', 19900, 3454],
      ['credit', -19900, -3454],
    ]);
    const max = (await t.db.query<{ n: number }>('SELECT max(number)::int AS n FROM invoices')).rows[0]!.n;
    expect(rows[1]!.number).toBe(max);
    await t.smtp.waitFor(
      (m) => m.subject.startsWith('Je creditfactuur AK-') && m.text.includes('€ 199,00 teruggestort'),
    );
    // Premium is taken back: the page is on its trial again; a late webhook does not grant it anew.
    expect((await planOf(p.id, p.owner)).plan).toBe('trial');
    await webhook(mollieId);
    expect((await planOf(p.id, p.owner)).plan).toBe('trial');
    const { rows: audit } = await t.db.query(
      `SELECT 1 FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'plan.refunded'`,
      [p.id],
    );
    expect(audit).toHaveLength(1);
    // The credit invoice's PDF.
    const credit = (await planOf(p.id, p.owner)).payments.find((x: { id: string }) => x.id === paymentId);
    expect(credit.invoice).not.toBeNull();
    expect(credit.refundedAt).not.toBeNull();
    expect(credit.creditInvoice.number).toMatch(/^AK-\d{6}$/);
    const pdf = await t.app.inject({ url: credit.creditInvoice.url.replace(t.config.API_URL, '') });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('five refunds at once: one reaches Mollie, one credit invoice; the others answer 409', async () => {
    const p = await page();
    const { paymentId, mollieId } = await pay(p.owner, p.id, 'premium');
    mollie.setStatus(mollieId, 'paid');
    await webhook(mollieId);
    const team = await person(t, 'team@aandenken.test', 'Team');
    const url = `/core/team/payments/${paymentId}/refund`;
    const refundCalls = () =>
      mollie.requests.filter((r) => r.method === 'POST' && r.path === `/v2/payments/${mollieId}/refunds`)
        .length;
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => post(url, team.headers, { reason: `Dubbel betaald ${i}` })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const r of answers.filter((a) => a.statusCode === 409))
      expect(r.json()).toMatchObject({
        code: 'PAYMENT_NOT_REFUNDABLE',
        message: expect.stringMatching(/terug/),
      });
    expect(refundCalls()).toBe(1);
    const { rows } = await t.db.query<{ kind: string }>(
      'SELECT kind FROM invoices WHERE payment_id = $1 ORDER BY number',
      [paymentId],
    );
    expect(rows.map((r) => r.kind)).toEqual(['invoice', 'credit']);
    // After it, too: refused without asking Mollie.
    const later = await post(url, team.headers, { reason: 'Nog eens' });
    expect(later.statusCode).toBe(409);
    expect(refundCalls()).toBe(1);
  });

  it('a refund Mollie refused can be tried again; it then refunds once', async () => {
    const p = await page();
    const { paymentId, mollieId } = await pay(p.owner, p.id, 'basis');
    mollie.setStatus(mollieId, 'paid');
    await webhook(mollieId);
    const team = await person(t, 'team@aandenken.test', 'Team');
    const url = `/core/team/payments/${paymentId}/refund`;
    // The stand-in refuses a refund of a payment it does not hold as paid.
    mollie.payments.get(mollieId)!.status = 'failed';
    const refused = await post(url, team.headers, { reason: 'Dubbel betaald' });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().code).toBe('PAYMENT_PROVIDER_ERROR');
    mollie.payments.get(mollieId)!.status = 'paid';
    const res = await post(url, team.headers, { reason: 'Dubbel betaald' });
    expect(res.statusCode, res.body).toBe(200);
    expect(mollie.refunds.filter((r) => r.paymentId === mollieId)).toHaveLength(1);
  });
});
