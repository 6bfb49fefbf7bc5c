import { Link } from 'react-router';
import { Check, Sparkles } from 'lucide-react';
import { pricingPlans, routes, type PricingPlan } from '@aandenken/contract';
import { buttonClass } from '../../../components/ui/button.tsx';
import { Container, Eyebrow } from '../../../components/ui/container.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatEuro } from '../../../lib/format.ts';

/** 'Prijzen' with the two plans. The whole card leads to /create-memorial. */
export function PricingSection({ headingLevel = 2 }: { headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section aria-labelledby="pricing-heading" className="py-20 sm:py-24">
      <Container>
        <div className="mx-auto max-w-2xl text-center">
          <Eyebrow>Eerlijk en overzichtelijk</Eyebrow>
          <Heading id="pricing-heading" className="mt-3 text-3xl font-semibold sm:text-4xl">
            Prijzen
          </Heading>
          <p className="mt-4 text-lg text-muted">
            Maak een herinneringspagina en vul die met verhalen en foto’s. Probeer het eerst gratis; je kiest
            pas een pakket als de pagina je bevalt.
          </p>
        </div>
        <ul className="mx-auto mt-14 grid max-w-4xl gap-6 md:grid-cols-2">
          {pricingPlans.map((plan) => (
            <li key={plan.title}>
              <PlanCard plan={plan} />
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}

function PlanCard({ plan }: { plan: PricingPlan }) {
  const popular = plan.popular === 1;
  return (
    <article
      data-testid={`plan-${plan.title}`}
      className={cn(
        'group relative flex h-full flex-col rounded-3xl border bg-card p-8 text-card-foreground shadow-soft transition-all duration-200 hover:-translate-y-0.5 hover:shadow-lift',
        popular ? 'border-primary ring-1 ring-primary' : 'border-border',
      )}
    >
      <div className="flex items-center justify-between gap-3">
        <h3 className="text-2xl font-semibold">{plan.title}</h3>
        {popular && (
          <span className="inline-flex items-center gap-1.5 rounded-full bg-primary px-3 py-1 text-xs font-semibold text-primary-foreground">
            <Sparkles aria-hidden className="h-3.5 w-3.5" />
            Populair
          </span>
        )}
      </div>
      <p className="mt-3 text-muted">{plan.description}</p>
      <p className="mt-6 flex items-baseline gap-1.5">
        <span className="font-serif text-5xl font-semibold">{formatEuro(plan.price)}</span>
        <span className="text-muted">{plan.subscriptionLength}</span>
      </p>
      <Link
        to={routes.createMemorial}
        aria-label={`${plan.buttonText} met ${plan.title}`}
        className={cn(
          buttonClass(popular ? 'primary' : 'secondary', 'lg', 'mt-7 w-full'),
          // The link covers the whole card, so a click anywhere on it starts the create flow.
          'after:absolute after:inset-0 after:rounded-3xl after:content-[""]',
        )}
      >
        {plan.buttonText}
      </Link>
      <ul className="mt-8 flex flex-col gap-3 border-t border-border pt-7">
        {plan.benefitList.map((benefit) => (
          <li key={benefit} className="flex items-start gap-3">
            <span className="mt-0.5 flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-success-soft text-success">
              <Check aria-hidden className="h-3.5 w-3.5" strokeWidth={3} />
            </span>
            <span>{benefit}</span>
          </li>
        ))}
      </ul>
    </article>
  );
}
