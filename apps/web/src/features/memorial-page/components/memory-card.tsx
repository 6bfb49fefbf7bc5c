import { Heart, Lock, Play } from 'lucide-react';
import type { MediaItem, Memory } from '@aandenken/contract';
import { MediaImage } from '../../../components/memorial/media-image.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatCount } from '../../../lib/format.ts';
import { ReportButton } from '../report/report-button.tsx';

export interface MemoryCardProps {
  memory: Memory;
  canLove: boolean;
  onToggleLove: (memory: Memory) => void;
  onOpenPhoto: (items: MediaItem[], index: number) => void;
}

/** One memory on the wall: its photos, year, text, author and who loved it. */
export function MemoryCard({ memory, canLove, onToggleLove, onOpenPhoto }: MemoryCardProps) {
  const photos = memory.media.filter((m) => m.status !== 'failed');
  const headingId = `memory-${memory.id}`;
  const { count, byMe, initials } = memory.lovedBy;

  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-card text-card-foreground shadow-soft"
    >
      {photos.length > 0 && (
        <div className={cn('grid gap-0.5', photos.length > 1 && 'grid-cols-2')}>
          {photos.slice(0, 4).map((item, i) => (
            <button
              key={item.id}
              type="button"
              onClick={() => onOpenPhoto(photos, i)}
              aria-label={`${item.kind === 'video' ? 'Video' : 'Foto'} ${i + 1} van ${photos.length} bij deze herinnering bekijken`}
              className={cn(
                'group relative block overflow-hidden',
                photos.length === 3 && i === 0 && 'col-span-2',
              )}
            >
              <MediaImage
                item={item}
                alt=""
                sizes="(min-width: 1024px) 360px, (min-width: 640px) 45vw, 90vw"
                className={cn(
                  'transition duration-300 group-hover:scale-[1.02]',
                  photos.length === 1 || (photos.length === 3 && i === 0) ? 'aspect-[3/2]' : 'aspect-square',
                )}
              />
              {item.kind === 'video' && (
                <span aria-hidden className="absolute inset-0 flex items-center justify-center">
                  <span className="flex h-11 w-11 items-center justify-center rounded-full bg-black/55 text-white">
                    <Play className="h-5 w-5" />
                  </span>
                </span>
              )}
              {i === 3 && photos.length > 4 && (
                <span
                  aria-hidden
                  className="absolute inset-0 flex items-center justify-center bg-black/45 text-lg font-semibold text-white"
                >
                  +{photos.length - 4}
                </span>
              )}
            </button>
          ))}
        </div>
      )}
      <div className="flex flex-1 flex-col p-6">
        <div className="flex flex-wrap items-center gap-2">
          <h3
            id={headingId}
            className="font-sans text-xs font-semibold tracking-[0.18em] text-accent uppercase"
          >
            {memory.yearLabel}
          </h3>
          {memory.membersOnly && (
            <span className="inline-flex items-center gap-1 rounded-full bg-secondary px-2 py-0.5 text-[0.7rem] font-medium text-muted">
              <Lock aria-hidden className="h-3 w-3" />
              Alleen voor leden
            </span>
          )}
        </div>
        <p className="mt-3 flex-1 leading-relaxed whitespace-pre-line">{memory.text}</p>
        <div className="mt-5 flex items-center justify-between gap-3 border-t border-border pt-4">
          <p className="min-w-0 text-sm font-medium text-muted">
            <span className="sr-only">Geschreven door </span>
            <span aria-hidden>— </span>
            {memory.author.name}
            {memory.author.isYou && <span> (jij)</span>}
          </p>
          <div className="flex shrink-0 items-center gap-2">
            {initials.length > 0 && (
              <ul
                className="hidden -space-x-1.5 min-[400px]:flex"
                aria-label={`Mooi gevonden door ${formatCount(count, 'persoon', 'mensen')}`}
              >
                {initials.map((ini, i) => (
                  <li
                    key={`${ini}-${i}`}
                    className="flex h-7 w-7 items-center justify-center rounded-full border-2 border-card bg-secondary text-[0.6rem] font-semibold tracking-tight text-secondary-foreground"
                  >
                    {ini}
                  </li>
                ))}
              </ul>
            )}
            {canLove ? (
              <button
                type="button"
                aria-pressed={byMe}
                onClick={() => onToggleLove(memory)}
                aria-label={`${byMe ? 'Vind ik mooi (aan)' : 'Vind ik mooi'}, ${formatCount(count, 'hartje', 'hartjes')}`}
                className={cn(
                  'inline-flex h-9 items-center gap-1.5 rounded-full border px-3 text-sm font-medium transition-colors',
                  byMe
                    ? 'border-accent/40 bg-accent-soft text-accent'
                    : 'border-border text-muted hover:bg-secondary hover:text-foreground',
                )}
              >
                <Heart
                  aria-hidden
                  className={cn('h-4 w-4 transition-transform', byMe && 'scale-110 fill-current')}
                />
                <span aria-hidden>{count}</span>
              </button>
            ) : (
              count > 0 && (
                <span className="inline-flex items-center gap-1.5 text-sm text-muted">
                  <Heart aria-hidden className="h-4 w-4 fill-accent text-accent" />
                  <span className="sr-only">Hartjes: </span>
                  {count}
                </span>
              )
            )}
            <ReportButton
              itemType="memory"
              itemId={memory.id}
              label={`herinnering uit ${memory.yearLabel} van ${memory.author.name}`}
            />
          </div>
        </div>
      </div>
    </article>
  );
}
