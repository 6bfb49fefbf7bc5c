import { useEffect } from 'react';
import { Moon, Sun } from './shell-icons.tsx';
import { deferred, placeholderTriggerProps, useDeferred } from '../../lib/deferred.ts';
import { adoptStoredTheme, useTheme } from '../../lib/theme.ts';
import { whenIdle } from '../../lib/use-in-view.ts';
import { buttonClass } from '../ui/button.tsx';

const themeMenu = deferred(() => import('./theme-menu.tsx'));

/**
 * Offers Light and Dark; the choice is kept in the browser (a cookie the server reads). The menu (Radix) loads when the
 * trigger is hovered, focused or used, so it is not part of the first download.
 */
export function ThemeToggle() {
  const theme = useTheme();
  const menu = useDeferred(themeMenu);
  // At an idle moment, not in hydration's task: reading the cookie jar is synchronous and was measured at up to
  // 70 ms on a busy phone.
  useEffect(() => whenIdle(adoptStoredTheme), []);
  if (menu.module) return <menu.module.ThemeMenu defaultOpen={menu.openRequested} />;
  return (
    <button
      {...placeholderTriggerProps(menu)}
      className={buttonClass('ghost', 'icon')}
      aria-label="Thema wisselen"
      title="Thema wisselen"
      aria-haspopup="menu"
      aria-expanded={false}
    >
      {theme === 'dark' ? <Moon aria-hidden className="h-5 w-5" /> : <Sun aria-hidden className="h-5 w-5" />}
    </button>
  );
}
