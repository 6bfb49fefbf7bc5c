import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';

/** A calm placeholder block while content loads (it pulses unless reduced motion is asked for). */
export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      aria-hidden
      className={cn('animate-pulse rounded-xl bg-secondary motion-reduce:animate-none', className)}
      {...props}
    />
  );
}
