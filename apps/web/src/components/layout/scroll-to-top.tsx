import { useEffect, useState } from 'react';
import { ArrowUp } from './shell-icons.tsx';
import { SCROLL_TO_TOP_THRESHOLD_PX } from '@aandenken/contract';
import { cn } from '../../lib/cn.ts';

/** Appears after scrolling more than 400px (spec §9). */
export function ScrollToTop() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const update = () => setVisible(window.scrollY > SCROLL_TO_TOP_THRESHOLD_PX);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);
  if (!visible) return null;
  return (
    <button
      type="button"
      aria-label="Terug naar boven"
      title="Terug naar boven"
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
      className={cn(
        'fixed right-5 bottom-5 z-30 flex h-12 w-12 animate-rise-in cursor-pointer items-center justify-center rounded-full border border-border bg-card text-foreground shadow-lift transition-colors hover:bg-secondary sm:right-8 sm:bottom-8',
      )}
    >
      <ArrowUp aria-hidden className="h-5 w-5" />
    </button>
  );
}
