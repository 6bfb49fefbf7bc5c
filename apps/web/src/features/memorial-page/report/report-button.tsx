import { lazy, Suspense, useState } from 'react';
import { Flag } from 'lucide-react';
import type { TakedownItemType } from '@aandenken/contract';
import { cn } from '../../../lib/cn.ts';

const ReportDialog = lazy(() => import('./report-dialog.tsx').then((m) => ({ default: m.ReportDialog })));

/**
 * 'Melden' on a memory or a photo: a small button; the dialog (form, reasons) is its own chunk, loaded
 * when someone first opens it, so the page pays only for this button.
 */
export function ReportButton({
  itemType,
  itemId,
  label,
  className,
}: {
  itemType: TakedownItemType;
  itemId: string;
  /** What is reported, for the button's accessible name, e.g. 'herinnering uit 1982'. */
  label: string;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
        aria-label={`Melden: ${label}`}
        title="Melden"
        className={cn(
          'inline-flex h-9 w-9 items-center justify-center rounded-full text-muted transition-colors hover:bg-secondary hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
          className,
        )}
      >
        <Flag aria-hidden className="h-4 w-4" />
      </button>
      {used && (
        <Suspense fallback={null}>
          <ReportDialog open={open} onOpenChange={setOpen} itemType={itemType} itemId={itemId} />
        </Suspense>
      )}
    </>
  );
}
