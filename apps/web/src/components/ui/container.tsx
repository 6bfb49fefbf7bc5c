import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';

export function Container({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('mx-auto w-full max-w-6xl px-5 sm:px-8', className)} {...props} />;
}

/** The small caps line above a section heading. */
export function Eyebrow({ className, ...props }: HTMLAttributes<HTMLParagraphElement>) {
  return (
    <p
      className={cn('text-xs font-semibold tracking-[0.18em] text-accent uppercase', className)}
      {...props}
    />
  );
}
