import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while React renders on the server and while it hydrates that HTML, true afterwards (and at once in a
 * page rendered in the browser). For what depends on the moment it is shown ('5 minuten geleden': the
 * server's HTML may be kept for hours, and hydration must see what the server rendered), and for what only
 * works once the script runs (a form's submit button).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
