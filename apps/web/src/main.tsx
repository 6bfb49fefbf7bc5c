import { startTransition, StrictMode, useEffect, type ReactElement } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter, matchRoutes, useLocation, useNavigate } from 'react-router';
import type { QueryKey } from '@tanstack/react-query';
import { AppProviders, createQueryClient } from './app/providers.tsx';
import type { LazyPage } from './app/lazy-page.ts';
import { AppRoutes, appRoutes } from './app/router.tsx';
import { hasStoredSession } from './lib/auth/oidc-config.ts';
import { readGuestToken } from './lib/guest-token.ts';
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
const queryClient = createQueryClient();

/**
 * Puts the server's data into the query cache, unless this visitor sees another page than the HTML (signed in,
 * or holding this memorial's guest token: a guest's page); resolves to whether they do. Storage reads and the
 * data block's parsing happen in the task that hydrates, not while the entry evaluates; the token's reader
 * loads only for a visitor who has one (it is part of the memorial page's chunks, not of the entry).
 */
async function adoptServerData(): Promise<boolean> {
  const serverData = readServerData();
  const seesOtherPage =
    hasStoredSession() ||
    (serverData !== null &&
      readGuestToken() !== null &&
      (await import('./lib/memorials/guest-access.ts')).readGuestAccess()?.memorialId ===
        serverData.memorialId);
  if (serverData && !seesOtherPage) {
    for (const [key, data] of serverData.queries) queryClient.setQueryData(key, data);
  }
  return seesOtherPage;
}
/**
 * The path the HTML was made for: the document's own request. A script's `history.pushState` before the app
 * started changes the address but not this (Navigation Timing), so main.tsx can tell that the HTML no longer
 * belongs to the address; hydrating it then would render another route over it (React error #418).
 */
function servedPath(): string {
  try {
    const [navigation] = performance.getEntriesByType('navigation');
    if (navigation) return new URL(navigation.name).pathname;
  } catch {
    /* no navigation timing: assume the address is the one served */
  }
  return window.location.pathname;
}

/**
 * The router reads the address once, when it first renders, and listens for changes from its first commit;
 * a change in between (while a page hydrates in a transition) would be missed: follow it once mounted.
 */
function FollowAddress() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const actual = `${window.location.pathname}${window.location.search}${window.location.hash}`;
    // An entry the router made itself (a redirect while mounting) carries its key: the router knows it.
    const ours = (window.history.state as { key?: unknown } | null)?.key !== undefined;
    if (!ours && actual !== `${location.pathname}${location.search}${location.hash}`)
      void navigate(actual, { replace: true });
    // Once, after the first commit: later changes reach the router through its own listener.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}

/** The current page's chunk, requested before hydrating (below). */
let pageLoaded: Promise<unknown> = Promise.resolve();

/**
 * Tells public/boot.js that the app has taken over the page: it repeats the taps that came before. Once the
 * page's own chunk is there too: a tap on a button of the page (the memorial's 'Delen') reaches React while
 * that part is still server HTML, and React can hydrate it for the tap only when its code is loaded; without
 * it the tap was dropped.
 */
function AnnounceStarted() {
  useEffect(() => {
    void pageLoaded.then(() => window.dispatchEvent(new Event('aandenken:started')));
  }, []);
  return null;
}

const app = (
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
        <FollowAddress />
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
// memorial a guest's page, so then the app renders afresh; so does an address that changed (a script's
// pushState) after the HTML arrived and before the app started: the HTML is another route's.
const served = servedPath();
const renderAfresh = () => {
  container.replaceChildren();
  createRoot(container).render(app);
};
if (container.firstElementChild && served === window.location.pathname) {
  // The page's chunks: the server's HTML lists them for public/boot.js, which has added their module
  // preloads before this script ran, so the import below finds them and adds none of its own.
  pageLoaded = Promise.all(
    (matchRoutes(appRoutes, window.location) ?? []).map((m) =>
      (m.route.element as ReactElement<unknown, LazyPage> | undefined)?.type?.preload?.(),
    ),
  ).catch(() => undefined);
  // In a task of its own: the entry's evaluation is one long task already, and measured on a phone profile
  // the two together were a 80–130 ms task.
  setTimeout(async () => {
    if ((await adoptServerData()) || window.location.pathname !== served) return renderAfresh();
    startTransition(() => {
      hydrateRoot(container, app);
    });
  });
} else {
  // The prerendered HTML (a signed-out header) would look clickable until React replaced it: start empty.
  void adoptServerData().then(renderAfresh);
}
