import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { roleAtLeast } from '@aandenken/contract';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { readGuestAccess } from '../../lib/memorials/guest-access.ts';
import { fullName } from '../../lib/memorials/life.ts';
import { useGallery, useMemorial } from '../../lib/memorials/queries.ts';
import { useViewerScope } from '../../lib/memorials/scope.tsx';
import { island } from '../../lib/island.tsx';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { WhenNear } from '../../lib/when-near.tsx';
import type { Viewer } from './viewer.ts';
import { BiographySection } from './components/biography-section.tsx';
import { Gallery } from './components/gallery.tsx';
import { MemorialHero } from './components/memorial-hero.tsx';
import { MemorialSkeleton } from './components/memorial-skeleton.tsx';
import { StatusBanners } from './components/status-banners.tsx';

// The plan's notice (read-only, trial ending, Basis's memories left): its own chunk, for those who can add.
const PlanNotice = lazy(() => import('../../components/plans/plan-notice.tsx'));
// The dialog with its form, upload and validation code loads when it is first opened.
const AddMemoryDialog = lazy(() =>
  import('./components/add-memory-dialog.tsx').then((m) => ({ default: m.AddMemoryDialog })),
);

// The memories and the candles: interactive, below the first screen, and the heaviest part of the page's script
// (the wall's cards and their loading, the candle form with the form library): each an island of its own
// chunk that the server renders in full and the browser hydrates when the visitor comes near it or uses it
// (lib/island.tsx, decision 019).
const MemoryWall = island('memories', () => import('./components/memory-wall.tsx').then((m) => m.MemoryWall));
const CandlesSection = island('candles', () =>
  import('./components/candles-section.tsx').then((m) => m.CandlesSection),
);

// The funeral day's services (docs/funeral-day.md): their own chunk and read, after the page is up; never
// in the server's HTML (it is cached per memorial version, while the services' place depends on the day).
const ServicesSection = lazy(() => import('./components/services-section.tsx'));
// 'Samen herdenken': kaarsjesmomenten and remembrance days, the same way (the live panel is a chunk of its own).
const RemembranceSection = lazy(() => import('./components/remembrance-section.tsx'));
// A visitor's memory for the family, where they turned it on (public pages only): its own chunk.
const VisitorMemorySection = lazy(() => import('./components/visitor-memory.tsx'));
// 'Blijf verbonden' (future messages and anniversary reminders by mail): its own chunk, after the page is up.
const StayConnectedSection = lazy(() => import('./components/stay-connected-section.tsx'));

export function MemorialView({ id }: { id: string }) {
  const auth = useAuth();
  const scope = useViewerScope();
  const memorialQuery = useMemorial(id);
  const gallery = useGallery(id, memorialQuery.isSuccess);
  const [addOpen, setAddOpen] = useState(false);
  const hydrated = useHydrated();
  const [addUsed, setAddUsed] = useState(false);
  if (addOpen && !addUsed) setAddUsed(true);
  const openAdd = useCallback(() => setAddOpen(true), []);

  const viewer = useMemo<Viewer | null>(() => {
    const m = memorialQuery.data;
    if (!m) return null;
    const guestToken = scope === 'guest' || auth.status !== 'authenticated';
    const isGuestVisit = m.role === 'guest' && guestToken;
    const guest = isGuestVisit ? readGuestAccess() : null;
    return {
      canManage: roleAtLeast(m.role, 'editor'),
      canAddMemory: m.status !== 'archived' && roleAtLeast(m.role, 'guest'),
      canLightCandle: m.status !== 'archived',
      canLove: roleAtLeast(m.role, 'guest'),
      isGuestVisit,
      defaultName: (!isGuestVisit && auth.user?.name) || guest?.name || '',
    };
  }, [memorialQuery.data, scope, auth.status, auth.user]);

  if (!memorialQuery.data || !viewer) return <MemorialSkeleton />;
  const memorial = memorialQuery.data;
  const photos = (gallery.data?.items ?? []).filter((m) => m.status !== 'failed');
  const cover =
    photos.find((p) => p.id === memorial.coverMediaId && p.kind === 'image') ??
    photos.find((p) => p.kind === 'image') ??
    null;

  return (
    <article aria-labelledby="memorial-name" className="pb-10">
      <title>{`${fullName(memorial)} · Aandenken`}</title>
      <StatusBanners memorial={memorial} viewer={viewer} />
      {hydrated && viewer.canAddMemory && memorial.status !== 'concept' && (
        <Suspense fallback={null}>
          <PlanNotice memorialId={memorial.id} />
        </Suspense>
      )}
      <MemorialHero memorial={memorial} cover={cover} viewer={viewer} onAddMemory={openAdd} />
      {hydrated && (
        <Suspense fallback={null}>
          <ServicesSection memorial={memorial} placement="upcoming" defaultName={viewer.defaultName} />
        </Suspense>
      )}
      {/* Each section below the first screen its own Suspense boundary: React hydrates the server's HTML
          one boundary at a time (smaller tasks), the one being used first. Nothing in them suspends. */}
      <Suspense fallback={null}>
        <Gallery memorial={memorial} photos={photos} loading={gallery.isPending} />
      </Suspense>
      <Suspense fallback={null}>
        <BiographySection memorial={memorial} canManage={viewer.canManage} />
      </Suspense>
      <MemoryWall memorial={memorial} viewer={viewer} onAddMemory={openAdd} />
      {hydrated && (
        <Suspense fallback={null}>
          <ServicesSection memorial={memorial} placement="past" defaultName={viewer.defaultName} />
        </Suspense>
      )}
      {/* Read and loaded once the visitor comes near them (they are far below the first screen). */}
      {hydrated && memorial.status !== 'concept' && (
        <WhenNear>
          <Suspense fallback={null}>
            <RemembranceSection memorial={memorial} />
          </Suspense>
        </WhenNear>
      )}
      <CandlesSection memorial={memorial} defaultName={viewer.defaultName} canLight={viewer.canLightCandle} />
      {hydrated &&
        memorial.role === 'visitor' &&
        memorial.visitorMemories &&
        memorial.status === 'active' && (
          <Suspense fallback={null}>
            <VisitorMemorySection memorial={memorial} />
          </Suspense>
        )}
      {hydrated && memorial.status === 'active' && (
        <WhenNear>
          <Suspense fallback={null}>
            <StayConnectedSection memorial={memorial} />
          </Suspense>
        </WhenNear>
      )}
      {viewer.canAddMemory && (addOpen || addUsed) && (
        <Suspense fallback={null}>
          <AddMemoryDialog open={addOpen} onOpenChange={setAddOpen} memorial={memorial} viewer={viewer} />
        </Suspense>
      )}
    </article>
  );
}
