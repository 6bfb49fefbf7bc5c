import { Share2 } from 'lucide-react';
import { buttonClass } from '../../../components/ui/button.tsx';
import { deferred, placeholderTriggerProps, useDeferred } from '../../../lib/deferred.ts';
import { openShareSheet, shareContent, shareSheetFirst, type ShareableMemorial } from './share-text.ts';

const shareMenu = deferred(() => import('./share-menu.tsx'));

/**
 * 'Delen' on the memorial page: a plain button in the server's HTML. On a phone it opens the phone's own
 * share sheet; elsewhere a small menu (WhatsApp, e-mail, copy), whose code (Radix) loads when the button is
 * first hovered, focused or used, so the page's first visit does not carry it.
 */
export function ShareButton({ memorial }: { memorial: ShareableMemorial }) {
  const menu = useDeferred(shareMenu);
  if (menu.module) return <menu.module.ShareMenu memorial={memorial} defaultOpen={menu.openRequested} />;
  const trigger = placeholderTriggerProps(menu);
  const sheet = () => openShareSheet(shareContent(memorial, window.location.origin));
  return (
    <button
      {...trigger}
      onPointerEnter={() => !shareSheetFirst() && trigger.onPointerEnter()}
      onFocus={() => !shareSheetFirst() && trigger.onFocus()}
      onPointerDown={(e) => !shareSheetFirst() && trigger.onPointerDown(e)}
      onClick={() => (shareSheetFirst() ? sheet() : trigger.onClick())}
      onKeyDown={(e) => {
        if (shareSheetFirst() && (e.key === 'Enter' || e.key === ' ')) {
          e.preventDefault();
          sheet();
        } else trigger.onKeyDown(e);
      }}
      className={buttonClass('outline', 'lg')}
      aria-haspopup="menu"
      aria-expanded={false}
    >
      <Share2 aria-hidden className="h-4 w-4" />
      Delen
    </button>
  );
}
