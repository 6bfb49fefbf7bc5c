import { lazy, Suspense, useState, type ComponentProps } from 'react';

const Viewer = lazy(() => import('./photo-viewer.tsx').then((m) => ({ default: m.PhotoViewer })));

/**
 * The full-screen viewer, loaded (with Radix's dialog) when a photo is first opened: nothing of it is
 * needed for the first screen. Stays mounted afterwards, so closing animates and returns focus as before.
 */
export function PhotoViewer(props: ComponentProps<typeof Viewer>) {
  const [used, setUsed] = useState(false);
  if (props.index !== null && !used) setUsed(true);
  if (!used && props.index === null) return null;
  return (
    <Suspense fallback={null}>
      <Viewer {...props} />
    </Suspense>
  );
}
