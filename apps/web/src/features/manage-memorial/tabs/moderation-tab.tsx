import { useState } from 'react';
import type { Memorial } from '@aandenken/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useManagedMemories, type ManagedStatus } from '../api/moderation.ts';
import { ManagedMemory } from '../components/moderation/managed-memory.tsx';
import { filters, StatusFilter } from '../components/moderation/status-filter.tsx';
import { Section } from '../components/section.tsx';

/** The moderation queue: approve or reject guests' memories; members-only; take down or delete. */
export function ModerationTab({ memorial }: { memorial: Memorial }) {
  const [status, setStatus] = useState<ManagedStatus>('pending');
  const list = useManagedMemories(memorial.id, status);
  const counts = list.data?.pages[0]?.counts;
  const memories = list.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <Section
      title="Herinneringen"
      description="Herinneringen van gasten verschijnen pas op de pagina als jij of een andere beheerder ze goedkeurt. Leden met een account kunnen direct plaatsen."
    >
      <StatusFilter status={status} counts={counts} onChange={setStatus} />

      <div className="mt-6">
        <QueryState
          query={list}
          skeleton={
            <div className="flex flex-col gap-3">
              {[0, 1].map((i) => (
                <Skeleton key={i} className="h-36 rounded-2xl" />
              ))}
            </div>
          }
          error="De herinneringen konden niet worden geladen."
        >
          {() =>
            memories.length === 0 ? (
              <p className="rounded-2xl border border-dashed border-border p-8 text-center text-muted">
                {status === 'pending'
                  ? 'Er wachten geen herinneringen op goedkeuring.'
                  : status === 'published'
                    ? 'Nog geen gepubliceerde herinneringen.'
                    : 'Geen afgewezen herinneringen.'}
              </p>
            ) : (
              <ul className="flex flex-col gap-4" aria-label={filters.find((f) => f.value === status)!.label}>
                {memories.map((m) => (
                  <ManagedMemory key={m.id} memorial={memorial} memory={m} />
                ))}
              </ul>
            )
          }
        </QueryState>
        {list.hasNextPage && (
          <Button
            variant="outline"
            className="mt-5"
            disabled={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            Meer laden
          </Button>
        )}
      </div>
    </Section>
  );
}
