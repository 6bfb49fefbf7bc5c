import { FileText } from 'lucide-react';
import { paymentPurposeLabels, type Payment } from '@aandenken/contract';
import { cn } from '../../lib/cn.ts';
import { formatDate } from '../../lib/format.ts';
import { paymentStatusLabels } from './plan-text.ts';

/** A download link to an invoice's PDF: 'Factuur AK-000123 (pdf)' or 'Creditfactuur AK-000124 (pdf)'. */
export function InvoiceLink({
  invoice,
  credit = false,
}: {
  invoice: NonNullable<Payment['invoice']>;
  credit?: boolean;
}) {
  return (
    <a
      href={invoice.url}
      download
      className="inline-flex items-center gap-1 font-medium text-primary underline underline-offset-4"
    >
      <FileText aria-hidden className="h-4 w-4" />
      {credit ? 'Creditfactuur' : 'Factuur'} {invoice.number} (pdf)
    </a>
  );
}

/**
 * Payments, newest first as given, each with what it paid for, the amount, the day, its state and the links
 * to its invoice and credit invoice; or `empty` when there are none. The memorial's 'Abonnement' tab and the
 * partner portal's 'Betalingen'.
 */
export function PaymentList({
  payments,
  amount,
  empty,
  label,
  className,
}: {
  payments: readonly Payment[];
  /** The amount as shown ('€ 50', '€ 1.250,00'). */
  amount: (payment: Payment) => string;
  empty: string;
  /** The list's accessible name. */
  label?: string;
  /** Spacing above the list or the empty text. */
  className?: string;
}) {
  if (payments.length === 0) return <p className={cn(className, 'text-sm text-muted')}>{empty}</p>;
  return (
    <ul className={cn(className, 'divide-y divide-border')} aria-label={label}>
      {payments.map((payment) => (
        <li key={payment.id} className="flex flex-wrap justify-between gap-2 py-3 text-sm">
          <span>
            {paymentPurposeLabels[payment.plan]} · {amount(payment)} · {formatDate(payment.createdAt)}
          </span>
          <span className="flex flex-wrap items-center gap-3">
            <span className="font-medium">
              {payment.refundedAt ? 'Teruggestort' : (paymentStatusLabels[payment.status] ?? payment.status)}
            </span>
            {payment.creditInvoice && <InvoiceLink invoice={payment.creditInvoice} credit />}
            {payment.invoice && <InvoiceLink invoice={payment.invoice} />}
          </span>
        </li>
      ))}
    </ul>
  );
}
