import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';

/**
 * The choice is kept in a cookie, which the server reads to send every page (the identity provider's screens
 * too) in that theme, so no script has to run before the first paint; and in local storage, where choices
 * were kept before the cookie. Same name as apps/server/src/shared/theme.ts.
 */
export const THEME_KEY = 'aandenken-theme';
const THEME_COLORS: Record<Theme, string> = { dark: '#0f1417', light: '#f8f5f0' };

function keep(theme: Theme) {
  document.cookie = `${THEME_KEY}=${theme}; path=/; max-age=31536000; samesite=lax`;
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Private mode without storage: the cookie still keeps it.
  }
}

const listeners = new Set<() => void>();

export function getTheme(): Theme {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

export function setTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  document.documentElement.style.colorScheme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLORS[theme]);
  keep(theme);
  listeners.forEach((listener) => listener());
}

/**
 * A choice kept only in local storage (before the cookie existed) becomes a cookie, so the next page
 * arrives in it; this page is switched now.
 */
export function adoptStoredTheme(): void {
  if (document.cookie.split(';').some((c) => c.trim().startsWith(`${THEME_KEY}=`))) return;
  let stored: string | null;
  try {
    stored = localStorage.getItem(THEME_KEY);
  } catch {
    return;
  }
  if (stored === 'light' || stored === 'dark') setTheme(stored);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, getTheme, () => 'dark');
}
