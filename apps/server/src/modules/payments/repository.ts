import type { Queryable } from '../../db/client.ts';

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
