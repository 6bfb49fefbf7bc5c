import type { ReactNode } from 'react';
import { RotateCcw } from 'lucide-react';
import { Button } from './button.tsx';

interface QueryLike<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  isRefetching?: boolean;
  refetch: () => unknown;
}

/**
 * What a list or panel shows while its data loads, when loading failed (with the reason and a way to try
 * again: a failure never reads as "nothing here"), and when it is there.
 */
export function QueryState<T>({
  query,
  skeleton,
  error,
  children,
}: {
  query: QueryLike<T>;
  skeleton: ReactNode;
  /** A whole Dutch sentence, e.g. 'Het logboek kon niet worden geladen.' */
  error: string;
  /** Rendered only once the data is there. */
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <>{skeleton}</>;
  if (query.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-2xl border border-danger/40 p-4">
        <p className="text-danger">
          {error} {query.error?.message}
        </p>
        <Button
          variant="outline"
          size="sm"
          disabled={query.isRefetching}
          onClick={() => void query.refetch()}
        >
          <RotateCcw aria-hidden className="h-4 w-4" />
          Opnieuw proberen
        </Button>
      </div>
    );
  }
  return <>{children(query.data as T)}</>;
}
