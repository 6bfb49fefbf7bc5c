import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Archive, Eye, KeyRound, Settings2 } from 'lucide-react';
import { routes, type Memorial } from '@aandenken/contract';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { toast } from '../../../lib/toast.ts';
import { usePublishMemorial } from '../api/publish-memorial.ts';
import type { Viewer } from '../viewer.ts';

// Only a concept's managers see it: Radix's alert dialog stays out of everyone else's page.
const ConfirmDialog = lazy(() =>
  import('../../../components/ui/confirm-dialog.tsx').then((m) => ({ default: m.ConfirmDialog })),
);

/** Notes above the page: a concept (for its managers), an archived page, a visit with the access code. */
export function StatusBanners({ memorial, viewer }: { memorial: Memorial; viewer: Viewer }) {
  const publish = usePublishMemorial(memorial.id);
  return (
    <>
      {memorial.status === 'concept' && viewer.canManage && (
        <Banner tone="accent" icon={<Eye aria-hidden className="h-5 w-5" />} label="Concept">
          <p className="font-medium">Deze pagina is nog een concept.</p>
          <p className="text-sm text-muted">
            Alleen jij en de andere beheerders zien hem. Vul hem aan en publiceer hem wanneer je er klaar voor
            bent.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Link to={routes.memorialManage(memorial.id)} className={buttonClass('outline', 'sm')}>
              <Settings2 aria-hidden className="h-4 w-4" />
              Pagina inrichten
            </Link>
            <Suspense fallback={<Button size="sm">Publiceren</Button>}>
              <ConfirmDialog
                trigger={<Button size="sm">Publiceren</Button>}
                title="Pagina publiceren?"
                description={
                  memorial.visibility === 'private'
                    ? 'De pagina wordt zichtbaar voor leden en voor iedereen met de toegangscode. Hij blijft besloten.'
                    : 'De pagina wordt zichtbaar voor iedereen met de link.'
                }
                confirmLabel="Publiceren"
                onConfirm={async () => {
                  try {
                    await publish.mutateAsync();
                    toast.success('De pagina is gepubliceerd');
                  } catch (error) {
                    toast.error(
                      'Publiceren is niet gelukt',
                      error instanceof Error ? error.message : undefined,
                    );
                    throw error;
                  }
                }}
              />
            </Suspense>
          </div>
        </Banner>
      )}
      {memorial.status === 'archived' && (
        <Banner tone="muted" icon={<Archive aria-hidden className="h-5 w-5" />} label="Gearchiveerd">
          <p className="font-medium">Deze pagina is gearchiveerd.</p>
          <p className="text-sm text-muted">
            Alleen de leden van de pagina kunnen hem nog lezen. Er kunnen geen herinneringen, foto’s, kaarsjes
            of bloemen meer bij.
          </p>
        </Banner>
      )}
      {viewer.isGuestVisit && (
        <Banner tone="primary" icon={<KeyRound aria-hidden className="h-5 w-5" />} label="Gastbezoek">
          <p className="font-medium">Je bezoekt deze pagina als gast.</p>
          <p className="text-sm text-muted">
            Met de toegangscode kun je een kaarsje aansteken en een herinnering delen. Herinneringen van
            gasten verschijnen nadat de familie ze heeft goedgekeurd.
          </p>
        </Banner>
      )}
    </>
  );
}

function Banner({
  tone,
  icon,
  label,
  children,
}: {
  tone: 'accent' | 'primary' | 'muted';
  icon: React.ReactNode;
  label: string;
  children: React.ReactNode;
}) {
  const colors = {
    accent: 'bg-accent-soft text-accent',
    primary: 'bg-success-soft text-primary',
    muted: 'bg-secondary text-foreground',
  }[tone];
  return (
    <aside aria-label={label} className="border-b border-border bg-card">
      <Container className="flex gap-4 py-4">
        <span className={`flex h-10 w-10 shrink-0 items-center justify-center rounded-xl ${colors}`}>
          {icon}
        </span>
        <div className="min-w-0">{children}</div>
      </Container>
    </aside>
  );
}
