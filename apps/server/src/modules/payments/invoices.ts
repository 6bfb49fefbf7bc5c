import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/client.ts';
import { A4, createPdf, pdfBytes } from '../../lib/pdf/document.ts';
import { signedLinks } from '../../lib/signed-links.ts';
import { dateNl } from '../../lib/mail-format.ts';
import type { InvoiceRow } from './invoice-repository.ts';

/** 'AK-000012': the number as invoices show it. */
export const invoiceNumber = (n: number) => `AK-${String(n).padStart(6, '0')}`;

export { invoicesRepository, vatIn, type InvoiceLine, type InvoiceRow } from './invoice-repository.ts';

/** Signed invoice links (mail: 30 days; the management screen: an hour), as export links are. */
export const invoiceLinkSigner = (db: Queryable) => signedLinks(db, 'invoice-url-key', 'invoice');

const euro = (cents: number) =>
  `€ ${cents < 0 ? '-' : ''}${(Math.abs(cents) / 100).toFixed(2).replace('.', ',')}`;

/** The invoice as a PDF (A4, Dutch). */
export async function invoicePdf(inv: InvoiceRow, config: Config): Promise<Uint8Array> {
  const title = inv.kind === 'credit' ? 'Creditfactuur' : 'Factuur';
  const doc = await createPdf({
    size: [A4.width, A4.height],
    typeface: 'sans',
    title: `${title} ${invoiceNumber(inv.number)}`,
    author: config.INVOICE_SELLER_NAME,
  });
  const ink = '#1a1a1f';
  // Laid out from the foot of the page up, as a baseline `y` points above it.
  let y = 780;
  const line = (text: string, o: { x?: number; size?: number; b?: boolean; right?: number } = {}) => {
    doc
      .font(o.b ? 'bold' : 'regular')
      .fontSize(o.size ?? 10)
      .fillColor(ink);
    const x = o.right !== undefined ? o.right - doc.widthOfString(text) : (o.x ?? 56);
    doc.text(text, x, A4.height - y, { baseline: 'alphabetic', lineBreak: false });
  };
  const next = (dy = 15) => (y -= dy);
  const rule = (from: number) =>
    doc
      .moveTo(from, A4.height - y)
      .lineTo(539, A4.height - y)
      .lineWidth(0.5)
      .strokeColor(ink)
      .stroke();

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
  rule(56);
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
  rule(340);
  next(16);
  line('Totaal (incl. btw)', { b: true });
  line(euro(inv.amount_cents), { b: true, right: 539 });
  next(36);
  line(
    inv.kind === 'credit' ? 'Het bedrag wordt teruggestort via Mollie.' : 'Betaald via Mollie. Dank je wel.',
  );
  return pdfBytes(doc);
}
