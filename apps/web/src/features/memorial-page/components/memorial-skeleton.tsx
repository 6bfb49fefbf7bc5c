import { Container } from '../../../components/ui/container.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';

/** The page's shape while it loads, so nothing jumps when it arrives. */
export function MemorialSkeleton() {
  return (
    <div role="status" aria-label="Gedenkpagina laden">
      <div className="border-b border-border bg-background-soft">
        <Container className="grid items-center gap-8 py-10 sm:py-14 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:gap-14">
          <Skeleton className="mx-auto aspect-[4/5] w-full max-w-sm rounded-[2rem] lg:max-w-none" />
          <div className="flex flex-col items-center gap-4 lg:items-start">
            <Skeleton className="h-3 w-40" />
            <Skeleton className="h-12 w-72 max-w-full" />
            <Skeleton className="h-5 w-32" />
            <Skeleton className="mt-4 h-20 w-full max-w-md" />
          </div>
        </Container>
      </div>
      <Container className="py-14">
        <Skeleton className="h-8 w-56" />
        <div className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-64 rounded-2xl" />
          ))}
        </div>
      </Container>
    </div>
  );
}
