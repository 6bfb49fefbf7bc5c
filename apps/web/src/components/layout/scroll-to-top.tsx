import { useEffect, useState } from 'react';
import { SCROLL_TO_TOP_THRESHOLD_PX } from '@aandenken/contract';
import { deferred } from '../../lib/deferred.ts';

const button = deferred(() => import('./scroll-to-top-button.tsx'));

/**
 * Appears after scrolling more than 400px. The button itself loads the first time a page is
 * scrolled that far, so it is not part of the first download.
 */
export function ScrollToTop() {
  const [visible, setVisible] = useState(false);
  const [loaded, setLoaded] = useState(() => button.module);
  useEffect(() => {
    const update = () => {
      const past = window.scrollY > SCROLL_TO_TOP_THRESHOLD_PX;
      setVisible(past);
      if (past) void button.load().then((m) => setLoaded(() => m));
    };
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);
  if (!visible || !loaded) return null;
  return <loaded.ScrollToTopButton />;
}
