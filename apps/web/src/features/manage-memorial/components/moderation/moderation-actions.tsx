import { Check, RotateCcw, Trash2, Undo2, X } from 'lucide-react';
import type { Memorial, Memory } from '@aandenken/contract';
import { Button } from '../../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog.tsx';
import { toast } from '../../../../lib/toast.ts';
import { useDeleteMemory, useModerateMemory, useSetMembersOnly } from '../../api/moderation.ts';
import { errorText } from '../section.tsx';

/** Approve, reject, take down or put back; members only; delete. */
export function ModerationActions({ memorial, memory }: { memorial: Memorial; memory: Memory }) {
  const moderate = useModerateMemory(memorial.id);
  const privacy = useSetMembersOnly(memorial.id);
  const remove = useDeleteMemory(memorial.id);
  // The promise, not mutate's callbacks: this row leaves the list (and unmounts) as soon as it is moderated.
  const act = (status: 'published' | 'rejected', success: string) =>
    moderate.mutateAsync({ id: memory.id, status }).then(
      () => toast.success(success),
      (e: unknown) => toast.error('Dat lukte niet', errorText(e)),
    );

  return (
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
  );
}
