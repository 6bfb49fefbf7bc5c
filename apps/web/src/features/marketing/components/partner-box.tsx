import { Link } from 'react-router';
import { BadgeCheck, Building2, Clock, Smile, Users } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { Container } from '../../../components/ui/container.tsx';
import { claims } from '../../../content/company.ts';
import { formatEuro } from '../../../lib/format.ts';

/** 'Ben je uitvaartondernemer?' with the marketing claims. */
export function PartnerBox() {
  const stats = [
    { Icon: Users, value: claims.activePartners, label: 'actieve partners' },
    { Icon: Smile, value: claims.familySatisfaction, label: 'tevreden families' },
    { Icon: BadgeCheck, value: `${claims.approvalHours} uur`, label: 'goedkeuring als partner' },
    { Icon: Clock, value: `${claims.pageWorkingDays} werkdagen`, label: 'tot je pagina klaarstaat' },
  ];
  return (
    <Container className="py-6">
      <div className="grid gap-8 rounded-3xl border border-border bg-card p-7 shadow-soft sm:p-10 lg:grid-cols-[1fr_1.4fr] lg:items-center">
        <div>
          <div className="flex h-11 w-11 items-center justify-center rounded-xl bg-accent-soft text-accent">
            <Building2 aria-hidden className="h-5 w-5" />
          </div>
          <h2 className="mt-5 text-2xl font-semibold sm:text-3xl">Ben je uitvaartondernemer?</h2>
          <p className="mt-3 leading-relaxed text-muted">
            Bied families een blijvende plek om te herdenken. Partnerschap vanaf{' '}
            <strong className="font-semibold text-foreground">{formatEuro(claims.partnerPriceFrom)}</strong>,
            met persoonlijke begeleiding.{' '}
            <Link
              to={routes.partner}
              className="font-semibold text-primary underline decoration-primary/40 underline-offset-4 hover:decoration-primary"
            >
              Klik hier
            </Link>
          </p>
        </div>
        <ul className="grid grid-cols-2 gap-4">
          {stats.map(({ Icon, value, label }) => (
            <li key={label} className="rounded-2xl bg-background-soft p-5">
              <Icon aria-hidden className="h-5 w-5 text-primary" />
              <p className="mt-3 font-serif text-xl font-semibold sm:text-2xl">{value}</p>
              <p className="text-sm text-muted">{label}</p>
            </li>
          ))}
        </ul>
      </div>
    </Container>
  );
}
