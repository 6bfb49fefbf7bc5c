import { plans } from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { mailName } from '../../lib/mail-format.ts';
import { invoiceNumber, type InvoiceRow } from './invoices.ts';

const euro = (cents: number) => `€ ${(cents / 100).toFixed(2).replace('.', ',')}`;

/**
 * To the one who paid: thanks, and the invoice (a signed link to the PDF, valid 30 days). They typed their
 * own name for the invoice, so the mail greets them by it.
 */
export function invoiceMail(o: { to: string; invoice: InvoiceRow; memorialName: string; url: string }): Mail {
  const memorial = mailName(o.memorialName) ?? 'je gedenkpagina';
  const number = invoiceNumber(o.invoice.number);
  const plan = /Premium/.test(o.invoice.description) ? plans.premium.title : plans.basis.title;
  const amounts = `${euro(o.invoice.amount_cents)} (waarvan ${euro(o.invoice.vat_cents)} btw)`;
  if (o.invoice.kind === 'credit')
    return buildMail({
      to: o.to,
      name: o.invoice.buyer_name,
      subject: `Je creditfactuur ${number} van Aandenken`,
      body: [
        `We hebben ${euro(-o.invoice.amount_cents)} teruggestort voor ${plan} van de gedenkpagina voor ${memorial}. Het bedrag staat binnen enkele dagen weer op je rekening.`,
        `Creditfactuur ${number}: ${amounts}.\nDownload de creditfactuur (PDF, 30 dagen geldig):`,
        { link: o.url, label: `Creditfactuur ${number} (PDF)` },
      ],
    });
  return buildMail({
    to: o.to,
    name: o.invoice.buyer_name,
    subject: `Je factuur ${number} van Aandenken`,
    body: [
      `Dank je wel voor je betaling. De gedenkpagina voor ${memorial} heeft nu ${plan}.`,
      `Factuur ${number}: ${amounts}.\nDownload de factuur (PDF, 30 dagen geldig):`,
      { link: o.url, label: `Factuur ${number} (PDF)` },
      'Daarna vind je hem altijd onder Abonnement in het beheer van de pagina.',
    ],
  });
}

/**
 * To the company's user who paid (its partnership or its pages): thanks, or the refund, and the invoice.
 * The invoice names the company; the mail greets the person who paid by their account's name when it is known.
 */
export function companyInvoiceMail(o: {
  to: string;
  invoice: InvoiceRow;
  companyName: string;
  url: string;
  name?: string | null;
}): Mail {
  const number = invoiceNumber(o.invoice.number);
  const credit = o.invoice.kind === 'credit';
  const what = o.invoice.description.replace(/^Creditering: /, '');
  const doc = credit ? 'creditfactuur' : 'factuur';
  const company = mailName(o.companyName) ?? 'je bedrijf';
  return buildMail({
    to: o.to,
    name: o.name ?? null,
    subject: `Je ${doc} ${number} van Aandenken`,
    body: [
      credit
        ? `We hebben ${euro(-o.invoice.amount_cents)} teruggestort aan ${company} voor: ${what}.`
        : `Dank je wel voor de betaling van ${company} voor: ${what}.`,
      `${credit ? 'Creditfactuur' : 'Factuur'} ${number}: ${euro(o.invoice.amount_cents)} (waarvan ${euro(o.invoice.vat_cents)} btw).\nDownload de ${doc} (PDF, 30 dagen geldig):`,
      { link: o.url, label: `${credit ? 'Creditfactuur' : 'Factuur'} ${number} (PDF)` },
      'Daarna vind je hem altijd onder Betalingen in het partnerportaal.',
    ],
  });
}
