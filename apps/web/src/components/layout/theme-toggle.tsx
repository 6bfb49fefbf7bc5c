import { useEffect } from 'react';
import { Moon, Sun } from './shell-icons.tsx';
import { deferred, placeholderTriggerProps, useDeferred } from '../../lib/deferred.ts';
import { adoptStoredTheme, useTheme } from '../../lib/theme.ts';
import { buttonClass } from '../ui/button.tsx';

const themeMenu = deferred(() => import('./theme-menu.tsx'));

/**
 * Offers Light and Dark (spec §2); the choice is kept in the browser (a cookie the server reads). The menu (Radix) loads when the
 * trigger is hovered, focused or used, so it is not part of the first download.
 */
export function ThemeToggle() {
  const theme = useTheme();
  const menu = useDeferred(themeMenu);
  useEffect(adoptStoredTheme, []);
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
