import type { ReactNode } from 'react';
import { cn } from '../../../lib/cn.ts';

/** A card on a manage tab: a heading, a short explanation, its content. */
export function Section({
  title,
  description,
  children,
  className,
  actions,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
  actions?: ReactNode;
}) {
  return (
    <section
      className={cn(
        'rounded-3xl border border-border bg-card p-6 text-card-foreground shadow-soft sm:p-8',
        className,
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="text-xl font-semibold sm:text-2xl">{title}</h2>
          {description && (
            <p className="mt-1.5 max-w-2xl text-sm leading-relaxed text-muted">{description}</p>
          )}
        </div>
        {actions}
      </div>
      <div className="mt-6">{children}</div>
    </section>
  );
}

/** Toast text for a failed action. */
export function errorText(error: unknown): string | undefined {
  return error instanceof Error ? error.message : undefined;
}
