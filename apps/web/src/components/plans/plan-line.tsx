import { Link } from 'react-router';
import { CreditCard } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { useMemorialPlan } from './api.ts';
import { planSummary } from './plan-text.ts';

/** On a card of 'Mijn Pagina's', for managers: the plan and its period, linking to its payments and invoices. */
export function PlanLine({ memorialId }: { memorialId: string }) {
  const plan = useMemorialPlan(memorialId);
  if (!plan.data) return null;
  return (
    <Link
      to={routes.memorialManage(memorialId, 'abonnement')}
      className="inline-flex items-center gap-1.5 rounded-md text-sm text-muted hover:text-foreground hover:underline"
      data-testid="plan-line"
    >
      <CreditCard aria-hidden className="h-4 w-4" />
      {planSummary(plan.data)}
      {plan.data.payments.some((p) => p.invoice) && ' · facturen'}
    </Link>
  );
}
