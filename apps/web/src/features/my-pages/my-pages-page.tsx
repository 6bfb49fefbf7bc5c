import { Link } from 'react-router';
import { ArrowRight, Flame, Heart, Image as ImageIcon, Plus, Settings2, Users } from 'lucide-react';
import {
  memberRoleLabels,
  memorialStatusLabels,
  memorialVisibilityLabels,
  roleAtLeast,
  routes,
} from '@aandenken/contract';
import { Container } from '../../components/ui/container.tsx';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { useSignInRequired } from '../../components/auth/sign-in-required.ts';
import { cn } from '../../lib/cn.ts';
import { formatCount } from '../../lib/format.ts';
import { lifeYears } from '../../lib/memorials/life.ts';
import { PlanLine } from '../../components/plans/plan-line.tsx';
import { useMyMemorials } from './api/get-my-memorials.ts';
import { DeletedPages } from './deleted-pages.tsx';

/** /mijn-paginas: the memorials the signed-in user belongs to, each linking to its page. */
export default function MyPagesPage() {
  const auth = useSignInRequired();
  const signedIn = auth.status === 'authenticated';
  const memorials = useMyMemorials(signedIn);

  return (
    <Container className="py-12 sm:py-16">
      <title>Mijn Pagina's · Aandenken</title>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold sm:text-4xl">Mijn Pagina's</h1>
          <p className="mt-2 text-muted">De gedenkpagina's die je beheert of waaraan je bijdraagt.</p>
        </div>
        {signedIn && (memorials.data?.items.length ?? 0) > 0 && (
          <Link to={routes.createMemorial} className={buttonClass('secondary', 'md')}>
            <Plus aria-hidden className="h-4 w-4" />
            Maak een pagina
          </Link>
        )}
      </div>

      {!signedIn || memorials.isPending ? (
        <PageSpinner />
      ) : memorials.isError ? (
        <div
          role="alert"
          className="mt-10 rounded-2xl border border-danger/40 bg-danger-soft p-6 text-danger"
        >
          <p>Je pagina's konden niet worden geladen. {memorials.error.message}</p>
          <Button variant="outline" className="mt-4" onClick={() => void memorials.refetch()}>
            Opnieuw proberen
          </Button>
        </div>
      ) : memorials.data.items.length === 0 ? (
        <div className="mt-10 rounded-3xl border border-dashed border-border bg-card p-10 text-center">
          <p className="text-lg">Je hebt nog geen gedenkpagina's.</p>
          <p className="mt-2 text-muted">
            Maak een pagina om herinneringen, foto's en verhalen te verzamelen.
          </p>
          <Link to={routes.createMemorial} className={buttonClass('primary', 'lg', 'mt-6')}>
            Maak een pagina
          </Link>
        </div>
      ) : (
        <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {memorials.data.items.map((m) => {
            const years = lifeYears(m);
            return (
              <li
                key={m.id}
                className="flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-card shadow-soft transition hover:shadow-lift"
              >
                <Link to={routes.memorialBySlug(m.slug)} className="group flex flex-1 flex-col p-6">
                  <span className="flex flex-wrap items-center gap-2 text-xs">
                    <span
                      className={cn(
                        'rounded-full px-2.5 py-0.5 font-medium',
                        m.status === 'active' ? 'bg-success-soft text-success' : 'bg-secondary',
                      )}
                    >
                      {memorialStatusLabels[m.status]}
                    </span>
                    <span className="rounded-full bg-secondary px-2.5 py-0.5 font-medium">
                      {memorialVisibilityLabels[m.visibility]}
                    </span>
                    <span className="text-muted">{memberRoleLabels[m.role]}</span>
                  </span>
                  <span className="mt-4 font-serif text-2xl font-semibold">
                    {m.firstName} {m.lastName}
                  </span>
                  {years && <span className="mt-1 text-sm tracking-[0.15em] text-accent">{years}</span>}
                  <span className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted">
                    <span className="inline-flex items-center gap-1.5">
                      <Heart aria-hidden className="h-3.5 w-3.5" />
                      {formatCount(m.counts.memories, 'herinnering', 'herinneringen')}
                    </span>
                    <span className="inline-flex items-center gap-1.5">
                      <Flame aria-hidden className="h-3.5 w-3.5" />
                      {formatCount(m.counts.candles, 'kaarsje', 'kaarsjes')}
                    </span>
                    <span className="inline-flex items-center gap-1.5">
                      <ImageIcon aria-hidden className="h-3.5 w-3.5" />
                      {formatCount(m.counts.media, 'foto', "foto's")}
                    </span>
                    <span className="inline-flex items-center gap-1.5">
                      <Users aria-hidden className="h-3.5 w-3.5" />
                      {formatCount(m.counts.members, 'lid', 'leden')}
                    </span>
                  </span>
                  <span className="mt-auto flex items-center gap-1.5 pt-6 text-sm font-medium text-primary">
                    Bekijk pagina
                    <ArrowRight aria-hidden className="h-4 w-4 transition group-hover:translate-x-0.5" />
                  </span>
                </Link>
                {roleAtLeast(m.role, 'editor') && (
                  <div className="flex flex-col gap-2 border-t border-border px-6 py-3">
                    <PlanLine memorialId={m.id} />
                    <Link
                      to={routes.memorialManage(m.id)}
                      aria-label={`${m.firstName} ${m.lastName} beheren`}
                      className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium hover:underline"
                    >
                      <Settings2 aria-hidden className="h-4 w-4" />
                      Beheren
                    </Link>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {signedIn && memorials.isSuccess && <DeletedPages />}
    </Container>
  );
}
