import { plans } from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { mailName } from '../../lib/mail-format.ts';
import { invoiceNumber, type InvoiceRow } from './invoices.ts';

const euro = (cents: number) => `€ ${(cents / 100).toFixed(2).replace('.', ',')}`;

/** To the one who paid: thanks, and the invoice (a signed link to the PDF, valid 30 days). */
export function invoiceMail(o: { to: string; invoice: InvoiceRow; memorialName: string; url: string }): Mail {
  const memorial = mailName(o.memorialName) ?? 'je gedenkpagina';
  const number = invoiceNumber(o.invoice.number);
  const plan = /Premium/.test(o.invoice.description) ? plans.premium.title : plans.basis.title;
  if (o.invoice.kind === 'credit')
    return {
      to: o.to,
      subject: `Je creditfactuur ${number} van Aandenken`,
      text: [
        'Hallo,',
        '',
        `We hebben ${euro(-o.invoice.amount_cents)} teruggestort voor ${plan} van de gedenkpagina voor ${memorial}. Het bedrag staat binnen enkele dagen weer op je rekening.`,
        '',
        `Creditfactuur ${number}: ${euro(o.invoice.amount_cents)} (waarvan ${euro(o.invoice.vat_cents)} btw).`,
        `Download de creditfactuur (PDF, 30 dagen geldig): ${o.url}`,
        '',
        'Met vriendelijke groet,',
        'Het team van Aandenken',
      ].join('\n'),
    };
  return {
    to: o.to,
    subject: `Je factuur ${number} van Aandenken`,
    text: [
      'Hallo,',
      '',
      `Dank je wel voor je betaling. De gedenkpagina voor ${memorial} heeft nu ${plan}.`,
      '',
      `Factuur ${number}: ${euro(o.invoice.amount_cents)} (waarvan ${euro(o.invoice.vat_cents)} btw).`,
      `Download de factuur (PDF, 30 dagen geldig): ${o.url}`,
      'Daarna vind je hem altijd onder Abonnement in het beheer van de pagina.',
      '',
      'Met vriendelijke groet,',
      'Het team van Aandenken',
    ].join('\n'),
  };
}

/** To the company's user who paid (its partnership or its pages): thanks, or the refund, and the invoice. */
export function companyInvoiceMail(o: {
  to: string;
  invoice: InvoiceRow;
  companyName: string;
  url: string;
}): Mail {
  const number = invoiceNumber(o.invoice.number);
  const credit = o.invoice.kind === 'credit';
  const what = o.invoice.description.replace(/^Creditering: /, '');
  return {
    to: o.to,
    subject: `${credit ? 'Je creditfactuur' : 'Je factuur'} ${number} van Aandenken`,
    text: [
      'Hallo,',
      '',
      credit
        ? `We hebben ${euro(-o.invoice.amount_cents)} teruggestort aan ${o.companyName} voor: ${what}.`
        : `Dank je wel voor de betaling van ${o.companyName} voor: ${what}.`,
      '',
      `${credit ? 'Creditfactuur' : 'Factuur'} ${number}: ${euro(o.invoice.amount_cents)} (waarvan ${euro(o.invoice.vat_cents)} btw).`,
      `Download de ${credit ? 'creditfactuur' : 'factuur'} (PDF, 30 dagen geldig): ${o.url}`,
      'Daarna vind je hem altijd onder Betalingen in het partnerportaal.',
      '',
      'Met vriendelijke groet,',
      'Het team van Aandenken',
    ].join('\n'),
  };
}
