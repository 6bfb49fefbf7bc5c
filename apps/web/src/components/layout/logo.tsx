import { cn } from '../../lib/cn.ts';

/** The mark: a candle flame held in an open circle. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden className={cn('h-8 w-8', className)}>
      <circle
        cx="16"
        cy="16"
        r="14"
        fill="none"
        stroke="currentColor"
        strokeOpacity="0.35"
        strokeWidth="1.5"
        strokeDasharray="70 18"
        strokeLinecap="round"
        transform="rotate(120 16 16)"
      />
      <path
        d="M16 6.5c3.6 4.2 5.4 7.5 5.4 10.2a5.4 5.4 0 0 1-10.8 0c0-2.7 1.8-6 5.4-10.2Z"
        className="fill-accent"
      />
      <path
        d="M16 13c1.6 1.9 2.4 3.3 2.4 4.5a2.4 2.4 0 0 1-4.8 0c0-1.2.8-2.6 2.4-4.5Z"
        fill="var(--background)"
        fillOpacity="0.75"
      />
      <rect x="14.6" y="23" width="2.8" height="3.6" rx="1" className="fill-primary" />
    </svg>
  );
}

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2.5', className)}>
      <LogoMark />
      <span className="font-serif text-xl font-semibold tracking-tight text-foreground">Aandenken</span>
    </span>
  );
}
