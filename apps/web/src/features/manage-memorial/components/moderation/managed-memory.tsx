import { Lock } from 'lucide-react';
import { memoryStatusLabels, type Memorial, type Memory } from '@aandenken/contract';
import { MediaImage } from '../../../../components/memorial/media-image.tsx';
import { formatRelative } from '../../../../lib/memorials/time.ts';
import { ModerationActions } from './moderation-actions.tsx';

/** One memory in the queue: who wrote it and when, its status, text and photos, and what can be done. */
export function ManagedMemory({ memorial, memory }: { memorial: Memorial; memory: Memory }) {
  const headingId = `managed-${memory.id}`;
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
        <ModerationActions memorial={memorial} memory={memory} />
      </article>
    </li>
  );
}
