import { useEffect, useRef, useState } from 'react';
import { Clock, PenLine } from 'lucide-react';
import type { MediaItem, Memorial, Memory } from '@aandenken/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { toast } from '../../../lib/toast.ts';
import { useOwnMemories, useToggleLove, useWall } from '../api/wall.ts';
import type { Viewer } from '../viewer.ts';
import { MemoryCard } from './memory-card.tsx';
import { PhotoViewer } from './photo-viewer-lazy.tsx';

/**
 * Calls `onVisible` whenever the returned element scrolls near the screen. Observing starts afresh with
 * each new `pages` count: an observer reports only changes after its first answer, so a sentinel still near
 * the screen when a page has arrived (a tall screen, a visitor waiting at the end) would load no more.
 */
function useSentinel(onVisible: () => void, active: boolean, pages: number) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  useEffect(() => {
    callback.current = onVisible;
  });
  useEffect(() => {
    const el = ref.current;
    if (!el || !active || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && callback.current(),
      { rootMargin: '600px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [active, pages]);
  return ref;
}

/** 'Herinneringen': newest first, 1 / 2 / 3 columns, more loading as one scrolls (or with the button). */
export function MemoryWall({
  memorial,
  viewer,
  onAddMemory,
}: {
  memorial: Memorial;
  viewer: Viewer;
  onAddMemory: () => void;
}) {
  const wall = useWall(memorial.id);
  const love = useToggleLove(memorial.id);
  const own = useOwnMemories(memorial.id, viewer.canAddMemory);
  const [viewing, setViewing] = useState<{ items: MediaItem[]; index: number } | null>(null);
  const canLoadMore = wall.hasNextPage && !wall.isFetchingNextPage && !wall.isError;
  const sentinel = useSentinel(
    () => canLoadMore && void wall.fetchNextPage(),
    !!wall.hasNextPage,
    wall.data?.pages.length ?? 0,
  );

  const memories = wall.data?.pages.flatMap((p) => p.items) ?? [];
  const waiting = (own.data?.items ?? []).filter((m) => m.status === 'pending');

  const toggleLove = (memory: Memory) =>
    love.mutate(
      { id: memory.id, loved: !memory.lovedBy.byMe },
      {
        onError: (error) => toast.error('Dat lukte niet', error instanceof Error ? error.message : undefined),
      },
    );

  return (
    <section
      id="herinneringen"
      aria-labelledby="memories-heading"
      className="below-fold scroll-mt-20 py-14 sm:py-20"
    >
      <Container>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h2 id="memories-heading" className="text-3xl font-semibold sm:text-4xl">
              Herinneringen
            </h2>
            <p className="mt-2 text-muted">Verhalen en foto’s van familie en vrienden, de nieuwste eerst.</p>
          </div>
          {viewer.canAddMemory && memories.length > 0 && (
            <Button variant="secondary" onClick={onAddMemory}>
              <PenLine aria-hidden className="h-4 w-4" />
              Deel een herinnering
            </Button>
          )}
        </div>

        {waiting.length > 0 && (
          <div role="status" className="mt-8 flex gap-3 rounded-2xl border border-border bg-card p-5">
            <Clock aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-accent" />
            <div>
              <p className="font-medium">
                {waiting.length === 1
                  ? 'Je herinnering wacht op goedkeuring'
                  : `${waiting.length} van je herinneringen wachten op goedkeuring`}
              </p>
              <p className="mt-1 text-sm text-muted">
                De familie bekijkt herinneringen van gasten voordat ze op de pagina verschijnen.
              </p>
              <ul className="mt-2 list-disc pl-5 text-sm text-muted">
                {waiting.map((m) => (
                  <li key={m.id}>
                    {m.yearLabel}: {m.text.length > 80 ? `${m.text.slice(0, 80)}…` : m.text}
                  </li>
                ))}
              </ul>
            </div>
          </div>
        )}

        {wall.isPending ? (
          <ul
            aria-label="Herinneringen laden"
            aria-busy="true"
            className="mt-10 grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3"
          >
            {[0, 1, 2].map((i) => (
              <li key={i}>
                <Skeleton className="h-72 rounded-2xl" />
              </li>
            ))}
          </ul>
        ) : wall.isError && memories.length === 0 ? (
          <div
            role="alert"
            className="mt-10 rounded-2xl border border-danger/40 bg-danger-soft p-6 text-danger"
          >
            <p>De herinneringen konden niet worden geladen. {wall.error.message}</p>
            <Button variant="outline" className="mt-4" onClick={() => void wall.refetch()}>
              Opnieuw proberen
            </Button>
          </div>
        ) : memories.length === 0 ? (
          <div className="mt-10 rounded-3xl border border-dashed border-border bg-card px-6 py-14 text-center">
            <p className="font-serif text-2xl">Nog geen herinneringen</p>
            <p className="mx-auto mt-3 max-w-md text-muted">
              {viewer.canAddMemory
                ? `Deel als eerste een herinnering aan ${memorial.firstName}: een moment, een verhaal, een foto.`
                : `Hier verschijnen de herinneringen die familie en vrienden aan ${memorial.firstName} delen.`}
            </p>
            {viewer.canAddMemory && (
              <Button size="lg" className="mt-7" onClick={onAddMemory}>
                <PenLine aria-hidden className="h-4 w-4" />
                Deel de eerste herinnering
              </Button>
            )}
          </div>
        ) : (
          <>
            <ul
              data-testid="memory-wall"
              className="mt-10 grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3"
            >
              {memories.map((memory) => (
                <li key={memory.id}>
                  <MemoryCard
                    memory={memory}
                    canLove={viewer.canLove}
                    onToggleLove={toggleLove}
                    onOpenPhoto={(items, index) => setViewing({ items, index })}
                  />
                </li>
              ))}
            </ul>
            <div ref={sentinel} aria-hidden className="h-px" />
            <div className="mt-10 flex justify-center">
              {wall.isFetchingNextPage ? (
                <Spinner label="Meer herinneringen laden" className="text-muted" />
              ) : wall.hasNextPage ? (
                <Button variant="outline" onClick={() => void wall.fetchNextPage()}>
                  Meer laden
                </Button>
              ) : wall.isError ? (
                <Button variant="outline" onClick={() => void wall.fetchNextPage()}>
                  Opnieuw proberen
                </Button>
              ) : memories.length > 6 ? (
                <p className="text-sm text-muted">Je hebt alle herinneringen gezien.</p>
              ) : null}
            </div>
          </>
        )}
      </Container>
      <PhotoViewer
        items={viewing?.items ?? []}
        index={viewing?.index ?? null}
        onIndexChange={(index) => setViewing((v) => (v && index !== null ? { ...v, index } : null))}
        title="Foto’s bij een herinnering"
      />
    </section>
  );
}
