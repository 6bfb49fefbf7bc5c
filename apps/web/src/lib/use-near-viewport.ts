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

/**
 * For what is heavy to set up and sits below the first screen (the Swiper carousels): a callback ref for the
 * element and `near`, which turns true once the element came within `margin` of the screen and the browser
 * then had an idle moment. So the set-up never joins the page's hydration in one long task (measured with
 * Lighthouse on a phone profile: Swiper's start inside hydration's commit was a 70–90 ms task).
 * False in the server's render and during hydration, so the HTML matches; without IntersectionObserver
 * (very old browsers) it turns true at the first idle moment.
 */
export function useNearViewport<T extends Element>(margin: string) {
  const [el, setEl] = useState<T | null>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (!el || near) return;
    if (typeof IntersectionObserver === 'undefined') return whenIdle(() => setNear(true));
    let cancelIdle: (() => void) | undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        cancelIdle ??= whenIdle(() => setNear(true));
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      cancelIdle?.();
    };
  }, [el, near, margin]);
  return [setEl, near] as const;
}
