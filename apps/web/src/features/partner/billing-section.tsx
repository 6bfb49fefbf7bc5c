import { useSearchParams } from 'react-router';
import { CreditCard } from 'lucide-react';
import {
  formatEuro,
  type CompanyBilling,
  type CompanyPaymentPurpose,
  type Payment,
} from '@aandenken/contract';
import { Button } from '../../components/ui/button.tsx';
import { QueryState } from '../../components/ui/query-state.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { PaymentList } from '../../components/plans/payment-list.tsx';
import { paymentStatusLabels } from '../../components/plans/plan-text.ts';
import { formatDate } from '../../lib/format.ts';
import { toast } from '../../lib/toast.ts';
import { useCompanyBilling, useCompanyPay } from './api/billing.ts';
import type { PortalSectionProps } from './portal-types.ts';

/** 'Partnerschap betaald tot 24 november 2027', or why it is not. */
export function partnershipText(p: CompanyBilling['partnership']): string {
  if (p.state === 'paid') return `Partnerschap betaald tot ${formatDate(p.paidUntil!)}`;
  if (p.state === 'expired') return `Het partnerschap is op ${formatDate(p.paidUntil!)} verlopen`;
  return 'Het partnerschap is nog niet betaald';
}

/**
 * Betalingen: the partnership (a year at a time), what the company owes for the pages it made
 * for families, both paid through Mollie by an administrator, and every payment with its invoice.
 */
export function BillingSection({ company }: PortalSectionProps) {
  const [params] = useSearchParams();
  const paymentId = params.get('betaling');
  const billing = useCompanyBilling(company.id, paymentId);
  const headingId = `betalingen-${company.id}`;
  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-border bg-card p-6">
      <h3 id={headingId} className="text-xl font-semibold">
        Betalingen
      </h3>
      <p className="mt-1 text-sm text-muted">
        Het partnerschap en de pagina’s die je bedrijf voor families betaalt. Je betaalt via Mollie (iDEAL,
        kaart, Bancontact); de factuur op naam van je bedrijf staat daarna hier en komt per e-mail.
      </p>
      <QueryState
        query={billing}
        skeleton={<Skeleton className="mt-4 h-40 w-full rounded-xl" />}
        error="De betalingen konden niet worden geladen."
      >
        {(data) => (
          <>
            {paymentId && <PaymentResult payment={data.payments.find((p) => p.id === paymentId)} />}
            <Billing companyId={company.id} data={data} />
          </>
        )}
      </QueryState>
    </section>
  );
}

/** Back from Mollie's checkout: what became of the payment. */
function PaymentResult({ payment }: { payment: Payment | undefined }) {
  if (!payment) return null;
  if (payment.status === 'paid')
    return (
      <p role="status" className="mt-4 rounded-xl bg-secondary px-4 py-3">
        Betaling gelukt. Dank je wel; de factuur staat hieronder en is naar je gemaild.
      </p>
    );
  if (['open', 'pending', 'authorized'].includes(payment.status))
    return (
      <p role="status" className="mt-4 rounded-xl bg-secondary px-4 py-3">
        We wachten op de bevestiging van de betaling…
      </p>
    );
  return (
    <p role="alert" className="mt-4 rounded-xl border border-danger/40 bg-danger-soft px-4 py-3 text-danger">
      De betaling is niet gelukt ({(paymentStatusLabels[payment.status] ?? payment.status).toLowerCase()}). Er
      is niets afgeschreven.
    </p>
  );
}

function Billing({ companyId, data }: { companyId: string; data: CompanyBilling }) {
  const pay = useCompanyPay(companyId);
  const start = (purpose: CompanyPaymentPurpose) =>
    pay.mutate(purpose, {
      onSuccess: (created) => window.location.assign(created.checkoutUrl),
      onError: (e) => toast.error('Betalen lukte niet', e instanceof Error ? e.message : undefined),
    });
  const { partnership: p, owed } = data;
  const why = !data.paymentsEnabled
    ? 'Online betalen staat op dit moment uit. Neem contact met ons op, dan regelen we het met je.'
    : !data.canPay
      ? 'Alleen een beheerder van je bedrijf kan betalen.'
      : null;
  const n = owed.pages.length;
  return (
    <div className="mt-6 grid gap-8">
      <div>
        <h4 className="font-semibold">Partnerschap</h4>
        <p className="mt-2 font-medium" data-testid="partnership-state">
          {partnershipText(p)}
        </p>
        <p className="mt-1 text-sm text-muted">
          {formatEuro(p.priceCents)} per jaar, inclusief 21% btw.{' '}
          {p.state !== 'paid' &&
            'Je profiel en de pagina’s voor families blijven gewoon werken; het team van Aandenken neemt contact met je op.'}
        </p>
        {why ? (
          <p className="mt-3 text-sm">{why}</p>
        ) : (
          <Button className="mt-3" size="sm" disabled={pay.isPending} onClick={() => start('partnership')}>
            <CreditCard aria-hidden className="h-4 w-4" />
            {p.state === 'paid' ? 'Een jaar verlengen' : 'Partnerschap betalen'}: {formatEuro(p.priceCents)}
          </Button>
        )}
      </div>

      <div>
        <h4 className="font-semibold">Pagina’s voor families</h4>
        {n === 0 ? (
          <p className="mt-2 text-sm text-muted" data-testid="owed-state">
            Er staat niets open.
          </p>
        ) : (
          <>
            <p className="mt-2" data-testid="owed-state">
              Openstaand: {n} {n === 1 ? 'pagina' : 'pagina’s'} met Premium, samen{' '}
              <strong>{formatEuro(owed.totalCents)}</strong> (inclusief btw).
            </p>
            <ul className="mt-2 grid gap-1 text-sm" aria-label="Openstaande pagina’s">
              {owed.pages.map((page) => (
                <li key={page.memorialId}>
                  {page.name}: {formatEuro(page.amountCents)}
                </li>
              ))}
            </ul>
            {!why && (
              <Button
                className="mt-3"
                size="sm"
                disabled={pay.isPending}
                onClick={() => start('company_pages')}
              >
                <CreditCard aria-hidden className="h-4 w-4" />
                Openstaand bedrag betalen: {formatEuro(owed.totalCents)}
              </Button>
            )}
          </>
        )}
      </div>

      <div>
        <h4 className="font-semibold">Betalingen en facturen</h4>
        <PaymentList
          payments={data.payments}
          amount={(payment) => formatEuro(payment.amountCents)}
          empty="Je bedrijf heeft nog niets betaald."
          label="Betalingen"
          className="mt-2"
        />
      </div>
    </div>
  );
}
