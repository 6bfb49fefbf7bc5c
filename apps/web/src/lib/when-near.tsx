import { useEffect, useRef, useState, type ReactNode } from 'react';
import { whenNearAfterIntent } from './use-in-view.ts';

/**
 * Renders `children` once the visitor has shown intent (scrolled, touched, pressed a key) and this place in the
 * page is within `margin` of the screen; until then an empty marker. For sections rendered in the browser
 * only (not in the server's HTML) that sit far below the first screen: their chunk and their reads wait until
 * the visitor comes near (decision 019).
 */
export function WhenNear({ children, margin = '600px 0px' }: { children: ReactNode; margin?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near || !ref.current) return;
    return whenNearAfterIntent(ref.current, margin, () => setNear(true));
  }, [near, margin]);
  return near ? children : <div ref={ref} aria-hidden className="h-px" />;
}
