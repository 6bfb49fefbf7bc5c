import { useEffect, useId } from 'react';
import { RotateCcw } from 'lucide-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DELETED_MEMORIAL_DAYS,
  DELETED_PAGES_ANCHOR,
  apiPaths,
  deletedMemorialsSchema,
  memorialRestoreResultSchema,
} from '@aandenken/contract';
import { Button } from '../../components/ui/button.tsx';
import { useApiClient } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format.ts';
import { memorialKeys, myMemorialsKey } from '../../lib/memorials/queries.ts';
import { toast } from '../../lib/toast.ts';

const deletedKey = ['memorials', 'deleted'] as const;

/** "Verwijderde pagina's" on Mijn Pagina's: what the signed-in owner deleted and can still restore. */
export function DeletedPages() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const headingId = useId();
  const deleted = useQuery({
    queryKey: deletedKey,
    queryFn: ({ signal }) =>
      client.get(apiPaths.memorialsDeleted(), { schema: deletedMemorialsSchema, signal }),
  });
  const restore = useMutation({
    mutationFn: (id: string) =>
      client.post(apiPaths.memorialRestore(id), undefined, { schema: memorialRestoreResultSchema }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: deletedKey });
      void queryClient.invalidateQueries({ queryKey: myMemorialsKey });
      void queryClient.invalidateQueries({ queryKey: memorialKeys.root });
      toast.success('De pagina is teruggezet en staat weer bij je pagina’s.');
    },
    onError: (err) =>
      toast.error(err instanceof Error ? err.message : 'Dat lukte niet. Probeer het opnieuw.'),
  });

  // Opened from the owners' mail (…/mijn-paginas#verwijderd): bring the section into view once it is there.
  useEffect(() => {
    if (deleted.isSuccess && window.location.hash === `#${DELETED_PAGES_ANCHOR}`)
      document.getElementById(DELETED_PAGES_ANCHOR)?.scrollIntoView({ block: 'start' });
  }, [deleted.isSuccess]);

  return (
    <section id={DELETED_PAGES_ANCHOR} aria-labelledby={headingId} className="mt-14 scroll-mt-24">
      <h2 id={headingId} className="text-2xl font-semibold">
        Verwijderde pagina&apos;s
      </h2>
      <p className="mt-1.5 max-w-2xl text-sm text-muted">
        Een pagina die een eigenaar verwijdert, staat hier {DELETED_MEMORIAL_DAYS} dagen. Zolang kan elke
        eigenaar hem terugzetten, met alles erop.
      </p>
      <div className="mt-5" aria-live="polite">
        {deleted.isPending ? (
          <p className="text-sm text-muted">Even kijken…</p>
        ) : deleted.isError ? (
          <div role="alert" className="text-sm text-danger">
            <p>De verwijderde pagina&apos;s konden niet worden geladen.</p>
            <Button variant="outline" className="mt-3" onClick={() => void deleted.refetch()}>
              Opnieuw proberen
            </Button>
          </div>
        ) : deleted.data.items.length === 0 ? (
          <p className="text-sm text-muted">Je hebt geen verwijderde pagina&apos;s.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {deleted.data.items.map((m) => {
              const name = `${m.firstName} ${m.lastName}`;
              return (
                <li
                  key={m.id}
                  className="flex flex-wrap items-center justify-between gap-4 rounded-2xl border border-border bg-card p-5 text-card-foreground"
                >
                  <div>
                    <p className="font-serif text-xl font-semibold">{name}</p>
                    <p className="mt-1 text-sm text-muted">
                      Verwijderd op {formatDate(m.deletedAt)}; terugzetten kan tot {formatDate(m.removeAfter)}
                      .
                    </p>
                  </div>
                  <Button
                    variant="outline"
                    onClick={() => restore.mutate(m.id)}
                    disabled={restore.isPending}
                    aria-label={`${name} terugzetten`}
                  >
                    <RotateCcw aria-hidden className="h-4 w-4" />
                    Terugzetten
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
