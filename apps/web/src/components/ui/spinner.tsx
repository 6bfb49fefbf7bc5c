import { cn } from '../../lib/cn.ts';

/** A quiet loading ring. Pass a label when it is the only sign that something loads. */
export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <span
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      className={cn('inline-block', className)}
    >
      <span className="block h-6 w-6 animate-spin rounded-full border-2 border-current border-r-transparent opacity-70" />
    </span>
  );
}

export function PageSpinner() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center text-muted">
      <Spinner label="Laden…" />
    </div>
  );
}
