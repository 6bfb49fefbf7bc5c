import { useEffect, useState } from 'react';

type IdleHandle = ReturnType<typeof setTimeout> | number;

/** The browser's next idle moment, at most a second away (setTimeout where requestIdleCallback is missing). */
function whenIdle(callback: () => void): () => void {
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
 * moment. `preload` is called when it comes within `preloadMargin` of the screen, so the code is there by then.
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
    const stopPreload = onceNear(el, preloadMargin, () => void preload());
    const stopShow = onceNear(el, '0px', show);
    return () => {
      stopPreload();
      stopShow();
      cancelIdle?.();
    };
  }, [el, shown, preloadMargin, preload]);
  return [setEl, shown] as const;
}
