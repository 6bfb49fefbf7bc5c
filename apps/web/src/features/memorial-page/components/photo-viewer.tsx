import { useRef } from 'react';
import { Dialog } from 'radix-ui';
import { ChevronLeft, ChevronRight, X } from 'lucide-react';
import type { MediaItem } from '@aandenken/contract';
import { MediaImage } from '../../../components/memorial/media-image.tsx';
import { ReportButton } from '../report/report-button.tsx';

/** Index after a step, wrapping around at both ends. */
export function stepIndex(index: number, step: number, total: number): number {
  return (((index + step) % total) + total) % total;
}

/**
 * Full-screen viewer: arrow keys and the buttons move through the photos (wrapping around), a swipe
 * does too, Escape or the close button closes and returns focus to the photo that opened it.
 */
export function PhotoViewer({
  items,
  index,
  onIndexChange,
  title,
}: {
  items: MediaItem[];
  index: number | null;
  onIndexChange: (index: number | null) => void;
  title: string;
}) {
  const touchStart = useRef<number | null>(null);
  const open = index !== null && items.length > 0;
  const current = open ? items[Math.min(index, items.length - 1)]! : null;
  const go = (step: number) => index !== null && onIndexChange(stepIndex(index, step, items.length));

  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && onIndexChange(null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 animate-fade-in bg-[#080a0b]" />
        <Dialog.Content
          className="fixed inset-0 z-50 flex flex-col text-white focus:outline-none"
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') {
              e.preventDefault();
              go(1);
            } else if (e.key === 'ArrowLeft') {
              e.preventDefault();
              go(-1);
            }
          }}
          onTouchStart={(e) => (touchStart.current = e.touches[0]?.clientX ?? null)}
          onTouchEnd={(e) => {
            const start = touchStart.current;
            const end = e.changedTouches[0]?.clientX;
            touchStart.current = null;
            if (start == null || end == null || Math.abs(end - start) < 50) return;
            go(end < start ? 1 : -1);
          }}
        >
          <div className="flex items-center justify-between gap-4 px-4 py-3 sm:px-6">
            <Dialog.Title className="truncate font-sans text-sm font-medium text-white/85">
              {title}
            </Dialog.Title>
            <div className="flex items-center gap-3">
              <p aria-live="polite" className="text-sm text-white/75 tabular-nums">
                {index !== null && `${index + 1} / ${items.length}`}
              </p>
              {current && (
                <ReportButton
                  key={current.id}
                  itemType="media"
                  itemId={current.id}
                  label={current.kind === 'video' ? 'deze video' : 'deze foto'}
                  className="h-11 w-11 bg-white/10 text-white hover:bg-white/20 hover:text-white focus-visible:outline-white"
                />
              )}
              <Dialog.Close
                aria-label="Sluiten"
                className="flex h-11 w-11 items-center justify-center rounded-full bg-white/10 transition hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white"
              >
                <X aria-hidden className="h-5 w-5" />
              </Dialog.Close>
            </div>
          </div>
          <Dialog.Description className="sr-only">
            Gebruik de pijltjestoetsen om door de foto’s te bladeren en Escape om te sluiten.
          </Dialog.Description>
          <div className="relative flex min-h-0 flex-1 items-center justify-center px-2 sm:px-20">
            {current && (
              <MediaImage
                key={current.id}
                item={current}
                sizes="100vw"
                fit="contain"
                priority
                controls
                alt={current.caption ?? `Foto ${index! + 1} van ${items.length}`}
                className="h-full w-full bg-transparent"
              />
            )}
            {items.length > 1 && (
              <>
                <button
                  type="button"
                  onClick={() => go(-1)}
                  aria-label="Vorige foto"
                  className="absolute top-1/2 left-2 flex h-12 w-12 -translate-y-1/2 items-center justify-center rounded-full bg-white/10 transition hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white sm:left-5"
                >
                  <ChevronLeft aria-hidden className="h-6 w-6" />
                </button>
                <button
                  type="button"
                  onClick={() => go(1)}
                  aria-label="Volgende foto"
                  className="absolute top-1/2 right-2 flex h-12 w-12 -translate-y-1/2 items-center justify-center rounded-full bg-white/10 transition hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white sm:right-5"
                >
                  <ChevronRight aria-hidden className="h-6 w-6" />
                </button>
              </>
            )}
          </div>
          <p className="min-h-14 px-6 py-4 text-center text-sm leading-relaxed text-white/85">
            {current?.caption}
          </p>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
