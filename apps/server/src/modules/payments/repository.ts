import type { Queryable } from '../../db/client.ts';
import type { InvoiceLine } from './invoice-repository.ts';

export type PaymentPlan = 'basis' | 'premium' | 'partnership' | 'company_pages';

export type PaymentRow = {
  id: string;
  memorial_id: string | null;
  /** A company's payment (its partnership or its pages); null for a page's plan. */
  company_id: string | null;
  plan: PaymentPlan;
  amount_cents: number;
  status: string;
  mollie_id: string | null;
  checkout_url: string | null;
  created_at: Date | string;
  paid_at: Date | string | null;
  applied_at: Date | string | null;
  buyer_email: string | null;
  refunded_at: Date | string | null;
  /** A refund by the team claimed the payment at this moment (it then asks Mollie). */
  refund_started_at: Date | string | null;
};

/** What Mollie has not decided yet: at most one such payment per company and purpose, or page and plan. */
export const OPEN_STATUSES = ['open', 'pending', 'authorized'] as const;
const openSql = `status IN ('open', 'pending', 'authorized')`;

/** A payment that was never handed to Mollie after this long was left by a request that died. */
const UNSTARTED_AFTER = `interval '30 seconds'`;
/** A refund claimed this long ago without an answer was left by a request that died; it may be tried again. */
const REFUND_CLAIM_LAPSES = `interval '5 minutes'`;

const columns = `id::text AS id, memorial_id::text AS memorial_id, company_id::text AS company_id, plan, amount_cents, status, mollie_id,
  checkout_url, created_at, paid_at, applied_at, buyer_email, refunded_at, refund_started_at`;

export function paymentsRepository(db: Queryable) {
  return {
    async insert(
      q: Queryable,
      p: {
        memorialId: string | null;
        companyId?: string | null;
        plan: PaymentPlan;
        amountCents: number;
        createdBy: string;
        buyerEmail: string | null;
        buyerName: string;
        buyerAddress: string;
        buyerPostalCode: string;
        buyerCity: string;
      },
    ): Promise<string | null> {
      // Null: an open payment for the same company and purpose, or page and plan, exists (the unique
      // indexes of migration 129); one being inserted at this moment is waited for.
      const { rows } = await q.query<{ id: string }>(
        `INSERT INTO payments (memorial_id, plan, amount_cents, created_by, buyer_email, buyer_name, buyer_address,
                               buyer_postal_code, buyer_city, company_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT DO NOTHING RETURNING id::text AS id`,
        [
          p.memorialId,
          p.plan,
          p.amountCents,
          p.createdBy,
          p.buyerEmail,
          p.buyerName,
          p.buyerAddress,
          p.buyerPostalCode,
          p.buyerCity,
          p.companyId ?? null,
        ],
      );
      return rows[0]?.id ?? null;
    },

    /** The open payment of a company for a purpose, or of a page for a plan. */
    async findOpen(o: { companyId: string } | { memorialId: string }, plan: PaymentPlan) {
      const { rows } = await db.query<PaymentRow>(
        'companyId' in o
          ? `SELECT ${columns} FROM payments WHERE company_id = $1 AND plan = $2 AND ${openSql}`
          : `SELECT ${columns} FROM payments WHERE memorial_id = $1 AND company_id IS NULL AND plan = $2 AND ${openSql}`,
        ['companyId' in o ? o.companyId : o.memorialId, plan],
      );
      return rows[0];
    },

    /**
     * The name of the signed-in person who started a payment (a company's user), for the invoice mail's
     * greeting; null when they are gone or left no name.
     */
    async payerName(q: Queryable, id: string): Promise<string | null> {
      const { rows } = await q.query<{ name: string | null }>(
        `SELECT u.name FROM payments p JOIN users u ON u.id = p.created_by AND u.deleted_at IS NULL WHERE p.id = $1`,
        [id],
      );
      return rows[0]?.name ?? null;
    },

    /** Closes an open payment that never reached Mollie (its request died); true when it did. */
    async abandonUnstarted(id: string): Promise<boolean> {
      const { rowCount } = await db.query(
        `UPDATE payments SET status = 'failed', updated_at = now()
          WHERE id = $1 AND status = 'open' AND mollie_id IS NULL AND created_at < now() - ${UNSTARTED_AFTER}`,
        [id],
      );
      return rowCount > 0;
    },

    /** Whoever asks for the open payment again is the buyer the invoice names. */
    async updateBuyer(
      id: string,
      b: {
        buyerEmail: string | null;
        buyerName: string;
        buyerAddress: string;
        buyerPostalCode: string;
        buyerCity: string;
      },
    ) {
      await db.query(
        `UPDATE payments SET buyer_email = $2, buyer_name = $3, buyer_address = $4, buyer_postal_code = $5,
                buyer_city = $6, updated_at = now()
          WHERE id = $1 AND applied_at IS NULL AND ${openSql}`,
        [id, b.buyerEmail, b.buyerName, b.buyerAddress, b.buyerPostalCode, b.buyerCity],
      );
    },

    /**
     * Claims a paid payment for a refund, in one statement: of refunds at once, one gets the row; the others,
     * and any later one, get nothing. A claim that lapsed (its request died) may be taken again.
     */
    async claimRefund(id: string): Promise<PaymentRow | undefined> {
      const { rows } = await db.query<PaymentRow>(
        `UPDATE payments SET refund_started_at = now(), updated_at = now()
          WHERE id = $1 AND status = 'paid' AND refunded_at IS NULL AND mollie_id IS NOT NULL
            AND (refund_started_at IS NULL OR refund_started_at < now() - ${REFUND_CLAIM_LAPSES})
          RETURNING ${columns}`,
        [id],
      );
      return rows[0];
    },

    /** Gives a claim back when Mollie did not refund, so the team can try again. */
    async releaseRefund(id: string) {
      await db.query(
        `UPDATE payments SET refund_started_at = NULL, updated_at = now() WHERE id = $1 AND refunded_at IS NULL`,
        [id],
      );
    },

    async attachMollie(id: string, mollieId: string, checkoutUrl: string | null) {
      await db.query(
        `UPDATE payments SET mollie_id = $2, checkout_url = $3, updated_at = now() WHERE id = $1`,
        [id, mollieId, checkoutUrl],
      );
    },

    async markFailedToStart(id: string) {
      await db.query(`UPDATE payments SET status = 'failed', updated_at = now() WHERE id = $1`, [id]);
    },

    async findById(id: string): Promise<PaymentRow | undefined> {
      const { rows } = await db.query<PaymentRow>(`SELECT ${columns} FROM payments WHERE id = $1`, [id]);
      return rows[0];
    },

    /** A company's payments, the newest first. */
    async ofCompany(companyId: string): Promise<PaymentRow[]> {
      const { rows } = await db.query<PaymentRow>(
        `SELECT ${columns} FROM payments WHERE company_id = $1 ORDER BY created_at DESC, id LIMIT 50`,
        [companyId],
      );
      return rows;
    },

    async findByMollieId(mollieId: string): Promise<PaymentRow | undefined> {
      const { rows } = await db.query<PaymentRow>(`SELECT ${columns} FROM payments WHERE mollie_id = $1`, [
        mollieId,
      ]);
      return rows[0];
    },

    async lock(q: Queryable, id: string): Promise<PaymentRow | undefined> {
      const { rows } = await q.query<PaymentRow>(`SELECT ${columns} FROM payments WHERE id = $1 FOR UPDATE`, [
        id,
      ]);
      return rows[0];
    },

    async setStatus(q: Queryable, id: string, status: string, paidAt: Date | null, applied: boolean) {
      await q.query(
        `UPDATE payments SET status = $2, paid_at = coalesce(paid_at, $3), updated_at = now(),
                applied_at = CASE WHEN $4::boolean THEN coalesce(applied_at, now()) ELSE applied_at END
          WHERE id = $1`,
        [id, status, paidAt, applied],
      );
    },

    async markRefunded(q: Queryable, id: string, refundId: string) {
      await q.query(
        `UPDATE payments SET refunded_at = now(), refund_mollie_id = $2, updated_at = now() WHERE id = $1`,
        [id, refundId],
      );
    },

    async memorialName(memorialId: string): Promise<string | undefined> {
      const { rows } = await db.query<{ name: string }>(
        `SELECT first_name || ' ' || last_name AS name FROM memorials WHERE id = $1`,
        [memorialId],
      );
      return rows[0]?.name;
    },
  };
}

/**
 * A payment keeps the buyer's name and address for the books (docs/privacy.md), not the address its invoice
 * was mailed to.
 */
export async function forgetBuyerEmail(q: Queryable, userId: string, email: string) {
  await q.query('UPDATE payments SET buyer_email = NULL WHERE created_by = $1 OR lower(buyer_email) = $2', [
    userId,
    email,
  ]);
}

/** What a company's payments read and change of the company, its pages and its log; each in `q`'s transaction. */
export const companyBilling = {
  /** A line in the company's log (company_audit_log, as the companies module writes it). */
  async audit(
    q: Queryable,
    companyId: string,
    userId: string | null,
    action: string,
    details: Record<string, unknown>,
  ) {
    await q.query(
      `INSERT INTO company_audit_log (company_id, actor_kind, actor_user_id, actor_name, action, details)
       VALUES ($1, $2, $3, (SELECT name FROM users WHERE id = $3), $4, $5)`,
      [companyId, userId ? 'user' : 'system', userId, action, JSON.stringify(details)],
    );
  },

  async name(q: Queryable, companyId: string): Promise<string | undefined> {
    const { rows } = await q.query<{ name: string }>('SELECT name FROM companies WHERE id = $1', [companyId]);
    return rows[0]?.name;
  },

  /** The company as the buyer on its invoice. */
  async buyer(q: Queryable, companyId: string) {
    const { rows } = await q.query<{
      name: string;
      street_name: string;
      house_number: string;
      postal_code: string;
      city: string | null;
      email: string;
    }>('SELECT name, street_name, house_number, postal_code, city, email FROM companies WHERE id = $1', [
      companyId,
    ]);
    return rows[0];
  },

  /** A user of the active company, with whether they administer it. */
  async user(q: Queryable, companyId: string, userId: string) {
    const { rows } = await q.query<{ is_admin: boolean }>(
      `SELECT u.is_admin FROM company_users u JOIN companies c ON c.id = u.company_id AND c.state = 'active'
        WHERE u.company_id = $1 AND u.user_id = $2`,
      [companyId, userId],
    );
    return rows[0];
  },

  /** Whether the payment is of an active company this user belongs to. */
  async paidByUsersCompany(q: Queryable, paymentId: string, userId: string): Promise<boolean> {
    const { rows } = await q.query(
      `SELECT 1 FROM payments p JOIN companies c ON c.id = p.company_id AND c.state = 'active'
         JOIN company_users cu ON cu.company_id = p.company_id AND cu.user_id = $2
        WHERE p.id = $1`,
      [paymentId, userId],
    );
    return rows.length > 0;
  },

  async partnership(q: Queryable, companyId: string) {
    const { rows } = await q.query<{ until: Date | string | null; expired: boolean }>(
      `SELECT partnership_paid_until AS until, partnership_paid_until <= now() AS expired
         FROM companies WHERE id = $1`,
      [companyId],
    );
    return rows[0];
  },

  /** A year more: from the partnership's end, or from now when it ended or never started. */
  async extendPartnership(q: Queryable, companyId: string): Promise<Date | string> {
    const { rows } = await q.query<{ until: Date | string }>(
      `UPDATE companies
          SET partnership_paid_until = greatest(coalesce(partnership_paid_until, now()), now()) + interval '1 year',
              updated_at = now()
        WHERE id = $1 RETURNING partnership_paid_until AS until`,
      [companyId],
    );
    return rows[0]!.until;
  },

  async shortenPartnership(q: Queryable, companyId: string) {
    await q.query(
      `UPDATE companies SET partnership_paid_until = partnership_paid_until - interval '1 year', updated_at = now()
        WHERE id = $1 AND partnership_paid_until IS NOT NULL`,
      [companyId],
    );
  },

  /** The pages the company pays for and has not paid yet. */
  async owedPages(q: Queryable, companyId: string) {
    const { rows } = await q.query<{ memorial_id: string; name: string }>(
      `SELECT mp.memorial_id::text AS memorial_id, m.first_name || ' ' || m.last_name AS name
         FROM memorial_plans mp JOIN memorials m ON m.id = mp.memorial_id
        WHERE mp.payer_company_id = $1 AND mp.company_settled_by IS NULL
        ORDER BY m.created_at, m.id LIMIT 500`,
      [companyId],
    );
    return rows;
  },

  async addPage(
    q: Queryable,
    paymentId: string,
    p: { memorialId: string; name: string; amountCents: number },
  ) {
    await q.query(
      `INSERT INTO company_payment_pages (payment_id, memorial_id, memorial_name, amount_cents)
       VALUES ($1, $2, $3, $4)`,
      [paymentId, p.memorialId, p.name, p.amountCents],
    );
  },

  /** The pages a payment covers, for its invoice's lines. */
  async pagesOf(q: Queryable, paymentId: string) {
    const { rows } = await q.query<{ memorial_name: string; amount_cents: number }>(
      `SELECT memorial_name, amount_cents FROM company_payment_pages WHERE payment_id = $1
        ORDER BY memorial_name, memorial_id`,
      [paymentId],
    );
    return rows;
  },

  /** The payment's pages are settled; pages a page's payment settled before (two at once) stay with that one. */
  async settlePages(q: Queryable, paymentId: string, companyId: string) {
    await q.query(
      `UPDATE memorial_plans SET company_settled_by = $1, updated_at = now()
        WHERE payer_company_id = $2 AND company_settled_by IS NULL
          AND memorial_id IN (SELECT memorial_id FROM company_payment_pages WHERE payment_id = $1)`,
      [paymentId, companyId],
    );
  },

  /** The pages a refunded payment settled are owed again. */
  async unsettlePages(q: Queryable, paymentId: string) {
    await q.query(
      `UPDATE memorial_plans SET company_settled_by = NULL, updated_at = now() WHERE company_settled_by = $1`,
      [paymentId],
    );
  },

  /** The payment's invoice (what a credit invoice repeats) and the company's name. */
  async invoiceToCredit(q: Queryable, paymentId: string, companyId: string) {
    const { rows } = await q.query<{ description: string; lines: InvoiceLine[] | null; name: string }>(
      `SELECT i.description, i.lines, c.name FROM invoices i, companies c
        WHERE i.payment_id = $1 AND i.kind = 'invoice' AND c.id = $2`,
      [paymentId, companyId],
    );
    return rows[0];
  },
};
