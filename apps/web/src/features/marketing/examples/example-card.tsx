import type { ReactNode } from 'react';
import { BookOpen, Flower2, Heart, MapPin } from 'lucide-react';
import { Picture } from '../../../components/ui/picture.tsx';
import type { ExampleMemorial } from '../../../content/examples.ts';
import { cn } from '../../../lib/cn.ts';
import { formatDate, formatNumber } from '../../../lib/format.ts';

/** One sample profile: photo, title, quote, location, 'Overleden {date}', and its counters. */
export function ExampleCard({
  example,
  footer,
  className,
  headingLevel = 3,
}: {
  example: ExampleMemorial;
  footer?: ReactNode;
  className?: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article
      className={cn(
        'flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-card text-card-foreground shadow-soft',
        className,
      )}
    >
      <Picture
        image={example.image}
        sizes="(min-width: 1024px) 360px, (min-width: 768px) 45vw, 90vw"
        className="aspect-[3/2]"
      />
      <div className="flex flex-1 flex-col p-6">
        <Heading className="text-xl font-semibold">{example.title}</Heading>
        <p className="mt-2 leading-relaxed text-muted italic">{example.description}</p>
        <ExampleFacts example={example} className="mt-4 mb-5 gap-x-4" />
        <ul
          className="mt-auto grid grid-cols-3 gap-2 border-t border-border pt-5 text-center"
          aria-label="Op deze pagina"
        >
          <Counter
            icon={<Flower2 aria-hidden className="h-4 w-4 text-accent" />}
            value={example.stats.flowers}
            label="bloemen"
          />
          <Counter
            icon={<Heart aria-hidden className="h-4 w-4 text-accent" />}
            value={example.stats.memories}
            label="herinneringen"
          />
          <Counter
            icon={<BookOpen aria-hidden className="h-4 w-4 text-accent" />}
            value={example.stats.stories}
            label="verhalen"
          />
        </ul>
        {footer && <div className="mt-6">{footer}</div>}
      </div>
    </article>
  );
}

function Counter({ icon, value, label }: { icon: ReactNode; value: number; label: string }) {
  return (
    <li className="flex flex-col items-center gap-0.5">
      {icon}
      <span className="text-lg font-semibold text-foreground">{formatNumber(value)}</span>
      <span className="text-xs text-muted">{label}</span>
    </li>
  );
}

/** Where the person lived and when they died, for screen readers as a description list. */
export function ExampleFacts({ example, className }: { example: ExampleMemorial; className?: string }) {
  return (
    <dl className={cn('flex flex-wrap gap-y-1 text-sm text-muted', className)}>
      <div className="flex items-center gap-1.5">
        <dt className="sr-only">Woonplaats</dt>
        <MapPin aria-hidden className="h-4 w-4" />
        <dd>{example.location}</dd>
      </div>
      <div>
        <dt className="sr-only">Datum van overlijden</dt>
        <dd>Overleden {formatDate(example.date)}</dd>
      </div>
    </dl>
  );
}
