import { Menu } from './shell-icons.tsx';
import { deferred, placeholderTriggerProps, useDeferred } from '../../lib/deferred.ts';
import { buttonClass } from '../ui/button.tsx';

const sheet = deferred(() => import('./mobile-menu-sheet.tsx'));

/**
 * The side menu on small screens: a dialog sheet that traps focus and closes on navigation. The dialog
 * (Radix) loads when the button is touched, hovered or focused, so it is not part of the first download.
 */
export function MobileMenu() {
  const menu = useDeferred(sheet);
  if (menu.module) return <menu.module.MobileMenuSheet initialOpen={menu.openRequested} />;
  return (
    <button
      {...placeholderTriggerProps(menu, 'click')}
      className={buttonClass('ghost', 'icon', 'md:hidden')}
      aria-label="Menu openen"
      aria-haspopup="dialog"
      aria-expanded={false}
    >
      <Menu aria-hidden className="h-5 w-5" />
    </button>
  );
}
