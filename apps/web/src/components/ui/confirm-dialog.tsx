import { useState, type ReactNode } from 'react';
import { AlertDialog } from 'radix-ui';
import { cn } from '../../lib/cn.ts';
import { buttonClass } from './button.tsx';
import { Spinner } from './spinner.tsx';

export interface ConfirmDialogProps {
  /** The element that opens it (rendered as the trigger). */
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Destructive actions get the danger colour. */
  destructive?: boolean;
  /** May return a promise; the dialog stays open (busy) until it settles and closes when it succeeds. */
  onConfirm: () => Promise<unknown> | void;
}

/** Asks before something that cannot be undone. Focus starts on 'Annuleren'. */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Annuleren',
  destructive,
  onConfirm,
}: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={(o) => !busy && setOpen(o)}>
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 animate-fade-in bg-black/50 backdrop-blur-[2px]" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 animate-rise-in rounded-3xl border border-border bg-card p-6 text-card-foreground shadow-lift focus:outline-none sm:p-8">
          <AlertDialog.Title className="font-serif text-xl font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 text-sm leading-relaxed text-muted">{description}</div>
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClass('outline', 'md')} disabled={busy}>
              {cancelLabel}
            </AlertDialog.Cancel>
            <button
              type="button"
              disabled={busy}
              className={cn(
                buttonClass('primary', 'md'),
                destructive && 'bg-danger text-white hover:bg-danger/90 dark:text-[#1a0d0b]',
              )}
              onClick={async () => {
                setBusy(true);
                try {
                  await onConfirm();
                  setOpen(false);
                } catch {
                  // The caller shows what went wrong; the dialog stays so one can try again or cancel.
                } finally {
                  setBusy(false);
                }
              }}
            >
              {busy && <Spinner className="[&>span]:h-4 [&>span]:w-4" />}
              {confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
