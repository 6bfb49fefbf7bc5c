import { useReducer, useRef, type PointerEvent } from 'react';
import { Link } from 'react-router';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { buttonClass } from '../../../components/ui/button.tsx';
import type { ExampleMemorial } from '../../../content/examples.ts';
import { cn } from '../../../lib/cn.ts';
import { carouselReducer, initialCarouselState, trackStyle } from './carousel-logic.ts';
import { ExampleCard } from './example-card.tsx';

/** Small screens: one card at a time, with buttons, dots, touch swipe and mouse drag. */
export function ExamplesCarousel({ examples }: { examples: readonly ExampleMemorial[] }) {
  const [state, dispatch] = useReducer(carouselReducer, examples.length, initialCarouselState);
  const moved = useRef(false);
  // The pointer being followed, kept outside React state so fast events never see a stale value.
  const pointer = useRef<{ id: number; startX: number } | null>(null);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    pointer.current = { id: e.pointerId, startX: e.clientX };
    moved.current = false;
    dispatch({ type: 'dragStart', x: e.clientX });
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const p = pointer.current;
    if (!p || p.id !== e.pointerId) return;
    if (!moved.current && Math.abs(e.clientX - p.startX) > 6) {
      moved.current = true;
      // Capture only once it is a drag, so a plain tap still clicks the link under it.
      e.currentTarget.setPointerCapture?.(e.pointerId);
    }
    dispatch({ type: 'dragMove', x: e.clientX });
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (pointer.current?.id !== e.pointerId) return;
    pointer.current = null;
    dispatch({ type: 'dragEnd', windowWidth: window.innerWidth });
  };
  const onPointerCancel = () => {
    pointer.current = null;
    dispatch({ type: 'dragCancel' });
  };

  const current = examples[state.index]!;

  return (
    <section
      aria-roledescription="carrousel"
      aria-label="Voorbeelden van gedenkpagina's"
      className="relative"
    >
      <div className="overflow-hidden rounded-2xl">
        <div
          data-testid="carousel-track"
          className={cn('flex touch-pan-y select-none', state.dragging ? 'cursor-grabbing' : 'cursor-grab')}
          style={trackStyle(state)}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerCancel}
          onClickCapture={(e) => {
            // A drag that ends on a link is not a click on it.
            if (moved.current) {
              e.preventDefault();
              e.stopPropagation();
              moved.current = false;
            }
          }}
          onDragStart={(e) => e.preventDefault()}
        >
          {examples.map((example, i) => (
            <div
              key={example.id}
              role="group"
              aria-roledescription="dia"
              aria-label={`${i + 1} van ${examples.length}: ${example.title}`}
              aria-hidden={i !== state.index}
              inert={i !== state.index}
              className="w-full shrink-0 px-0.5"
            >
              <ExampleCard
                example={example}
                footer={
                  <Link
                    to={routes.memorial(example.memorialId)}
                    className={buttonClass('primary', 'md', 'w-full')}
                  >
                    Bekijk profiel
                  </Link>
                }
              />
            </div>
          ))}
        </div>
      </div>

      <div className="mt-5 flex items-center justify-between gap-4">
        <button
          type="button"
          onClick={() => dispatch({ type: 'prev' })}
          className={buttonClass('outline', 'icon')}
          aria-label="Vorige"
        >
          <ChevronLeft aria-hidden className="h-5 w-5" />
        </button>
        <div className="flex items-center gap-1">
          {examples.map((example, i) => (
            <button
              key={example.id}
              type="button"
              onClick={() => dispatch({ type: 'goTo', index: i })}
              aria-label={`Ga naar voorbeeld ${i + 1}: ${example.title}`}
              aria-current={i === state.index ? 'true' : undefined}
              className="group flex h-10 w-8 cursor-pointer items-center justify-center rounded-full"
            >
              <span
                className={cn(
                  'block h-2.5 rounded-full transition-all duration-300',
                  i === state.index ? 'w-6 bg-primary' : 'w-2.5 bg-input group-hover:bg-muted',
                )}
              />
            </button>
          ))}
        </div>
        <button
          type="button"
          onClick={() => dispatch({ type: 'next' })}
          className={buttonClass('outline', 'icon')}
          aria-label="Volgende"
        >
          <ChevronRight aria-hidden className="h-5 w-5" />
        </button>
      </div>
      <p className="sr-only" aria-live="polite">
        Voorbeeld {state.index + 1} van {examples.length}: {current.title}
      </p>
    </section>
  );
}
