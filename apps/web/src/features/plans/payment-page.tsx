import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { AlertCircle, ArrowLeft, Check, CheckCircle2, CreditCard, XCircle } from 'lucide-react';
import * as z from 'zod/mini';
import {
  paymentCreateSchema,
  plans,
  pricingPlans,
  routes,
  type MemorialPlan,
  type PaidPlanId,
  paymentPurposeLabels,
} from '@aandenken/contract';
import { Form, FormError, SubmitButton, TextField } from '../../components/form/form.tsx';
import { MemorialUnavailable } from '../../components/memorial/memorial-unavailable.tsx';
import { Container } from '../../components/ui/container.tsx';
import { PageSpinner, Spinner } from '../../components/ui/spinner.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useSignInRequired } from '../../components/auth/sign-in-required.ts';
import { cn } from '../../lib/cn.ts';
import { formatEuro } from '../../lib/format.ts';
import { fullName } from '../../lib/memorials/life.ts';
import { useMemorial } from '../../lib/memorials/queries.ts';
import { useCreatePayment, useMemorialPlan, usePayment } from '../../components/plans/api.ts';
import { planSummary } from '../../components/plans/plan-text.ts';

const buyerSchema = z.pick(paymentCreateSchema, {
  buyerName: true,
  buyerAddress: true,
  buyerPostalCode: true,
  buyerCity: true,
});

/** /page/payment/{id} (app host, no footer): choose Basis or Premium, the buyer's details, then Mollie. */
export default function PaymentPage() {
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const paymentId = search.get('betaling');
  const auth = useSignInRequired();
  const signedIn = auth.status === 'authenticated';
  const memorial = useMemorial(id, signedIn);
  const plan = useMemorialPlan(id, signedIn);

  if (!signedIn || memorial.isPending || plan.isPending) return <PageSpinner />;
  const error = memorial.error ?? plan.error;
  if (error) {
    if (error instanceof ApiError && [401, 403, 404].includes(error.status)) return <MemorialUnavailable />;
    return (
      <Container className="py-20 text-center" role="alert">
        <h1 className="text-3xl">De pagina kon niet worden geladen</h1>
        <p className="mt-3 text-muted">{error.message}</p>
      </Container>
    );
  }
  const m = memorial.data!;
  const p = plan.data!;
  return (
    <Container className="max-w-3xl py-10 sm:py-14">
      <title>{`Abonnement voor ${fullName(m)} · Aandenken`}</title>
      <Link
        to={routes.memorialBySlug(m.slug)}
        className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-primary hover:underline"
      >
        <ArrowLeft aria-hidden className="h-4 w-4" />
        Naar de pagina
      </Link>
      <h1 className="mt-3 text-3xl font-semibold sm:text-4xl">
        <span className="block text-base font-normal text-muted sm:text-lg">Abonnement kiezen</span>
        {fullName(m)}
      </h1>
      <p className="mt-3 text-muted" data-testid="plan-summary">
        Nu: {planSummary(p)}.
      </p>
      {paymentId && <PaymentResult paymentId={paymentId} memorialId={m.id} />}
      <Choose plan={p} memorialId={m.id} />
    </Container>
  );
}

function Choose({ plan: p, memorialId }: { plan: MemorialPlan; memorialId: string }) {
  const [chosen, setChosen] = useState<PaidPlanId>(p.plan === 'basis' ? 'basis' : 'premium');
  const create = useCreatePayment();
  if (p.paidByCompany)
    return (
      <Note tone="ok">Deze pagina wordt betaald door je uitvaartonderneming. Je hoeft niets te betalen.</Note>
    );
  if (p.plan === 'premium')
    return <Note tone="ok">Deze pagina heeft Premium, voor altijd. Er is niets te betalen.</Note>;
  if (!p.canPay)
    return (
      <Note tone="info">Alleen eigenaren en redacteuren van de pagina kunnen een abonnement kiezen.</Note>
    );
  if (!p.paymentsEnabled)
    return (
      <Note tone="info">
        Online betalen staat op dit moment uit. Neem{' '}
        <Link to={routes.contact} className="font-medium text-primary underline underline-offset-4">
          contact met ons op
        </Link>
        , dan zetten we het abonnement voor je klaar.
      </Note>
    );

  return (
    <section aria-labelledby="kies" className="mt-10">
      <h2 id="kies" className="text-xl font-semibold">
        Kies je abonnement
      </h2>
      <div role="radiogroup" aria-label="Abonnement" className="mt-4 grid gap-4 sm:grid-cols-2">
        {pricingPlans.map((card) => {
          const selected = chosen === card.id;
          return (
            <button
              key={card.id}
              type="button"
              role="radio"
              aria-checked={selected}
              aria-label={`${card.title}: ${formatEuro(card.price)} ${card.subscriptionLength}`}
              onClick={() => setChosen(card.id)}
              className={cn(
                'rounded-3xl border-2 bg-card p-6 text-left transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                selected ? 'border-primary' : 'border-border hover:border-muted/60',
              )}
            >
              <span className="flex items-center justify-between">
                <span className="text-lg font-semibold">{card.title}</span>
                {selected && <Check aria-hidden className="h-5 w-5 text-primary" />}
              </span>
              <span className="mt-2 block text-2xl font-semibold">
                {formatEuro(card.price)}{' '}
                <span className="text-sm font-normal text-muted">{card.subscriptionLength}</span>
              </span>
              <span className="mt-2 block text-sm text-muted">{card.description}</span>
              <ul className="mt-3 grid gap-1 text-sm">
                {card.benefitList.slice(0, 3).map((b) => (
                  <li key={b}>{b}</li>
                ))}
              </ul>
            </button>
          );
        })}
      </div>
      <Form
        schema={buyerSchema}
        defaultValues={{ buyerName: '', buyerAddress: '', buyerPostalCode: '', buyerCity: '' }}
        aria-label="Gegevens voor de factuur"
        className="mt-8 grid gap-4"
        onSubmit={async (values) => {
          const created = await create.mutateAsync({ memorialId, plan: chosen, ...values });
          if (!created.checkoutUrl)
            throw new ApiError(
              0,
              'NO_CHECKOUT_URL',
              'We kregen geen betaallink terug van de betaalprovider. Er is niets afgeschreven; probeer het opnieuw.',
            );
          window.location.assign(created.checkoutUrl);
        }}
      >
        {() => (
          <>
            <h2 className="text-xl font-semibold">Gegevens voor de factuur</h2>
            <TextField name="buyerName" label="Naam" autoComplete="name" required />
            <TextField
              name="buyerAddress"
              label="Straat en huisnummer"
              autoComplete="street-address"
              required
            />
            <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
              <TextField name="buyerPostalCode" label="Postcode" autoComplete="postal-code" required />
              <TextField name="buyerCity" label="Plaats" autoComplete="address-level2" required />
            </div>
            <FormError />
            <div>
              <SubmitButton
                size="lg"
                icon={<CreditCard aria-hidden className="h-5 w-5" />}
                busyLabel="Naar betalen…"
              >
                {`${plans[chosen].title} betalen: ${formatEuro(plans[chosen].priceCents / 100)}`}
              </SubmitButton>
              <p className="mt-2 text-sm text-muted">
                Je betaalt bij Mollie met iDEAL, een creditcard of Bancontact. Bedragen zijn inclusief 21%
                btw.
              </p>
            </div>
          </>
        )}
      </Form>
    </section>
  );
}

/** After Mollie sent the family back: paid, still busy, or failed/cancelled (nothing changed). */
function PaymentResult({ paymentId, memorialId }: { paymentId: string; memorialId: string }) {
  const payment = usePayment(paymentId, memorialId);
  if (payment.isPending)
    return (
      <div role="status" className="mt-8 flex items-center gap-3">
        <Spinner className="h-5 w-5 text-muted" /> De betaling wordt gecontroleerd…
      </div>
    );
  if (payment.isError)
    return <Note tone="bad">De betaling kon niet worden gevonden. {payment.error.message}</Note>;
  const s = payment.data.status;
  if (s === 'paid')
    return (
      <Note tone="ok">
        Betaling gelukt: de pagina heeft nu {paymentPurposeLabels[payment.data.plan]}. Dank je wel.{' '}
        <Link
          to={routes.memorial(memorialId)}
          className="font-medium text-primary underline underline-offset-4"
        >
          Terug naar de pagina
        </Link>
      </Note>
    );
  if (s === 'failed' || s === 'canceled' || s === 'expired')
    return (
      <Note tone="bad">
        {s === 'canceled'
          ? 'De betaling is geannuleerd.'
          : s === 'expired'
            ? 'De betaling is verlopen.'
            : 'De betaling is niet gelukt.'}{' '}
        Er is niets afgeschreven en de pagina is gebleven zoals hij was. Je kunt het hieronder opnieuw
        proberen.
      </Note>
    );
  return (
    <div role="status" className="mt-8 flex items-center gap-3">
      <Spinner className="h-5 w-5 text-muted" /> De betaling is nog in behandeling…
    </div>
  );
}

function Note({ tone, children }: { tone: 'ok' | 'bad' | 'info'; children: React.ReactNode }) {
  const Icon = tone === 'ok' ? CheckCircle2 : tone === 'bad' ? XCircle : AlertCircle;
  return (
    <div
      role={tone === 'bad' ? 'alert' : 'status'}
      className={cn(
        'mt-8 flex gap-3 rounded-2xl border p-4',
        tone === 'ok'
          ? 'border-success/40 bg-success-soft'
          : tone === 'bad'
            ? 'border-danger/40 bg-card'
            : 'border-border bg-card',
      )}
    >
      <Icon
        aria-hidden
        className={cn(
          'mt-0.5 h-5 w-5 shrink-0',
          tone === 'ok' ? 'text-success' : tone === 'bad' ? 'text-danger' : 'text-muted',
        )}
      />
      <p>{children}</p>
    </div>
  );
}
