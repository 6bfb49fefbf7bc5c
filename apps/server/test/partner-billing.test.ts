/**
 * Partners pay through Mollie (docs/plans.md "Partners"): the partnership (a year) and what the
 * company owes for the pages it made for families, each with an invoice to the company; who may see and
 * pay; the team's look-up of a page's plan and its refund of a company's payment. Against the local Mollie
 * stand-in (support/mollie-standin.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { createCompany } from './memorial-fixtures.ts';
import { startMollieStandIn, type MollieStandIn } from './support/mollie-standin.ts';

let t: TestContext;
let mollie: MollieStandIn;
let team: string;
beforeAll(async () => {
  mollie = await startMollieStandIn();
  t = await createTestApp({ MOLLIE_API_KEY: mollie.apiKey, MOLLIE_API_URL: mollie.url });
  team = (await issueUserToken(t, { email: 'team@aandenken.test', name: 'Team' })).token;
});
afterAll(async () => {
  await t?.close();
  await mollie?.close();
});

const bearer = (token?: string | null) => (token ? { authorization: `Bearer ${token}` } : {});
const uid = () => crypto.randomUUID().slice(0, 8);
const call = (method: 'GET' | 'POST', url: string, token?: string | null, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload } : {}) });
const webhook = (id: string) =>
  t.app.inject({
    method: 'POST',
    url: '/core/payments/webhook',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ id }).toString(),
  });

/** An approved company (Lindelaan 12, 3511 AB) with its first user, an administrator. */
const company = (name?: string) => createCompany(t, { name });
async function colleague(companyId: string, adminToken: string) {
  const email = `collega-${uid()}@linde.nl`;
  expect(
    (await call('POST', `/core/companies/${companyId}/invitations`, adminToken, { email })).statusCode,
  ).toBe(201);
  const u = await issueUserToken(t, { email, name: 'Bram Bos' });
  await call('GET', '/core/account/roles', u.token);
  return u;
}
async function createPage(companyId: string, token: string, lastName: string) {
  const res = await call('POST', `/core/companies/${companyId}/pages`, token, {
    firstName: 'Johanna',
    lastName,
    familyEmail: `familie-${uid()}@example.nl`,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().memorialId as string;
}
async function startPayment(companyId: string, token: string, purpose: string) {
  const res = await call('POST', `/core/companies/${companyId}/payments`, token, { purpose });
  expect(res.statusCode, res.body).toBe(201);
  const { paymentId, checkoutUrl } = res.json() as { paymentId: string; checkoutUrl: string };
  const { rows } = await t.db.query<{ mollie_id: string }>('SELECT mollie_id FROM payments WHERE id = $1', [
    paymentId,
  ]);
  return { paymentId, checkoutUrl, mollieId: rows[0]!.mollie_id };
}
const billing = async (companyId: string, token: string) => {
  const res = await call('GET', `/core/companies/${companyId}/billing`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const invoicesOf = async (paymentId: string) =>
  (
    await t.db.query<{
      id: string;
      kind: string;
      amount_cents: number;
      vat_cents: number;
      buyer_name: string;
      buyer_address: string;
      buyer_postal_code: string;
      description: string;
      lines: { description: string; amountCents: number }[] | null;
    }>(
      `SELECT id::text AS id, kind, amount_cents, vat_cents, buyer_name, buyer_address, buyer_postal_code,
              description, lines FROM invoices WHERE payment_id = $1 ORDER BY number`,
      [paymentId],
    )
  ).rows;
const companyAudit = async (id: string) =>
  (
    await t.db.query<{ action: string }>(
      'SELECT action FROM company_audit_log WHERE company_id = $1 ORDER BY seq',
      [id],
    )
  ).rows.map((r) => r.action);

describe('the partnership', () => {
  it('only the company’s users see its payments; only its administrators pay', async () => {
    const c = await company();
    const other = await company();
    const mate = await colleague(c.id, c.admin.token);
    const url = `/core/companies/${c.id}/billing`;
    expect((await call('GET', url)).statusCode).toBe(401);
    expect((await call('GET', url, other.admin.token)).statusCode).toBe(404);
    expect((await call('GET', '/core/companies/nope/billing', c.admin.token)).statusCode).toBe(404);
    const seen = await billing(c.id, mate.token);
    expect(seen).toMatchObject({
      canPay: false,
      partnership: { priceCents: 29900, paidUntil: null, state: 'unpaid' },
      owed: { pages: [], totalCents: 0 },
      payments: [],
    });
    const pay = `/core/companies/${c.id}/payments`;
    expect((await call('POST', pay, null, { purpose: 'partnership' })).statusCode).toBe(401);
    const refused = await call('POST', pay, mate.token, { purpose: 'partnership' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/beheerder/);
    expect((await call('POST', pay, other.admin.token, { purpose: 'partnership' })).statusCode).toBe(404);
    expect((await call('POST', pay, c.admin.token, { purpose: 'everything' })).statusCode).toBe(400);
    // Nothing was asked of Mollie by any of these.
    expect((await billing(c.id, c.admin.token)).payments).toEqual([]);
  });

  it('paid at Mollie: a year of partnership, an invoice to the company (21% VAT), mailed and downloadable', async () => {
    const c = await company();
    const { paymentId, checkoutUrl, mollieId } = await startPayment(c.id, c.admin.token, 'partnership');
    expect(checkoutUrl).toBe(`${mollie.url}/checkout/${mollieId}`);
    const remote = mollie.payments.get(mollieId)!;
    expect(remote.amount).toEqual({ value: '299.00', currency: 'EUR' });
    expect(remote.metadata).toEqual({ paymentId, companyId: c.id });
    expect(remote.redirectUrl).toBe(
      `${t.config.APP_URL}/partner?bedrijf=${c.id}&tab=betalingen&betaling=${paymentId}`,
    );
    // Asked again while it is open: the same payment, not a second one.
    expect((await startPayment(c.id, c.admin.token, 'partnership')).paymentId).toBe(paymentId);
    expect((await billing(c.id, c.admin.token)).partnership.state).toBe('unpaid');

    mollie.setStatus(mollieId, 'paid');
    expect((await webhook(mollieId)).statusCode).toBe(200);
    await webhook(mollieId); // a replay grants nothing again
    const after = await billing(c.id, c.admin.token);
    expect(after.partnership.state).toBe('paid');
    const until = new Date(after.partnership.paidUntil).getTime();
    expect(until - Date.now()).toBeGreaterThan(360 * 86_400_000);
    expect(until - Date.now()).toBeLessThan(367 * 86_400_000);
    expect(after.payments).toEqual([
      expect.objectContaining({ id: paymentId, plan: 'partnership', status: 'paid', amountCents: 29900 }),
    ]);
    const [inv, ...more] = await invoicesOf(paymentId);
    expect(more).toEqual([]);
    expect(inv).toMatchObject({
      kind: 'invoice',
      amount_cents: 29900,
      vat_cents: 5189,
      buyer_name: c.name,
      buyer_address: 'Lindelaan 12',
      buyer_postal_code: '3511 AB',
    });
    expect(inv!.description).toMatch(/^Aandenken partnerschap .*, een jaar \(tot /);
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(c.admin.email) && m.subject.startsWith('Je factuur AK-'),
      20_000,
    );
    expect(mail.text).toContain('€ 299,00 (waarvan € 51,89 btw)');
    // The person who paid is greeted by their account's name.
    expect(mail.text.startsWith('Beste Anna de Vries,')).toBe(true);
    // The PDF: with the portal's signed link, or signed in as a user of the company; not for others.
    const link = after.payments[0].invoice.url.replace(t.config.API_URL, '');
    const pdf = await t.app.inject({ url: link });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await call('GET', `/core/invoices/${inv!.id}/pdf`, c.admin.token)).statusCode).toBe(200);
    const other = await company();
    expect((await call('GET', `/core/invoices/${inv!.id}/pdf`, other.admin.token)).statusCode).toBe(404);
    expect((await call('GET', `/core/invoices/${inv!.id}/pdf`)).statusCode).toBe(401);
    expect(await companyAudit(c.id)).toEqual(
      expect.arrayContaining(['billing.payment_started', 'billing.partnership_paid']),
    );
    expect((await companyAudit(c.id)).filter((a) => a === 'billing.partnership_paid')).toHaveLength(1);
  });
});

describe('the pages a company pays for', () => {
  it('settles the open amount: an invoice listing the pages; paid pages are no longer owed; refund undoes it', async () => {
    const c = await company();
    const a = await createPage(c.id, c.admin.token, `Aalders ${uid()}`);
    const b = await createPage(c.id, c.admin.token, `Bakker ${uid()}`);
    const before = await billing(c.id, c.admin.token);
    expect(before.owed.totalCents).toBe(39800);
    expect(before.owed.pages.map((p: { memorialId: string }) => p.memorialId).sort()).toEqual([a, b].sort());

    const { paymentId, mollieId } = await startPayment(c.id, c.admin.token, 'company_pages');
    expect(mollie.payments.get(mollieId)!.amount.value).toBe('398.00');
    // A page made while the payment is open waits for the next one.
    const late = await createPage(c.id, c.admin.token, `Claes ${uid()}`);
    mollie.setStatus(mollieId, 'failed');
    await webhook(mollieId);
    expect((await billing(c.id, c.admin.token)).owed.totalCents).toBe(59700);
    // Failed: a new payment for all three.
    const second = await startPayment(c.id, c.admin.token, 'company_pages');
    expect(second.paymentId).not.toBe(paymentId);
    expect(mollie.payments.get(second.mollieId)!.amount.value).toBe('597.00');
    mollie.setStatus(second.mollieId, 'paid');
    await webhook(second.mollieId);

    const after = await billing(c.id, c.admin.token);
    expect(after.owed).toEqual({ pages: [], totalCents: 0 });
    const listed = (await call('GET', `/core/companies/${c.id}/pages`, c.admin.token)).json().items;
    expect(listed.map((p: { settledByCompany: boolean }) => p.settledByCompany)).toEqual([true, true, true]);
    const [inv] = await invoicesOf(second.paymentId);
    expect(inv).toMatchObject({ kind: 'invoice', amount_cents: 59700, buyer_name: c.name });
    expect(inv!.description).toMatch(/Premium voor 3 pagina’s voor families/);
    expect(inv!.lines).toHaveLength(3);
    expect(
      inv!.lines!.every((l) => l.amountCents === 19900 && /^Premium, gedenkpagina /.test(l.description)),
    ).toBe(true);
    expect(inv!.lines!.map((l) => l.description).join()).toContain('Claes');
    // Nothing left to pay.
    const nothing = await call('POST', `/core/companies/${c.id}/payments`, c.admin.token, {
      purpose: 'company_pages',
    });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().message).toMatch(/niets open/);
    // The families' pages are untouched by any of this: Premium, paid by the company.
    const plans = await t.db.query<{ plan: string }>(
      'SELECT plan FROM memorial_plans WHERE memorial_id = ANY($1::uuid[])',
      [[a, b, late]],
    );
    expect(plans.rows.map((r) => r.plan)).toEqual(['premium', 'premium', 'premium']);

    // The team refunds it: the pages are owed again, a credit invoice with the same lines, negative.
    const url = `/core/team/payments/${second.paymentId}/refund`;
    expect((await call('POST', url, c.admin.token, { reason: 'Dubbel betaald' })).statusCode).toBe(403);
    const refund = await call('POST', url, team, { reason: 'Dubbel betaald' });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json()).toMatchObject({ plan: 'company_pages', refundedAt: expect.any(String) });
    expect((await billing(c.id, c.admin.token)).owed.totalCents).toBe(59700);
    const credit = (await invoicesOf(second.paymentId))[1]!;
    expect(credit).toMatchObject({ kind: 'credit', amount_cents: -59700, vat_cents: -10361 });
    expect(credit.lines!.every((l) => l.amountCents === -19900)).toBe(true);
    const creditMail = await t.smtp.waitFor(
      (m) => m.to.includes(c.admin.email) && m.subject.startsWith('Je creditfactuur'),
    );
    expect(creditMail.text.startsWith('Beste Anna de Vries,')).toBe(true);
    expect(await companyAudit(c.id)).toEqual(
      expect.arrayContaining(['billing.pages_paid', 'billing.refunded']),
    );
  });
});

describe('one open payment per company and purpose', () => {
  it('three clicks at once on ‘betalen’: one Mollie payment, the same checkout to all, one invoice once paid', async () => {
    const c = await company();
    await createPage(c.id, c.admin.token, `Aalders ${uid()}`);
    await createPage(c.id, c.admin.token, `Bakker ${uid()}`);
    const creates = () =>
      mollie.requests.filter((r) => r.method === 'POST' && r.path === '/v2/payments').length;
    const before = creates();
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        call('POST', `/core/companies/${c.id}/payments`, c.admin.token, { purpose: 'company_pages' }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((r) => r.json().paymentId)).size).toBe(1);
    expect(new Set(answers.map((r) => r.json().checkoutUrl)).size).toBe(1);
    expect(creates() - before).toBe(1);
    // The partnership is another purpose: its own payment beside it.
    const partnership = await startPayment(c.id, c.admin.token, 'partnership');
    expect(partnership.paymentId).not.toBe(answers[0]!.json().paymentId);

    const { paymentId } = answers[0]!.json() as { paymentId: string };
    const { rows } = await t.db.query<{ mollie_id: string }>('SELECT mollie_id FROM payments WHERE id = $1', [
      paymentId,
    ]);
    mollie.setStatus(rows[0]!.mollie_id, 'paid');
    await Promise.all([webhook(rows[0]!.mollie_id), webhook(rows[0]!.mollie_id)]);
    const after = await billing(c.id, c.admin.token);
    expect(after.owed.totalCents).toBe(0);
    expect(after.payments.filter((p: { plan: string }) => p.plan === 'company_pages')).toEqual([
      expect.objectContaining({ id: paymentId, status: 'paid', amountCents: 39800 }),
    ]);
    expect((await invoicesOf(paymentId)).map((i) => i.kind)).toEqual(['invoice']);
    const { rows: all } = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM invoices i JOIN payments p ON p.id = i.payment_id WHERE p.company_id = $1`,
      [c.id],
    );
    expect(all[0]!.n).toBe(1);
  });
});

describe('the team’s look at a page’s plan', () => {
  it('finds a page by name or number, shows its plan and payments; team only', async () => {
    const c = await company();
    const last = `Zoekbaar ${uid()}`;
    const id = await createPage(c.id, c.admin.token, last);
    expect((await call('GET', `/core/team/memorials?q=${encodeURIComponent(last)}`)).statusCode).toBe(401);
    expect(
      (await call('GET', `/core/team/memorials?q=${encodeURIComponent(last)}`, c.admin.token)).statusCode,
    ).toBe(403);
    expect((await call('GET', '/core/team/memorials?q=', team)).statusCode).toBe(400);
    const found = await call('GET', `/core/team/memorials?q=${encodeURIComponent(last.toLowerCase())}`, team);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().items).toEqual([
      { id, name: `Johanna ${last}`, status: 'concept', plan: 'premium', paidByCompany: true },
    ]);
    const byAddress = await call(
      'GET',
      `/core/team/memorials?q=${encodeURIComponent(`https://aandenken.nl/memorial/${id}`)}`,
      team,
    );
    expect(byAddress.json().items.map((i: { id: string }) => i.id)).toEqual([id]);
    // '%' is a character, not a wildcard.
    expect((await call('GET', '/core/team/memorials?q=%25%25', team)).json().items).toEqual([]);

    const plan = await call('GET', `/core/team/memorials/${id}/plan`, team);
    expect(plan.statusCode, plan.body).toBe(200);
    expect(plan.json()).toMatchObject({
      memorialName: `Johanna ${last}`,
      plan: 'premium',
      paidByCompany: true,
      trialStartedAt: expect.any(String),
      payments: [],
    });
    expect((await call('GET', `/core/team/memorials/${id}/plan`, c.admin.token)).statusCode).toBe(403);
    expect((await call('GET', `/core/team/memorials/${crypto.randomUUID()}/plan`, team)).statusCode).toBe(
      404,
    );
    expect((await call('GET', '/core/team/memorials/nope/plan', team)).statusCode).toBe(404);
    // Set by hand, with the reason in the page's log; the answer is the team's view.
    const set = await call('POST', `/core/team/memorials/${id}/plan`, team, {
      plan: 'basis',
      reason: 'Proef van het team',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ plan: 'basis', memorialName: `Johanna ${last}` });
  });
});
