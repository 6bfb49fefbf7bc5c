import { Link } from 'react-router';
import { CreditCard } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { buttonClass } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatEuro } from '../../../lib/format.ts';
import { Section } from '../components/section.tsx';
import { useMemorialPlan } from '../../../components/plans/api.ts';
import { PaymentList } from '../../../components/plans/payment-list.tsx';
import { memoriesLeft, planSummary } from '../../../components/plans/plan-text.ts';

/** The 'Abonnement' tab: the plan, its period, the memories left, the payments, and a way to pay. */
export default function PlanTab({ memorialId }: { memorialId: string }) {
  const plan = useMemorialPlan(memorialId);
  if (plan.isPending) return <Spinner label="Abonnement laden" className="text-muted" />;
  if (plan.isError)
    return (
      <p role="alert" className="text-danger">
        Het abonnement kon niet worden geladen. {plan.error.message}
      </p>
    );
  const p = plan.data;
  const left = memoriesLeft(p);
  return (
    <div className="grid gap-6">
      <Section
        title="Abonnement"
        description="Elke pagina begint met een gratis proefperiode met alles van Premium. Daarna kies je Basis (per jaar) of Premium (eenmalig). Een pagina wordt nooit verwijderd omdat er niet betaald is."
        actions={
          p.canPay &&
          p.plan !== 'premium' && (
            <Link to={routes.payment(memorialId)} className={buttonClass('primary', 'sm')}>
              <CreditCard aria-hidden className="h-4 w-4" />
              {p.plan === 'basis' && p.state === 'active'
                ? 'Verlengen of Premium kiezen'
                : 'Kies een abonnement'}
            </Link>
          )
        }
      >
        <dl className="mt-6 grid gap-4 sm:grid-cols-2">
          <div>
            <dt className="text-sm text-muted">Nu</dt>
            <dd className="font-medium" data-testid="plan-summary">
              {planSummary(p)}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-muted">Herinneringen</dt>
            <dd className="font-medium">{left ?? `${p.memories.used} gepubliceerd, onbeperkt`}</dd>
          </div>
        </dl>
        {p.state === 'read_only' && (
          <p role="status" className="mt-4 rounded-xl bg-accent-soft p-4 text-sm">
            De pagina is nu alleen te lezen: bezoekers zien alles en kunnen kaarsjes aansteken, maar er kan
            niets nieuws bij tot er een abonnement is gekozen.
          </p>
        )}
      </Section>
      <Section
        title="Betalingen en facturen"
        description="Elke betaling voor deze pagina, de nieuwste eerst, met de factuur van wat betaald is."
      >
        <PaymentList
          payments={p.payments}
          amount={(pay) => formatEuro(pay.amountCents / 100)}
          empty="Er is nog niets betaald voor deze pagina."
          className="mt-4"
        />
      </Section>
    </div>
  );
}
