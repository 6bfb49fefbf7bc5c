import { Link } from 'react-router';
import { CreditCard, Hourglass, Lock } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { buttonClass } from '../ui/button.tsx';
import { Container } from '../ui/container.tsx';
import { useMemorialPlan } from './api.ts';
import { memoriesLeft, planSummary } from './plan-text.ts';

/**
 * Above a memorial for those who can add to it: a read-only page says so (with a way to choose a plan for
 * its managers), a trial's last week and Basis's memories left are announced before they bite. Nothing
 * for a page that is fine.
 */
export default function PlanNotice({ memorialId }: { memorialId: string }) {
  const plan = useMemorialPlan(memorialId);
  if (!plan.data) return null;
  const p = plan.data;
  const left = memoriesLeft(p);
  const endingSoon = p.state === 'active' && p.daysLeft !== null && p.daysLeft <= 7 && !p.paidByCompany;
  if (p.state !== 'read_only' && !endingSoon && !left) return null;
  const choose = p.canPay && (
    <Link to={routes.payment(memorialId)} className={buttonClass('primary', 'sm')}>
      <CreditCard aria-hidden className="h-4 w-4" />
      Kies een abonnement
    </Link>
  );
  return (
    <aside aria-label="Abonnement" className="border-b border-border bg-card" data-testid="plan-notice">
      <Container className="flex gap-4 py-4">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-accent-soft text-accent">
          {p.state === 'read_only' ? (
            <Lock aria-hidden className="h-5 w-5" />
          ) : (
            <Hourglass aria-hidden className="h-5 w-5" />
          )}
        </span>
        <div className="min-w-0">
          {p.state === 'read_only' ? (
            <>
              <p className="font-medium">Deze pagina is alleen te lezen</p>
              <p className="text-sm text-muted">
                {planSummary(p)}. Alles blijft online en bezoekers kunnen kaarsjes aansteken, maar er kan
                niets nieuws bij tot er een abonnement is gekozen.
                {!p.canPay && ' Vraag de eigenaar van de pagina om een abonnement te kiezen.'}
              </p>
            </>
          ) : (
            <>
              <p className="font-medium">{endingSoon ? planSummary(p) : left}</p>
              <p className="text-sm text-muted">
                {endingSoon
                  ? 'Kies op tijd Basis of Premium, dan kan iedereen herinneringen blijven delen.'
                  : 'Met Premium kunnen er onbeperkt herinneringen bij.'}
                {endingSoon && left ? ` ${left}.` : ''}
              </p>
            </>
          )}
          {choose && <div className="mt-3">{choose}</div>}
        </div>
      </Container>
    </aside>
  );
}
