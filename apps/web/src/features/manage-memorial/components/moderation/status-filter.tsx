import type { ManagedStatus } from '../../api/moderation.ts';
import { cn } from '../../../../lib/cn.ts';

export const filters: { value: ManagedStatus; label: string }[] = [
  { value: 'pending', label: 'Wacht op goedkeuring' },
  { value: 'published', label: 'Gepubliceerd' },
  { value: 'rejected', label: 'Afgewezen' },
];

/** The three lists of the queue as toggle buttons, each with its count. */
export function StatusFilter({
  status,
  counts,
  onChange,
}: {
  status: ManagedStatus;
  counts: Record<ManagedStatus, number> | undefined;
  onChange: (status: ManagedStatus) => void;
}) {
  return (
    <div role="group" aria-label="Toon herinneringen" className="flex flex-wrap gap-2">
      {filters.map((f) => (
        <button
          key={f.value}
          type="button"
          aria-pressed={status === f.value}
          onClick={() => onChange(f.value)}
          className={cn(
            'inline-flex items-center gap-2 rounded-full border px-4 py-2 text-sm font-medium transition-colors',
            status === f.value
              ? 'border-primary bg-primary text-primary-foreground'
              : 'border-border hover:bg-secondary',
          )}
        >
          {f.label}
          {counts && (
            <span
              className={cn(
                'rounded-full px-2 py-0.5 text-xs',
                status === f.value ? 'bg-primary-foreground/20' : 'bg-secondary',
              )}
            >
              {counts[f.value]}
            </span>
          )}
        </button>
      ))}
    </div>
  );
}
