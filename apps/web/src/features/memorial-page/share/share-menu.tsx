import { useState } from 'react';
import { DropdownMenu } from 'radix-ui';
import { Copy, Mail, MessageCircle, Share2, Smartphone } from 'lucide-react';
import { buttonClass } from '../../../components/ui/button.tsx';
import { toast } from '../../../lib/toast.ts';
import { openShareSheet, shareContent, shareSheetFirst, type ShareableMemorial } from './share-text.ts';

/**
 * The menu opens under the button. Where the screen has no room for it there (a phone, the button low on
 * the screen), the page scrolls up just enough first: turned upwards, it lay over the name and the years.
 */
function makeRoomBelow(menu: HTMLDivElement | null) {
  const trigger = menu && document.querySelector<HTMLElement>(`[aria-controls="${menu.id}"]`);
  if (!trigger) return;
  // The menu's own height, its distance to the button and the margin it keeps from the screen's edge.
  const needed = menu.offsetHeight + 8 + 12;
  const room = window.innerHeight - trigger.getBoundingClientRect().bottom;
  if (room < needed) window.scrollBy({ top: needed - room, behavior: 'instant' });
}

const itemClass =
  'flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5 text-sm outline-none select-none data-highlighted:bg-secondary';

/** The menu behind 'Delen' (share-button.tsx): WhatsApp, e-mail, copy, and the system's own sheet when there is one. */
export function ShareMenu({
  memorial,
  defaultOpen = false,
}: {
  memorial: ShareableMemorial;
  defaultOpen?: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const [status, setStatus] = useState('');
  const content = shareContent(memorial, window.location.origin);
  const canShare = typeof navigator.share === 'function';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(content.withCode ? content.message : content.url);
      const done = content.withCode ? 'Link en toegangscode gekopieerd' : 'Link gekopieerd';
      setStatus(done);
      toast.success(done, content.withCode ? 'Plak het bericht in een app of mail.' : undefined);
    } catch {
      toast.error('Kopiëren lukte niet', 'Selecteer het adres in de adresbalk en kopieer het zelf.');
    }
  };

  return (
    <>
      <DropdownMenu.Root modal={false} open={open} onOpenChange={setOpen}>
        <DropdownMenu.Trigger
          className={buttonClass('outline', 'lg')}
          // A phone: its own share sheet instead of the menu.
          onPointerDown={(e) => {
            if (shareSheetFirst()) e.preventDefault();
          }}
          onKeyDown={(e) => {
            if (shareSheetFirst() && (e.key === 'Enter' || e.key === ' ')) {
              e.preventDefault();
              openShareSheet(content);
            }
          }}
          onClick={() => {
            if (shareSheetFirst()) openShareSheet(content);
          }}
        >
          <Share2 aria-hidden className="h-4 w-4" />
          Delen
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            ref={makeRoomBelow}
            side="bottom"
            align="start"
            sideOffset={8}
            collisionPadding={12}
            className="z-50 w-72 max-w-[calc(100vw-1.5rem)] animate-rise-in rounded-xl border border-border bg-card p-1.5 text-card-foreground shadow-lift"
          >
            <DropdownMenu.Label className="px-3 pt-2 pb-1 text-xs font-medium text-muted">
              {content.withCode ? 'Deel de link en de toegangscode' : 'Deel deze pagina'}
            </DropdownMenu.Label>
            <DropdownMenu.Item asChild className={itemClass}>
              <a
                href={`https://wa.me/?text=${encodeURIComponent(content.message)}`}
                target="_blank"
                rel="noopener noreferrer"
              >
                <MessageCircle aria-hidden className="h-4 w-4 text-muted" />
                WhatsApp
              </a>
            </DropdownMenu.Item>
            <DropdownMenu.Item asChild className={itemClass}>
              <a
                href={`mailto:?subject=${encodeURIComponent(content.title)}&body=${encodeURIComponent(content.message)}`}
              >
                <Mail aria-hidden className="h-4 w-4 text-muted" />
                E-mail
              </a>
            </DropdownMenu.Item>
            <DropdownMenu.Item className={itemClass} onSelect={() => void copy()}>
              <Copy aria-hidden className="h-4 w-4 text-muted" />
              {content.withCode ? 'Link en code kopiëren' : 'Link kopiëren'}
            </DropdownMenu.Item>
            {canShare && (
              <DropdownMenu.Item className={itemClass} onSelect={() => openShareSheet(content)}>
                <Smartphone aria-hidden className="h-4 w-4 text-muted" />
                Andere app…
              </DropdownMenu.Item>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <span role="status" className="sr-only">
        {status}
      </span>
    </>
  );
}
