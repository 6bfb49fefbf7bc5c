import { useEffect, useRef, useState } from 'react';
import {
  closestCenter,
  DndContext,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import { arrayMove, SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ArrowDown, ArrowUp, GripVertical, Loader2, Star, Trash2 } from 'lucide-react';
import { MEDIA_CAPTION_MAX, MEDIA_GALLERY_MAX, type MediaItem, type Memorial } from '@aandenken/contract';
import { controlClass } from '../../../components/form/form.tsx';
import { pickFiles, type PickedFile } from '../../../components/memorial/file-checks.ts';
import { MediaImage } from '../../../components/memorial/media-image.tsx';
import { FileDropZone, UploadList } from '../../../components/memorial/upload-list.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { ApiError, useApiClient } from '../../../lib/api-client.ts';
import { cn } from '../../../lib/cn.ts';
import { useGallery } from '../../../lib/memorials/queries.ts';
import { toast } from '../../../lib/toast.ts';
import { useUpdateMemorial } from '../api/details.ts';
import {
  uploadGalleryItem,
  useDeleteMedia,
  useRefreshGallery,
  useReorderGallery,
  useUpdateCaption,
} from '../api/media.ts';
import { errorText, Section } from '../components/section.tsx';

const nameOf = (items: MediaItem[], id: string | number) => {
  const i = items.findIndex((x) => x.id === id);
  return i < 0 ? 'het item' : `${items[i]!.kind === 'video' ? 'video' : 'foto'} ${i + 1}`;
};

/** Photos and videos: several at once with progress, captions, order (drag or Omhoog/Omlaag), cover, delete. */
export function MediaTab({ memorial }: { memorial: Memorial }) {
  const client = useApiClient();
  const gallery = useGallery(memorial.id);
  const refresh = useRefreshGallery(memorial.id);
  const reorder = useReorderGallery(memorial.id);
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const items = gallery.data?.items ?? [];

  const patch = (key: string, p: Partial<PickedFile>) =>
    setFiles((list) => list.map((f) => (f.key === key ? { ...f, ...p } : f)));

  const upload = async (picked: PickedFile[]) => {
    setUploading(true);
    let ok = 0;
    for (const f of picked) {
      patch(f.key, { status: 'uploading', progress: 0 });
      try {
        await uploadGalleryItem(client, memorial.id, f.file, (p) => patch(f.key, { progress: p.fraction }));
        patch(f.key, { status: 'done', progress: 1 });
        ok++;
      } catch (error) {
        patch(f.key, {
          status: 'failed',
          error: error instanceof ApiError ? error.message : 'Uploaden is niet gelukt.',
        });
      }
    }
    await refresh();
    setUploading(false);
    if (ok > 0) toast.success(ok === 1 ? 'De foto is toegevoegd' : `${ok} foto’s en video’s zijn toegevoegd`);
    // Finished ones leave the list; failed ones stay with their reason.
    setFiles((list) => {
      list.filter((f) => f.status === 'done').forEach((f) => URL.revokeObjectURL(f.preview));
      return list.filter((f) => f.status !== 'done');
    });
  };

  const move = (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    reorder.mutate(arrayMove(items, from, to), {
      onError: (e) => toast.error('De volgorde kon niet worden opgeslagen', errorText(e)),
    });
  };

  return (
    <div className="flex flex-col gap-8">
      <Section
        title="Foto’s en video’s toevoegen"
        description="Kies er meerdere tegelijk. Foto’s worden voor het web verkleind; plaatsgegevens en andere metadata worden verwijderd. Video’s blijven zoals ze zijn, met hun eventuele locatiegegevens."
      >
        <FileDropZone
          label="Kies foto’s of video’s"
          hint={`Foto’s tot 20 MB, video’s (MP4, WebM) tot 100 MB; maximaal ${MEDIA_GALLERY_MAX} op een pagina. Sleep ze hierheen of kies ze.`}
          disabled={uploading || memorial.status === 'archived'}
          onFiles={(list) => {
            const { picked, problems: found } = pickFiles(list, items.length, MEDIA_GALLERY_MAX);
            setProblems(found);
            setFiles((prev) => [...prev.filter((f) => f.status !== 'failed'), ...picked]);
            if (picked.length) void upload(picked);
          }}
        />
        {problems.length > 0 && (
          <ul role="alert" className="mt-3 flex flex-col gap-1 text-sm text-danger">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        <div className="mt-4" aria-live="polite">
          <UploadList
            files={files}
            disabled={uploading}
            onRemove={(key) => setFiles((l) => l.filter((f) => f.key !== key))}
          />
        </div>
      </Section>

      <Section
        title="Galerij"
        description="Sleep een foto aan de greep om de volgorde te veranderen, of gebruik Omhoog en Omlaag. Met het toetsenbord: Tab naar de greep, Spatie om op te pakken, pijltjes om te verplaatsen, Spatie om los te laten."
      >
        <QueryState
          query={gallery}
          skeleton={
            <div className="flex flex-col gap-3">
              {[0, 1].map((i) => (
                <Skeleton key={i} className="h-28 rounded-2xl" />
              ))}
            </div>
          }
          error="De foto’s en video’s konden niet worden geladen."
        >
          {() =>
            items.length === 0 ? (
              <p className="text-sm text-muted">Nog geen foto’s of video’s. Voeg ze hierboven toe.</p>
            ) : (
              <SortableGallery memorial={memorial} items={items} onMove={move} />
            )
          }
        </QueryState>
      </Section>
    </div>
  );
}

function SortableGallery({
  memorial,
  items,
  onMove,
}: {
  memorial: Memorial;
  items: MediaItem[];
  onMove: (from: number, to: number) => void;
}) {
  // Dragging is for pointers; the keyboard moves a photo with the arrow keys on its grip (see SortableRow).
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));
  const [announcement, setAnnouncement] = useState('');
  const [focusTarget, setFocusTarget] = useState<{ id: string; index: number } | null>(null);
  const moveByKey = (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    setFocusTarget({ id: items[from]!.id, index: to });
    setAnnouncement(`${nameOf(items, items[from]!.id)} staat nu op plaats ${to + 1} van ${items.length}.`);
    onMove(from, to);
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => `${nameOf(items, active.id)} opgepakt.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${nameOf(items, active.id)} staat nu op plaats ${items.findIndex((i) => i.id === over.id) + 1}.`
        : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? `${nameOf(items, active.id)} neergezet op plaats ${items.findIndex((i) => i.id === over.id) + 1}.`
        : `${nameOf(items, active.id)} neergezet.`,
    onDragCancel: ({ active }) => `Verplaatsen van ${nameOf(items, active.id)} geannuleerd.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onMove(
      items.findIndex((i) => i.id === active.id),
      items.findIndex((i) => i.id === over.id),
    );
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: 'Verplaats met pijltje omhoog of omlaag, of sleep met de muis of je vinger.',
        },
      }}
    >
      <SortableContext items={items.map((i) => i.id)} strategy={verticalListSortingStrategy}>
        <ol className="flex flex-col gap-3" aria-label="Foto’s en video’s in volgorde">
          {items.map((item, index) => (
            <SortableRow
              key={item.id}
              memorial={memorial}
              item={item}
              index={index}
              total={items.length}
              onMove={onMove}
              onKeyMove={moveByKey}
              focusGrip={focusTarget?.id === item.id && focusTarget.index === index}
              onFocused={() => setFocusTarget(null)}
            />
          ))}
        </ol>
        <p role="status" className="sr-only">
          {announcement}
        </p>
      </SortableContext>
    </DndContext>
  );
}

function SortableRow({
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
        <CaptionField key={item.caption ?? ''} memorialId={memorial.id} item={item} label={label} />
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

/** The caption, saved when one leaves the field or presses Enter. */
function CaptionField({ memorialId, item, label }: { memorialId: string; item: MediaItem; label: string }) {
  const update = useUpdateCaption(memorialId);
  // Remounted (key) when the saved caption changes, so it starts from what the server kept.
  const [value, setValue] = useState(item.caption ?? '');
  const saved = useRef(item.caption ?? '');

  const commit = () => {
    const next = value.trim();
    if (next === saved.current) return;
    update.mutate(
      { id: item.id, caption: next },
      {
        onSuccess: () => toast.success('Het onderschrift is opgeslagen'),
        onError: (e) => toast.error('Het onderschrift kon niet worden opgeslagen', errorText(e)),
      },
    );
  };

  return (
    <label className="block">
      <span className="sr-only">Onderschrift van {label.toLowerCase()}</span>
      <input
        value={value}
        maxLength={MEDIA_CAPTION_MAX}
        placeholder="Onderschrift (niet verplicht)"
        onChange={(e) => setValue(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          }
        }}
        className={cn(controlClass, 'h-11 text-sm')}
      />
    </label>
  );
}
