import { useSyncExternalStore } from 'react';

type Sonner = typeof import('sonner');

// sonner (and the <Toaster> that shows its toasts) loads with the first toast, not with the page:
// docs/performance.md keeps the entry of '/' small.
let requested = false;
let sonner: Promise<Sonner> | undefined;
let markMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});
const listeners = new Set<() => void>();

function show(fn: (s: Sonner) => void) {
  if (!requested) {
    requested = true;
    listeners.forEach((l) => l());
  }
  sonner ??= import('sonner');
  // The toaster subscribes when it mounts; a toast sent before then would not be shown.
  void Promise.all([sonner, mounted]).then(([s]) => fn(s));
}

/** Whether the layout should mount the toaster (after the first toast was asked for). */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => requested,
    () => false,
  );
}

/** Called by the toaster once it listens. */
export function toasterMounted() {
  markMounted();
}

/**
 * The one way features show a toast. The <Toaster> in the layout shows one at a time for 5000 ms.
 */
export const toast = {
  success: (title: string, description?: string) => show((s) => s.toast.success(title, { description })),
  error: (title: string, description?: string) => show((s) => s.toast.error(title, { description })),
  info: (title: string, description?: string) => show((s) => s.toast(title, { description })),
};
