import type { ReactNode } from 'react';
import { Dialog as RadixDialog } from 'radix-ui';
import { X } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { buttonClass } from './button.tsx';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** Read out when the dialog opens; visually hidden when `hideDescription`. */
  description?: ReactNode;
  hideDescription?: boolean;
  children: ReactNode;
  /** Max width of the panel. */
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

const widths = { sm: 'sm:max-w-md', md: 'sm:max-w-lg', lg: 'sm:max-w-2xl' } as const;

/**
 * A modal dialog: traps focus, closes on Escape, returns focus to what opened it. A bottom sheet on
 * phones, a centred panel from the sm breakpoint.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  hideDescription,
  children,
  size = 'md',
  className,
}: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 animate-fade-in bg-black/50 backdrop-blur-[2px]" />
        <RadixDialog.Content
          className={cn(
            'fixed inset-x-0 bottom-0 z-50 flex max-h-[92dvh] animate-rise-in flex-col overflow-hidden rounded-t-3xl border border-border bg-card text-card-foreground shadow-lift focus:outline-none',
            'sm:inset-auto sm:top-1/2 sm:left-1/2 sm:w-[calc(100%-2rem)] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-3xl',
            widths[size],
            className,
          )}
        >
          <div className="flex items-start justify-between gap-4 px-6 pt-6 sm:px-8 sm:pt-7">
            <div>
              <RadixDialog.Title className="font-serif text-2xl font-semibold">{title}</RadixDialog.Title>
              {description ? (
                <RadixDialog.Description
                  className={cn('mt-1.5 text-sm leading-relaxed text-muted', hideDescription && 'sr-only')}
                >
                  {description}
                </RadixDialog.Description>
              ) : (
                <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
              )}
            </div>
            <RadixDialog.Close
              className={buttonClass('ghost', 'icon', '-mt-1 -mr-2 shrink-0')}
              aria-label="Sluiten"
            >
              <X aria-hidden className="h-5 w-5" />
            </RadixDialog.Close>
          </div>
          <div className="overflow-y-auto px-6 pt-5 pb-6 sm:px-8 sm:pb-8">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
