import { useEffect, useState } from 'react';

// The visitor's first sign of using the page (decision 019): what is below the first screen loads only after it.
const INTENT_EVENTS = ['scroll', 'wheel', 'pointerdown', 'touchstart', 'keydown'] as const;
let intent: Promise<void> | null = null;

/** Resolves at the visitor's first scroll, touch, click or key (a page opened at an anchor scrolls at once). */
export function firstIntent(): Promise<void> {
  intent ??= new Promise<void>((resolve) => {
    // Scrolled before the app had started (or the browser restored a position): that was it.
    if (window.scrollY > 0 || window.scrollX > 0) return resolve();
    const done = () => {
      for (const e of INTENT_EVENTS) window.removeEventListener(e, done, true);
      resolve();
    };
    for (const e of INTENT_EVENTS) window.addEventListener(e, done, { capture: true, passive: true });
  });
  return intent;
}

/** Calls `onNear` once the visitor has shown intent and `el` is within `margin` of the screen. */
export function whenNearAfterIntent(el: Element, margin: string, onNear: () => void): () => void {
  let stopped = false;
  let observer: IntersectionObserver | undefined;
  void firstIntent().then(() => {
    if (stopped) return;
    if (typeof IntersectionObserver === 'undefined') return onNear();
    observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer?.disconnect();
        onNear();
      },
      { rootMargin: margin },
    );
    observer.observe(el);
  });
  return () => {
    stopped = true;
    observer?.disconnect();
  };
}

type IdleHandle = ReturnType<typeof setTimeout> | number;

/** The browser's next idle moment, at most a second away (setTimeout where requestIdleCallback is missing). */
export function whenIdle(callback: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle: IdleHandle = requestIdleCallback(callback, { timeout: 1000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(callback, 50);
  return () => clearTimeout(handle);
}

/** Calls `onEnter` once, the first time `el` comes within `margin` of the screen; returns the clean-up. */
function onceNear(el: Element, margin: string, onEnter: () => void): () => void {
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      onEnter();
    },
    { rootMargin: margin },
  );
  observer.observe(el);
  return () => observer.disconnect();
}

/**
 * For what is heavy to start and sits below the first screen (the Swiper carousels): a callback ref for the
 * element and `shown`, which turns true once the element is on the screen and the browser then had an idle
 * moment. `preload` is called when it comes within `preloadMargin` of the screen once the visitor has scrolled or
 * touched the page, so the code is there by then.
 * Measured with Lighthouse on a phone profile: Swiper's start is a 70–90 ms task (it measures the slides and
 * forces a layout); inside hydration's commit, or right after it because the gallery was 400 px below the
 * first screen, it was part of the page's blocking time.
 * False in the server's render and during hydration, so the HTML matches; without IntersectionObserver (very
 * old browsers) it preloads and turns true at the first idle moment.
 */
export function useInView<T extends Element>(preloadMargin: string, preload: () => unknown) {
  const [el, setEl] = useState<T | null>(null);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!el || shown) return;
    let cancelIdle: (() => void) | undefined;
    const show = () => (cancelIdle ??= whenIdle(() => setShown(true)));
    if (typeof IntersectionObserver === 'undefined') {
      void preload();
      show();
      return () => cancelIdle?.();
    }
    // Not before the visitor has scrolled or touched the page: a first visit that reads only the first screen
    // downloads no carousel (decision 019).
    const stopPreload = whenNearAfterIntent(el, preloadMargin, () => void preload());
    const stopShow = onceNear(el, '0px', show);
    return () => {
      stopPreload();
      stopShow();
      cancelIdle?.();
    };
  }, [el, shown, preloadMargin, preload]);
  return [setEl, shown] as const;
}
