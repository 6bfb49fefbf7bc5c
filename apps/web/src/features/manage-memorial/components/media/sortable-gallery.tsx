import { useState } from 'react';
import {
  closestCenter,
  DndContext,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import type { MediaItem, Memorial } from '@aandenken/contract';
import { SortableRow } from './sortable-row.tsx';

const nameOf = (items: MediaItem[], id: string | number) => {
  const i = items.findIndex((x) => x.id === id);
  return i < 0 ? 'het item' : `${items[i]!.kind === 'video' ? 'video' : 'foto'} ${i + 1}`;
};

/** The gallery in its order: drag a row by its grip, or move it with the arrow keys on the grip. */
export function SortableGallery({
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
