import { startTransition, StrictMode, type ReactElement } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter, matchRoutes } from 'react-router';
import { AppProviders } from './app/providers.tsx';
import type { LazyPage } from './app/lazy-page.ts';
import { AppRoutes, appRoutes } from './app/router.tsx';
import { hasStoredSession } from './lib/auth/oidc-config.ts';
import './styles.css';

const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <AppProviders>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>
);

// Public pages arrive prerendered (scripts/prerender.mjs): React adopts the HTML (hydrateRoot) instead of
// replacing it. Hydration starts at once, so the header answers a tap as soon as this script has run (React
// replays events that arrive while it hydrates); the current page's chunk is requested at the same time, and
// until it is there its part of the HTML stays as it is (a Suspense boundary), so nothing mismatches. Hydrating
// in a transition lets React yield to the browser every few milliseconds (no long task on a painted page). A
// stored session renders a signed-in header the HTML does not have, so then the app renders afresh.
if (container.firstElementChild && !hasStoredSession()) {
  for (const m of matchRoutes(appRoutes, window.location) ?? []) {
    void (m.route.element as ReactElement<unknown, LazyPage> | undefined)?.type?.preload?.();
  }
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  // The prerendered HTML (a signed-out header) would look clickable until React replaced it: start empty.
  container.replaceChildren();
  createRoot(container).render(app);
}
