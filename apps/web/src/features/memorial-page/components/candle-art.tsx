import { useEffect, useRef } from 'react';
import { cn } from '../../../lib/cn.ts';

/**
 * A lit candle with a slowly breathing flame (still with reduced motion). Decorative. The halo and the flame
 * are `<svg>` boxes of their own, stacked on the candle, and breathe by transform and opacity only, so the
 * compositor runs the animation without style recalculation or paint (on an element inside an SVG it cannot);
 * and only while the candle is on the screen (`data-in-view`, memorial.css).
 */
export function CandleArt({ className }: { className?: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      const shown = entries.some((e) => e.isIntersecting);
      if (shown) el.setAttribute('data-in-view', '');
      else el.removeAttribute('data-in-view');
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const layer = 'absolute inset-0 h-full w-full overflow-visible';
  return (
    <span ref={ref} aria-hidden className={cn('candle-art relative block', className)}>
      <svg viewBox="0 0 120 200" className={cn('candle-glow', layer)}>
        <defs>
          <radialGradient id="candle-halo" cx="50%" cy="50%" r="50%">
            <stop offset="0" stopColor="#ffd98a" stopOpacity="0.75" />
            <stop offset="1" stopColor="#ffd98a" stopOpacity="0" />
          </radialGradient>
        </defs>
        <circle cx="60" cy="62" r="58" fill="url(#candle-halo)" />
      </svg>
      <svg viewBox="0 0 120 200" className={cn('candle-flame', layer)}>
        <defs>
          <linearGradient id="candle-flame-fill" x1="0" y1="1" x2="0" y2="0">
            <stop offset="0" stopColor="#f59e2b" />
            <stop offset="0.55" stopColor="#ffd36b" />
            <stop offset="1" stopColor="#fff6d8" />
          </linearGradient>
        </defs>
        <path d="M60 30 C 72 50 74 64 60 82 C 46 64 48 50 60 30 Z" fill="url(#candle-flame-fill)" />
        <path d="M60 56 C 65 64 65 72 60 80 C 55 72 55 64 60 56 Z" fill="#fff8e6" opacity="0.9" />
      </svg>
      <svg viewBox="0 0 120 200" className={layer}>
        <defs>
          <linearGradient id="candle-wax" x1="0" y1="0" x2="1" y2="0">
            <stop offset="0" stopColor="#efe6d6" />
            <stop offset="0.5" stopColor="#fbf6ec" />
            <stop offset="1" stopColor="#e3d8c4" />
          </linearGradient>
        </defs>
        <path d="M60 80 v8" stroke="#3a2e25" strokeWidth="2.5" strokeLinecap="round" />
        <rect x="38" y="88" width="44" height="100" rx="6" fill="url(#candle-wax)" />
        <path d="M44 88 q6 14 0 24" stroke="#e6dccb" strokeWidth="4" fill="none" strokeLinecap="round" />
        <ellipse cx="60" cy="190" rx="40" ry="7" fill="currentColor" opacity="0.12" />
      </svg>
    </span>
  );
}
