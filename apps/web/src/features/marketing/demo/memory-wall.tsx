import { Heart } from 'lucide-react';
import { Picture } from '../../../components/ui/picture.tsx';
import type { SampleMemory } from '../../../content/demo.ts';

/** 1 column, 2 from sm, 3 from lg, as a masonry so short memories sit close. */
export function MemoryWall({ memories }: { memories: readonly SampleMemory[] }) {
  return (
    <ul data-testid="memory-wall" className="mt-8 columns-1 gap-5 sm:columns-2 lg:columns-3">
      {memories.map((memory) => (
        <li key={`${memory.year}-${memory.author}`} className="mb-5 break-inside-avoid">
          <article className="flex flex-col overflow-hidden rounded-2xl border border-border bg-card shadow-soft">
            {memory.images.map((image) => (
              <Picture
                key={image.name}
                image={image}
                sizes="(min-width: 1024px) 360px, (min-width: 640px) 45vw, 90vw"
                className="aspect-[3/2]"
              />
            ))}
            <div className="flex flex-1 flex-col p-6">
              <p className="text-xs font-semibold tracking-[0.18em] text-accent uppercase">{memory.year}</p>
              <p className="mt-3 leading-relaxed">{memory.text}</p>
              <div className="mt-5 flex items-center justify-between gap-3 border-t border-border pt-4">
                <p className="text-sm font-medium text-muted">— {memory.author}</p>
                <div className="flex items-center gap-2">
                  <Heart aria-hidden className="h-4 w-4 fill-accent text-accent" />
                  <ul
                    className="flex -space-x-1.5"
                    aria-label={`Geliefd door ${memory.lovedBy.length} mensen`}
                  >
                    {memory.lovedBy.map((initials) => (
                      <li
                        key={initials}
                        className="flex h-8 w-8 items-center justify-center rounded-full border-2 border-card bg-secondary text-[0.625rem] font-semibold tracking-tight text-secondary-foreground"
                      >
                        {initials}
                      </li>
                    ))}
                  </ul>
                </div>
              </div>
            </div>
          </article>
        </li>
      ))}
    </ul>
  );
}
