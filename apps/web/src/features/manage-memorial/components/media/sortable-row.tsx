import { useEffect, useRef } from 'react';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ArrowDown, ArrowUp, GripVertical, Loader2, Star, Trash2 } from 'lucide-react';
import type { MediaItem, Memorial } from '@aandenken/contract';
import { MediaImage } from '../../../../components/memorial/media-image.tsx';
import { Button } from '../../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog.tsx';
import { cn } from '../../../../lib/cn.ts';
import { toast } from '../../../../lib/toast.ts';
import { useUpdateMemorial } from '../../api/details.ts';
import { useDeleteMedia } from '../../api/media.ts';
import { errorText } from '../section.tsx';
import { CaptionField } from './caption-field.tsx';

/** One photo or video of the gallery: grip, thumbnail, caption, Omhoog/Omlaag, cover, delete. */
export function SortableRow({
  memorial,
  item,
  index,
  total,
  onMove,
  onKeyMove,
  focusGrip,
  onFocused,
}: {
  memorial: Memorial;
  item: MediaItem;
  index: number;
  total: number;
  onMove: (from: number, to: number) => void;
  onKeyMove: (from: number, to: number) => void;
  focusGrip: boolean;
  onFocused: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: item.id });
  const grip = useRef<HTMLButtonElement | null>(null);
  // A row moved by the keyboard keeps the focus on its grip, so the next arrow press moves it further.
  useEffect(() => {
    if (focusGrip) {
      grip.current?.focus();
      onFocused();
    }
  }, [focusGrip, index, onFocused]);
  const remove = useDeleteMedia(memorial.id);
  const cover = useUpdateMemorial(memorial.id);
  const label = `${item.kind === 'video' ? 'Video' : 'Foto'} ${index + 1}`;
  const isCover = memorial.coverMediaId === item.id;

  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={cn(
        'flex flex-col gap-4 rounded-2xl border border-border bg-card p-3 sm:flex-row sm:items-center',
        isDragging && 'relative z-10 shadow-lift ring-2 ring-primary',
      )}
    >
      <div className="flex items-center gap-3">
        <button
          type="button"
          ref={(el) => {
            setActivatorNodeRef(el);
            grip.current = el;
          }}
          {...attributes}
          {...listeners}
          onKeyDown={(e) => {
            const to = { ArrowUp: index - 1, ArrowDown: index + 1, Home: 0, End: total - 1 }[e.key];
            if (to === undefined) return;
            e.preventDefault();
            onKeyMove(index, to);
          }}
          aria-label={`${label} verslepen`}
          className="flex h-11 w-8 shrink-0 cursor-grab touch-none items-center justify-center rounded-lg text-muted hover:bg-secondary active:cursor-grabbing"
        >
          <GripVertical aria-hidden className="h-5 w-5" />
        </button>
        <div className="relative">
          <MediaImage
            item={item}
            alt=""
            sizes="128px"
            className="h-20 w-28 shrink-0 rounded-xl sm:h-24 sm:w-32"
          />
          {item.status === 'processing' && (
            <span className="absolute bottom-1 left-1 inline-flex items-center gap-1 rounded-full bg-black/60 px-2 py-0.5 text-[0.65rem] text-white">
              <Loader2 aria-hidden className="h-3 w-3 animate-spin" />
              Bezig
            </span>
          )}
        </div>
        <div className="sm:hidden">
          <p className="text-sm font-medium">{label}</p>
          {isCover && <CoverBadge />}
        </div>
      </div>
      <div className="min-w-0 flex-1">
        <p className="mb-1.5 hidden items-center gap-2 text-sm font-medium sm:flex">
          {label}
          {isCover && <CoverBadge />}
        </p>
        {/* Not remounted when the caption is saved: it saves while one types, and must keep focus. */}
        <CaptionField memorialId={memorial.id} item={item} label={label} />
      </div>
      <div className="flex flex-wrap items-center gap-1.5 sm:flex-col sm:items-stretch lg:flex-row lg:items-center">
        <Button
          variant="ghost"
          size="sm"
          disabled={index === 0}
          onClick={() => onMove(index, index - 1)}
          aria-label={`${label} omhoog`}
        >
          <ArrowUp aria-hidden className="h-4 w-4" />
          Omhoog
        </Button>
        <Button
          variant="ghost"
          size="sm"
          disabled={index === total - 1}
          onClick={() => onMove(index, index + 1)}
          aria-label={`${label} omlaag`}
        >
          <ArrowDown aria-hidden className="h-4 w-4" />
          Omlaag
        </Button>
        {item.kind === 'image' && !isCover && (
          <Button
            variant="ghost"
            size="sm"
            disabled={cover.isPending}
            aria-label={`${label} als omslagfoto gebruiken`}
            onClick={() =>
              cover.mutate(
                { coverMediaId: item.id },
                {
                  onSuccess: () => toast.success('De omslagfoto is gekozen'),
                  onError: (e) => toast.error('Dat lukte niet', errorText(e)),
                },
              )
            }
          >
            <Star aria-hidden className="h-4 w-4" />
            Als omslagfoto
          </Button>
        )}
        <ConfirmDialog
          trigger={
            <Button
              variant="ghost"
              size="sm"
              aria-label={`${label} verwijderen`}
              className="text-danger hover:bg-danger-soft"
            >
              <Trash2 aria-hidden className="h-4 w-4" />
              Verwijderen
            </Button>
          }
          title={`${label} verwijderen?`}
          description="De foto verdwijnt van de pagina en kan niet worden teruggehaald."
          confirmLabel="Verwijderen"
          destructive
          onConfirm={async () => {
            try {
              await remove.mutateAsync(item.id);
              toast.success(`${label} is verwijderd`);
            } catch (e) {
              toast.error('Verwijderen is niet gelukt', errorText(e));
              throw e;
            }
          }}
        />
      </div>
    </li>
  );
}

function CoverBadge() {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-accent-soft px-2 py-0.5 text-[0.7rem] font-medium text-accent">
      <Star aria-hidden className="h-3 w-3 fill-current" />
      Omslagfoto
    </span>
  );
}
