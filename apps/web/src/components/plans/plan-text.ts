import { plans, type MemorialPlan } from '@aandenken/contract';
import { formatCount, formatDate } from '../../lib/format.ts';

/** 'Proefperiode, nog 12 dagen' / 'Basis, betaald tot 3 maart 2027' / 'Premium, voor altijd'. */
export function planSummary(p: MemorialPlan): string {
  if (p.paidByCompany) return `${plans[p.plan].title}, betaald door je uitvaartonderneming`;
  if (p.state === 'read_only')
    return p.plan === 'trial'
      ? `De proefperiode is op ${formatDate(p.endsAt!)} afgelopen`
      : `Het Basis-jaar is op ${formatDate(p.endsAt!)} afgelopen`;
  if (p.plan === 'premium') return 'Premium, voor altijd';
  if (p.plan === 'basis') return `Basis, betaald tot ${formatDate(p.endsAt!)}`;
  return p.daysLeft === 0
    ? 'Proefperiode, vandaag de laatste dag'
    : `Proefperiode met alles van Premium, nog ${formatCount(p.daysLeft ?? 0, 'dag', 'dagen')}`;
}

/** 'Nog 1 herinnering binnen Basis', or null when the plan has no limit. */
export function memoriesLeft(p: MemorialPlan): string | null {
  if (p.memories.max === null) return null;
  const left = Math.max(0, p.memories.max - p.memories.used);
  return left === 0
    ? `Alle ${p.memories.max} herinneringen van Basis zijn gebruikt`
    : `Nog ${formatCount(left, 'herinnering', 'herinneringen')} binnen Basis`;
}

export const paymentStatusLabels: Record<string, string> = {
  open: 'Nog niet betaald',
  pending: 'In behandeling',
  authorized: 'In behandeling',
  paid: 'Betaald',
  failed: 'Mislukt',
  canceled: 'Geannuleerd',
  expired: 'Verlopen',
};
