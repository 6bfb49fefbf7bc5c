import { VAT_PERCENT } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';

export type InvoiceRow = {
  id: string;
  number: number;
  kind: 'invoice' | 'credit';
  payment_id: string;
  memorial_id: string | null;
  issued_at: Date | string;
  description: string;
  amount_cents: number;
  vat_cents: number;
  vat_percent: number;
  buyer_name: string;
  buyer_address: string;
  buyer_postal_code: string;
  buyer_city: string;
  /** Several lines (a company's pages); null: the one line of the description. */
  lines: InvoiceLine[] | null;
};
export type InvoiceLine = { description: string; amountCents: number };

const columns = `id::text AS id, number, kind, payment_id::text AS payment_id, memorial_id::text AS memorial_id,
  issued_at, description, amount_cents, vat_cents, vat_percent, buyer_name, buyer_address, buyer_postal_code,
  buyer_city, lines`;

/** The VAT in an amount that includes it (21%: 21/121 of it), rounded to the cent. */
export const vatIn = (cents: number, percent = VAT_PERCENT) =>
  Math.round((cents * percent) / (100 + percent));

export function invoicesRepository(db: Queryable) {
  return {
    /**
     * Issues the invoice for a payment in `tx`, the transaction that saw it paid: the number is the counter
     * row's next value, so the sequence has no gaps (a rollback takes the number back) and no doubles.
     */
    async issue(
      tx: Queryable,
      paymentId: string,
      description: string,
      kind: 'invoice' | 'credit' = 'invoice',
      lines: InvoiceLine[] | null = null,
    ): Promise<InvoiceRow> {
      const { rows } = await tx.query<InvoiceRow>(
        `WITH n AS (UPDATE invoice_counter SET last_number = last_number + 1 RETURNING last_number)
         INSERT INTO invoices (number, kind, payment_id, memorial_id, description, amount_cents, vat_cents, vat_percent,
                               buyer_name, buyer_address, buyer_postal_code, buyer_city, lines)
         SELECT n.last_number, $2, p.id, p.memorial_id, $3,
                CASE WHEN $2 = 'credit' THEN -p.amount_cents ELSE p.amount_cents END,
                CASE WHEN $2 = 'credit' THEN -$4::int ELSE $4::int END, $5,
                p.buyer_name, p.buyer_address, p.buyer_postal_code, p.buyer_city, $6::jsonb
           FROM payments p, n WHERE p.id = $1
         RETURNING ${columns}`,
        [
          paymentId,
          kind,
          description,
          0,
          VAT_PERCENT,
          lines === null
            ? null
            : JSON.stringify(
                lines.map((l) => ({ ...l, amountCents: kind === 'credit' ? -l.amountCents : l.amountCents })),
              ),
        ],
      );
      const row = rows[0]!;
      const vat = vatIn(Math.abs(row.amount_cents)) * Math.sign(row.amount_cents);
      await tx.query('UPDATE invoices SET vat_cents = $2 WHERE id = $1', [row.id, vat]);
      return { ...row, vat_cents: vat };
    },

    /** The invoice and credit invoice of a payment, for its links. */
    async ofPayment(paymentId: string) {
      const { rows } = await db.query<{ id: string; number: number; kind: string }>(
        `SELECT id::text AS id, number, kind FROM invoices WHERE payment_id = $1`,
        [paymentId],
      );
      return rows;
    },

    async byId(id: string): Promise<InvoiceRow | undefined> {
      const { rows } = await db.query<InvoiceRow>(`SELECT ${columns} FROM invoices WHERE id = $1`, [id]);
      return rows[0];
    },

    async ofMemorial(memorialId: string): Promise<InvoiceRow[]> {
      const { rows } = await db.query<InvoiceRow>(
        `SELECT ${columns} FROM invoices WHERE memorial_id = $1 ORDER BY number DESC LIMIT 100`,
        [memorialId],
      );
      return rows;
    },
  };
}
