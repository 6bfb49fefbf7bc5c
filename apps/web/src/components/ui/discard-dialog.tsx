import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
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
 *
 * The question is part of the dialog it guards (render `dialog` inside it), not a second modal on top: a
 * closing Radix layer gives the one below it its Escape and outside-tap handling back only after a later
 * render and timer, so an Escape pressed right after 'Doorgaan met schrijven' was lost. While asked,
 * closing the dialog again (Escape, a tap outside, ✕) means going on writing.
 */
export function useConfirmDiscard(dirty: boolean, options: ConfirmDiscardOptions) {
  const [asking, setAsking] = useState(false);
  const { onKeep, onDiscard } = options;

  const requestClose = () => {
    if (asking) setAsking(false);
    else if (dirty) setAsking(true);
    else onKeep();
  };

  const dialog = asking ? (
    <DiscardQuestion
      title={options.title ?? 'Wil je stoppen met schrijven?'}
      description={
        options.description ??
        'Wat je hebt geschreven is nog niet opgeslagen. Je kunt het voor later bewaren in deze browser, of weggooien.'
      }
      onContinue={() => setAsking(false)}
      onKeep={() => {
        setAsking(false);
        onKeep();
      }}
      onDiscard={() => {
        setAsking(false);
        onDiscard();
      }}
    />
  ) : null;

  return { requestClose, asking, dialog };
}

function DiscardQuestion({
  title,
  description,
  onContinue,
  onKeep,
  onDiscard,
}: {
  title: string;
  description: ReactNode;
  onContinue: () => void;
  onKeep: () => void;
  onDiscard: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useLayoutEffect(() => {
    const question = ref.current!;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // Everything else in the dialog is out of reach (focus, taps, screen readers) while it asks.
    const stop = question.closest('[role="dialog"]') ?? document.body;
    const made: Element[] = [];
    for (let node: Element = question; node !== stop && node.parentElement; node = node.parentElement) {
      for (const sibling of Array.from(node.parentElement.children)) {
        if (sibling !== node && !sibling.hasAttribute('inert')) {
          sibling.setAttribute('inert', '');
          made.push(sibling);
        }
      }
    }
    question.querySelector('button')?.focus();
    return () => {
      for (const el of made) el.removeAttribute('inert');
      // Back to where the writer was (the text field), not to the top of the page.
      if (before?.isConnected) before.focus();
    };
  }, []);

  // Tab goes round the three choices.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Tab') return;
    const buttons = Array.from(ref.current!.querySelectorAll('button'));
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = (at + (event.shiftKey ? -1 : 1) + buttons.length) % buttons.length;
    event.preventDefault();
    event.stopPropagation();
    buttons[next]?.focus();
  };

  return (
    <div className="absolute inset-0 z-10 flex animate-fade-in items-center justify-center bg-black/50 p-4">
      <div
        ref={ref}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        onKeyDown={onKeyDown}
        className="max-h-full w-full max-w-md animate-rise-in overflow-y-auto rounded-3xl border border-border bg-card p-6 text-card-foreground shadow-lift sm:p-8"
      >
        <h2 id={titleId} className="font-serif text-xl font-semibold">
          {title}
        </h2>
        <div id={descriptionId} className="mt-2 text-sm leading-relaxed text-muted">
          {description}
        </div>
        <div className="mt-6 flex flex-col gap-3">
          <Button onClick={onContinue}>Doorgaan met schrijven</Button>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button variant="outline" className="sm:flex-1" onClick={onKeep}>
              Bewaren voor later
            </Button>
            <button
              type="button"
              className={cn(
                buttonClass('outline', 'md', 'sm:flex-1'),
                'border-danger/40! text-danger! hover:bg-danger-soft',
              )}
              onClick={onDiscard}
            >
              Weggooien
            </button>
          </div>
        </div>
      </div>
    </div>
  );
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
