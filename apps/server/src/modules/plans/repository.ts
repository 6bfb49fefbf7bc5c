import type { Queryable } from '../../db/client.ts';
import type { PlanRow } from '../../shared/plans.ts';

export type PaymentListRow = {
  id: string;
  memorial_id: string | null;
  plan: 'basis' | 'premium';
  amount_cents: number;
  status: string;
  created_at: Date | string;
  paid_at: Date | string | null;
  invoice_id: string | null;
  invoice_number: number | null;
  refunded_at: Date | string | null;
  credit_id: string | null;
  credit_number: number | null;
};

export type DueRow = PlanRow & {
  memorial_id: string;
  memorial_name: string;
};

export function plansRepository(db: Queryable) {
  return {
    async publishedMemories(memorialId: string): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM memories WHERE memorial_id = $1 AND status = 'published'`,
        [memorialId],
      );
      return rows[0]!.n;
    },

    async payments(memorialId: string): Promise<PaymentListRow[]> {
      const { rows } = await db.query<PaymentListRow>(
        `SELECT p.id::text AS id, p.memorial_id::text AS memorial_id, p.plan, p.amount_cents, p.status, p.created_at,
                p.paid_at, i.id::text AS invoice_id, i.number AS invoice_number, p.refunded_at,
                c.id::text AS credit_id, c.number AS credit_number
           FROM payments p LEFT JOIN invoices i ON i.payment_id = p.id AND i.kind = 'invoice'
           LEFT JOIN invoices c ON c.payment_id = p.id AND c.kind = 'credit'
          WHERE p.memorial_id = $1 ORDER BY p.created_at DESC LIMIT 50`,
        [memorialId],
      );
      return rows;
    },

    /**
     * Memorials whose trial or Basis year ends before `until` (now + the longest reminder), Premium and
     * partner-paid pages left out. `$2` is TRIAL_DAYS.
     */
    async endingBefore(until: Date, trialDays: number): Promise<DueRow[]> {
      const { rows } = await db.query<DueRow>(
        `SELECT p.memorial_id::text AS memorial_id, p.plan, p.trial_started_at, p.paid_until,
                p.payer_company_id::text AS payer_company_id,
                m.first_name || ' ' || m.last_name AS memorial_name
           FROM memorial_plans p JOIN memorials m ON m.id = p.memorial_id
          WHERE p.payer_company_id IS NULL
            AND ((p.plan = 'trial' AND p.trial_started_at + make_interval(days => $2) <= $1)
              OR (p.plan = 'basis' AND p.paid_until <= $1))`,
        [until, trialDays],
      );
      return rows;
    },

    /** Claims a notice; false when it was sent before (the key holds memorial, kind and period). */
    async claimNotice(q: Queryable, memorialId: string, kind: string, periodEnd: Date): Promise<boolean> {
      const { rows } = await q.query(
        `INSERT INTO memorial_plan_notices (memorial_id, kind, period_end) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING 1`,
        [memorialId, kind, periodEnd],
      );
      return rows.length > 0;
    },

    async owners(q: Queryable, memorialId: string) {
      const { rows } = await q.query<{ email: string; name: string | null }>(
        `SELECT u.email, u.name FROM memorial_members mm JOIN users u ON u.id = mm.user_id
          WHERE mm.memorial_id = $1 AND mm.role = 'owner' AND u.email IS NOT NULL`,
        [memorialId],
      );
      return rows;
    },

    /** Up to 20 pages by (part of) the name of the deceased, or the one with this id. */
    async search(name: string | null, id: string | null) {
      const { rows } = await db.query<{
        id: string;
        name: string;
        status: string;
        plan: 'trial' | 'basis' | 'premium';
        paid_by_company: boolean;
      }>(
        `SELECT m.id::text AS id, m.first_name || ' ' || m.last_name AS name, m.status, p.plan,
                p.payer_company_id IS NOT NULL AS paid_by_company
           FROM memorials m JOIN memorial_plans p ON p.memorial_id = m.id
          WHERE ($2::uuid IS NOT NULL AND m.id = $2::uuid)
             OR ($1::text IS NOT NULL AND (m.first_name || ' ' || m.last_name) ILIKE
                 '%' || replace(replace(replace($1::text, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')
          ORDER BY m.created_at DESC, m.id LIMIT 20`,
        [name, id],
      );
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        status: r.status,
        plan: r.plan,
        paidByCompany: r.paid_by_company,
      }));
    },

    async teamRow(memorialId: string) {
      const { rows } = await db.query<{ name: string; trial_started_at: Date | string }>(
        `SELECT m.first_name || ' ' || m.last_name AS name, p.trial_started_at
           FROM memorials m JOIN memorial_plans p ON p.memorial_id = m.id WHERE m.id = $1`,
        [memorialId],
      );
      return rows[0];
    },

    /** The trial starts counting again from now (the team set the plan to trial). */
    async restartTrial(q: Queryable, memorialId: string) {
      await q.query(`UPDATE memorial_plans SET trial_started_at = now() WHERE memorial_id = $1`, [
        memorialId,
      ]);
    },

    async setPlan(q: Queryable, memorialId: string, plan: string, paidUntil: Date | null) {
      const { rows } = await q.query(
        `UPDATE memorial_plans SET plan = $2, paid_until = $3, updated_at = now()
          WHERE memorial_id = $1 RETURNING 1`,
        [memorialId, plan, paidUntil],
      );
      return rows.length > 0;
    },
  };
}
