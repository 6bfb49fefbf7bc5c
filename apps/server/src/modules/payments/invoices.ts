import { VAT_PERCENT } from '@aandenken/contract';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/client.ts';
import { signedLinks } from '../../lib/signed-links.ts';

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

/** 'AK-000012': the number as invoices show it. */
export const invoiceNumber = (n: number) => `AK-${String(n).padStart(6, '0')}`;

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

/** Signed invoice links (mail: 30 days; the management screen: an hour), as export links are. */
export const invoiceLinkSigner = (db: Queryable) => signedLinks(db, 'invoice-url-key', 'invoice');

const euro = (cents: number) =>
  `€ ${cents < 0 ? '-' : ''}${(Math.abs(cents) / 100).toFixed(2).replace('.', ',')}`;
const dateNl = (d: Date) =>
  new Intl.DateTimeFormat('nl-NL', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Europe/Amsterdam',
  }).format(d);
/** The standard fonts speak WinAnsi: anything else becomes '?'. */
const winAnsi = (s: string) => s.replace(/[^\x20-\x7E\u00A0-\u00FF€–—‘’“”…]/g, '?');

/** The invoice as a PDF (A4, Dutch), made with pdf-lib, loaded on first use. */
export async function invoicePdf(inv: InvoiceRow, config: Config): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const title = inv.kind === 'credit' ? 'Creditfactuur' : 'Factuur';
  doc.setTitle(`${title} ${invoiceNumber(inv.number)}`);
  doc.setAuthor(config.INVOICE_SELLER_NAME);
  doc.setLanguage('nl-NL');
  const page = doc.addPage([595.28, 841.89]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const ink = rgb(0.1, 0.1, 0.12);
  let y = 780;
  const line = (text: string, o: { x?: number; size?: number; b?: boolean; right?: number } = {}) => {
    const f = o.b ? bold : font;
    const size = o.size ?? 10;
    const t = winAnsi(text);
    const x = o.right !== undefined ? o.right - f.widthOfTextAtSize(t, size) : (o.x ?? 56);
    page.drawText(t, { x, y, size, font: f, color: ink });
  };
  const next = (dy = 15) => (y -= dy);

  line(config.INVOICE_SELLER_NAME, { b: true, size: 14 });
  next(18);
  for (const part of config.INVOICE_SELLER_ADDRESS.split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    line(part);
    next();
  }
  line(`KvK ${config.INVOICE_SELLER_KVK} · btw-nummer ${config.INVOICE_SELLER_VAT_ID}`);
  next(40);
  line(`${title} ${invoiceNumber(inv.number)}`, { b: true, size: 18 });
  next(22);
  line(`Datum: ${dateNl(new Date(inv.issued_at))}`);
  next(30);
  line('Aan', { b: true });
  next();
  for (const l of [inv.buyer_name, inv.buyer_address, `${inv.buyer_postal_code} ${inv.buyer_city}`]) {
    line(l);
    next();
  }
  next(25);
  line('Omschrijving', { b: true });
  line('Bedrag', { b: true, right: 539 });
  next(6);
  page.drawLine({ start: { x: 56, y }, end: { x: 539, y }, thickness: 0.5, color: ink });
  next(16);
  const excl = inv.amount_cents - inv.vat_cents;
  line(inv.description);
  if (inv.lines && inv.lines.length > 0) {
    // Each listed item with its amount (VAT included), then the totals below.
    next(18);
    for (const l of inv.lines.slice(0, 20)) {
      line(`· ${l.description}`, { x: 66 });
      line(`${euro(l.amountCents)} incl. btw`, { right: 539 });
      next();
    }
    if (inv.lines.length > 20) {
      line(`· en nog ${inv.lines.length - 20} andere`, { x: 66 });
      next();
    }
    next(9);
  } else {
    line(euro(excl), { right: 539 });
    next(24);
  }
  line('Subtotaal (excl. btw)');
  line(euro(excl), { right: 539 });
  next();
  line(`Btw ${inv.vat_percent}%`);
  line(euro(inv.vat_cents), { right: 539 });
  next(6);
  page.drawLine({ start: { x: 340, y }, end: { x: 539, y }, thickness: 0.5, color: ink });
  next(16);
  line('Totaal (incl. btw)', { b: true });
  line(euro(inv.amount_cents), { b: true, right: 539 });
  next(36);
  line(
    inv.kind === 'credit' ? 'Het bedrag wordt teruggestort via Mollie.' : 'Betaald via Mollie. Dank je wel.',
  );
  return doc.save();
}
