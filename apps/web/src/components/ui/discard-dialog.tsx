import { useState, type ReactNode } from 'react';
import { AlertDialog } from 'radix-ui';
import { cn } from '../../lib/cn.ts';
import { Button, buttonClass } from './button.tsx';

export interface ConfirmDiscardOptions {
  /** Close and keep the draft in this browser for later. */
  onKeep: () => void;
  /** Close and throw the draft away. */
  onDiscard: () => void;
  title?: string;
  description?: ReactNode;
}

/**
 * For a dialog with a form: closing it (Escape, a tap outside, ✕, 'Annuleren') while something was typed
 * first asks whether to go on writing, keep it for later or throw it away. Focus starts on going on.
 */
export function useConfirmDiscard(dirty: boolean, options: ConfirmDiscardOptions) {
  const [asking, setAsking] = useState(false);
  const { onKeep, onDiscard } = options;

  const requestClose = () => (dirty ? setAsking(true) : onKeep());

  const dialog = (
    <AlertDialog.Root open={asking} onOpenChange={setAsking}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 animate-fade-in bg-black/50 backdrop-blur-[2px]" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 animate-rise-in rounded-3xl border border-border bg-card p-6 text-card-foreground shadow-lift focus:outline-none sm:p-8">
          <AlertDialog.Title className="font-serif text-xl font-semibold">
            {options.title ?? 'Wil je stoppen met schrijven?'}
          </AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 text-sm leading-relaxed text-muted">
              {options.description ??
                'Wat je hebt geschreven is nog niet opgeslagen. Je kunt het voor later bewaren in deze browser, of weggooien.'}
            </div>
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col gap-3">
            <AlertDialog.Cancel className={buttonClass('primary', 'md')}>
              Doorgaan met schrijven
            </AlertDialog.Cancel>
            <div className="flex flex-col gap-3 sm:flex-row">
              <AlertDialog.Action
                className={buttonClass('outline', 'md', 'sm:flex-1')}
                onClick={() => onKeep()}
              >
                Bewaren voor later
              </AlertDialog.Action>
              <AlertDialog.Action
                className={cn(
                  buttonClass('outline', 'md', 'sm:flex-1'),
                  'border-danger/40! text-danger! hover:bg-danger-soft',
                )}
                onClick={() => onDiscard()}
              >
                Weggooien
              </AlertDialog.Action>
            </div>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );

  return { requestClose, dialog };
}

/** Says that a form shows a draft from before, with a way to throw it away. */
export function DraftNotice({ onDiscard, className }: { onDiscard: () => void; className?: string }) {
  return (
    <div
      className={cn(
        'flex flex-wrap items-center justify-between gap-3 rounded-xl bg-secondary px-4 py-3 text-sm',
        className,
      )}
    >
      <p>Je ziet een concept dat nog niet is opgeslagen. Het staat alleen in deze browser.</p>
      <Button variant="ghost" size="sm" onClick={onDiscard}>
        Concept weggooien
      </Button>
    </div>
  );
}
