import { startTransition, StrictMode, useEffect, type ReactElement } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter, matchRoutes } from 'react-router';
import type { QueryKey } from '@tanstack/react-query';
import { AppProviders, createQueryClient } from './app/providers.tsx';
import type { LazyPage } from './app/lazy-page.ts';
import { AppRoutes, appRoutes } from './app/router.tsx';
import { hasStoredSession } from './lib/auth/oidc-config.ts';
import { readGuestAccess } from './lib/memorials/guest-access.ts';
import './styles.css';

/**
 * The data a page rendered on the server at request time (the public memorial page) was rendered with: a
 * non-executable JSON block (the CSP allows no inline script), put into the query cache before hydrating so
 * the first render in the browser is the server's.
 */
function readServerData(): { memorialId: string; queries: Array<[QueryKey, unknown]> } | null {
  const text = document.getElementById('ssr-data')?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as { memorialId: string; queries: Array<[QueryKey, unknown]> };
  } catch {
    return null;
  }
}

const container = document.getElementById('root')!;
const serverData = readServerData();
const queryClient = createQueryClient();
// A visitor holding this memorial's guest token sees it as a guest (another page than the anonymous one).
const seesOtherPage =
  hasStoredSession() || (serverData !== null && readGuestAccess()?.memorialId === serverData.memorialId);
if (serverData && !seesOtherPage) {
  for (const [key, data] of serverData.queries) queryClient.setQueryData(key, data);
}
/** Tells public/boot.js that the app has taken over the page: it repeats the taps that came before. */
function AnnounceStarted() {
  useEffect(() => {
    window.dispatchEvent(new Event('aandenken:started'));
  }, []);
  return null;
}

const app = (
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
    <AnnounceStarted />
  </StrictMode>
);

// Public pages arrive prerendered (scripts/prerender.mjs): React adopts the HTML (hydrateRoot) instead of
// replacing it. Hydration starts in the next task, so the header answers a tap soon after this script has run
// (React replays events that arrive while it hydrates; public/boot.js keeps taps that come before it and
// repeats them once the app has started); the current page's chunk is requested before that, and
// until it is there its part of the HTML stays as it is (a Suspense boundary), so nothing mismatches. Hydrating
// in a transition lets React yield to the browser every few milliseconds (no long task on a painted page). A
// stored session renders a signed-in header the HTML does not have, and a guest token for a server-rendered
// memorial a guest's page, so then the app renders afresh.
if (container.firstElementChild && !seesOtherPage) {
  for (const m of matchRoutes(appRoutes, window.location) ?? []) {
    void (m.route.element as ReactElement<unknown, LazyPage> | undefined)?.type?.preload?.();
  }
  // In a task of its own: the entry's evaluation and the chunk requests above are one task already, and
  // measured on a phone profile the two together were a 80–130 ms task.
  setTimeout(() =>
    startTransition(() => {
      hydrateRoot(container, app);
    }),
  );
} else {
  // The prerendered HTML (a signed-out header) would look clickable until React replaced it: start empty.
  container.replaceChildren();
  createRoot(container).render(app);
}
