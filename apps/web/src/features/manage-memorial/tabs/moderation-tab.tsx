import { useState } from 'react';
import { Check, Lock, RotateCcw, Trash2, Undo2, X } from 'lucide-react';
import { memoryStatusLabels, type Memorial, type Memory } from '@aandenken/contract';
import { MediaImage } from '../../../components/memorial/media-image.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatRelative } from '../../../lib/memorials/time.ts';
import { toast } from '../../../lib/toast.ts';
import {
  useDeleteMemory,
  useManagedMemories,
  useModerateMemory,
  useSetMembersOnly,
  type ManagedStatus,
} from '../api/moderation.ts';
import { errorText, Section } from '../components/section.tsx';

const filters: { value: ManagedStatus; label: string }[] = [
  { value: 'pending', label: 'Wacht op goedkeuring' },
  { value: 'published', label: 'Gepubliceerd' },
  { value: 'rejected', label: 'Afgewezen' },
];

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
      <div role="group" aria-label="Toon herinneringen" className="flex flex-wrap gap-2">
        {filters.map((f) => (
          <button
            key={f.value}
            type="button"
            aria-pressed={status === f.value}
            onClick={() => setStatus(f.value)}
            className={cn(
              'inline-flex items-center gap-2 rounded-full border px-4 py-2 text-sm font-medium transition-colors',
              status === f.value
                ? 'border-primary bg-primary text-primary-foreground'
                : 'border-border hover:bg-secondary',
            )}
          >
            {f.label}
            {counts && (
              <span
                className={cn(
                  'rounded-full px-2 py-0.5 text-xs',
                  status === f.value ? 'bg-primary-foreground/20' : 'bg-secondary',
                )}
              >
                {counts[f.value]}
              </span>
            )}
          </button>
        ))}
      </div>

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

function ManagedMemory({ memorial, memory }: { memorial: Memorial; memory: Memory }) {
  const moderate = useModerateMemory(memorial.id);
  const privacy = useSetMembersOnly(memorial.id);
  const remove = useDeleteMemory(memorial.id);
  const headingId = `managed-${memory.id}`;
  // The promise, not mutate's callbacks: this row leaves the list (and unmounts) as soon as it is moderated.
  const act = (status: 'published' | 'rejected', success: string) =>
    moderate.mutateAsync({ id: memory.id, status }).then(
      () => toast.success(success),
      (e: unknown) => toast.error('Dat lukte niet', errorText(e)),
    );

  return (
    <li>
      <article
        aria-labelledby={headingId}
        className="rounded-2xl border border-border bg-background-soft p-5"
      >
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <h3 id={headingId} className="font-sans font-semibold">
            {memory.author.name}
            <span className="sr-only">, {memory.yearLabel}</span>
          </h3>
          <span className="text-muted">
            {memory.author.kind === 'guest' ? 'Gast met toegangscode' : 'Lid'}
          </span>
          <span className="text-muted">· {formatRelative(memory.createdAt)}</span>
          <span className="rounded-full bg-secondary px-2 py-0.5 text-xs">
            {memoryStatusLabels[memory.status]}
          </span>
          {memory.membersOnly && (
            <span className="inline-flex items-center gap-1 rounded-full bg-secondary px-2 py-0.5 text-xs">
              <Lock aria-hidden className="h-3 w-3" />
              Alleen voor leden
            </span>
          )}
        </div>
        <p className="mt-3 text-xs font-semibold tracking-[0.18em] text-accent uppercase">
          {memory.yearLabel}
        </p>
        <p className="mt-1 leading-relaxed whitespace-pre-line">{memory.text}</p>
        {memory.media.length > 0 && (
          <ul className="mt-4 flex flex-wrap gap-2" aria-label="Foto’s bij deze herinnering">
            {memory.media.map((item, i) => (
              <li key={item.id}>
                <MediaImage
                  item={item}
                  alt={`Foto ${i + 1}`}
                  sizes="112px"
                  className="h-20 w-28 rounded-lg"
                />
              </li>
            ))}
          </ul>
        )}
        <div className="mt-5 flex flex-wrap items-center gap-2">
          {memory.status === 'pending' && (
            <>
              <Button
                size="sm"
                disabled={moderate.isPending}
                onClick={() => act('published', 'De herinnering staat op de pagina')}
              >
                <Check aria-hidden className="h-4 w-4" />
                Goedkeuren
              </Button>
              <Button
                size="sm"
                variant="outline"
                disabled={moderate.isPending}
                onClick={() => act('rejected', 'De herinnering is afgewezen')}
              >
                <X aria-hidden className="h-4 w-4" />
                Afwijzen
              </Button>
            </>
          )}
          {memory.status === 'published' && (
            <Button
              size="sm"
              variant="outline"
              disabled={moderate.isPending}
              onClick={() => act('rejected', 'De herinnering is offline gehaald')}
            >
              <Undo2 aria-hidden className="h-4 w-4" />
              Offline halen
            </Button>
          )}
          {memory.status === 'rejected' && (
            <Button
              size="sm"
              variant="outline"
              disabled={moderate.isPending}
              onClick={() => act('published', 'De herinnering staat weer op de pagina')}
            >
              <RotateCcw aria-hidden className="h-4 w-4" />
              Toch plaatsen
            </Button>
          )}
          <label className="ml-1 inline-flex cursor-pointer items-center gap-2 rounded-full px-3 py-1.5 text-sm hover:bg-secondary">
            <input
              type="checkbox"
              checked={memory.membersOnly}
              disabled={privacy.isPending}
              onChange={(e) =>
                privacy.mutate(
                  { id: memory.id, membersOnly: e.target.checked },
                  {
                    onSuccess: (m) =>
                      toast.success(
                        m.membersOnly
                          ? 'Alleen nog zichtbaar voor leden'
                          : 'Zichtbaar voor iedereen die de pagina ziet',
                      ),
                    onError: (err) => toast.error('Dat lukte niet', errorText(err)),
                  },
                )
              }
              className="h-4 w-4 accent-[var(--primary)]"
            />
            Alleen voor leden
          </label>
          <ConfirmDialog
            trigger={
              <Button size="sm" variant="ghost" className="ml-auto text-danger hover:bg-danger-soft">
                <Trash2 aria-hidden className="h-4 w-4" />
                Verwijderen
              </Button>
            }
            title="Herinnering verwijderen?"
            description="De herinnering en haar foto’s verdwijnen voorgoed."
            confirmLabel="Verwijderen"
            destructive
            onConfirm={async () => {
              try {
                await remove.mutateAsync(memory.id);
                toast.success('De herinnering is verwijderd');
              } catch (e) {
                toast.error('Verwijderen is niet gelukt', errorText(e));
                throw e;
              }
            }}
          />
        </div>
      </article>
    </li>
  );
}
