import { lazy, Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router';
import { isFooterHidden } from '@aandenken/contract';
import { useToasterWanted } from '../../lib/toast.ts';
import { PageSpinner } from '../ui/spinner.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import { ScrollToTop } from './scroll-to-top.tsx';
// After the header and footer: imported before them, it moved clsx out of the entry into a chunk of its own
// (docs/performance.md).
import { RouteErrorBoundary } from './route-error.tsx';

// sonner loads with the first toast (lib/toast.ts), not with the page.
const Toaster = lazy(() => import('./toaster.tsx'));

/** Menus and dialogs (Radix renders them in a portal with these roles). */
const OVERLAY = '[role="menu"], [role="dialog"], [role="alertdialog"], [role="listbox"]';

export function RootLayout() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  const toasterWanted = useToasterWanted();

  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    // A new page starts at its top (back and forward keep the browser's own scroll restoration), unless the
    // link points at a section.
    if (navigationType !== 'POP' && !hash) window.scrollTo(0, 0);
    // After client-side navigation, a new page starts with focus at the top, so keyboard and screen-reader users
    // begin at its start; not when the person has opened a menu or dialog while the page's code was loading (the
    // page commits only then): moving focus out of it would close it under their hand.
    if (!document.activeElement?.closest(OVERLAY))
      document.getElementById('main')?.focus({ preventScroll: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of page counts
  }, [pathname]);

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-full bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Naar de inhoud
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {/* A page that fails shows what to do here, under a working header; another page tries again. */}
        <RouteErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      {!isFooterHidden(pathname) && <Footer />}
      <ScrollToTop />
      {toasterWanted && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </div>
  );
}
