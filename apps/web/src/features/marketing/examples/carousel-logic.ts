import { CAROUSEL_SWIPE_THRESHOLD, CAROUSEL_TRANSITION_MS } from '@aandenken/contract';

/**
 * The examples carousel as pure state: index 0..count-1 with wraparound, a dragging state,
 * and on release a drag beyond 30% of the window width moves to the previous (right drag) or next
 * (left drag) slide. No DOM here, so every rule is unit-tested.
 */
export interface CarouselState {
  count: number;
  index: number;
  dragging: boolean;
  startX: number;
  /** Horizontal distance dragged so far, in px (positive = to the right). */
  offsetX: number;
}

export type CarouselAction =
  | { type: 'next' }
  | { type: 'prev' }
  | { type: 'goTo'; index: number }
  | { type: 'dragStart'; x: number }
  | { type: 'dragMove'; x: number }
  | { type: 'dragEnd'; windowWidth: number }
  | { type: 'dragCancel' };

export const TRANSITION_MS = CAROUSEL_TRANSITION_MS;
export const SWIPE_THRESHOLD = CAROUSEL_SWIPE_THRESHOLD;

export function initialCarouselState(count: number): CarouselState {
  if (!Number.isInteger(count) || count < 1) throw new RangeError('A carousel needs at least one slide');
  return { count, index: 0, dragging: false, startX: 0, offsetX: 0 };
}

const wrap = (index: number, count: number) => ((index % count) + count) % count;

export function nextIndex(index: number, count: number): number {
  return wrap(index + 1, count);
}

export function prevIndex(index: number, count: number): number {
  return wrap(index - 1, count);
}

/** Where a released drag lands: previous for a right drag, next for a left drag, else where it was. */
export function releaseIndex(index: number, count: number, offsetX: number, windowWidth: number): number {
  const threshold = windowWidth * SWIPE_THRESHOLD;
  if (offsetX > threshold) return prevIndex(index, count);
  if (offsetX < -threshold) return nextIndex(index, count);
  return index;
}

export function carouselReducer(state: CarouselState, action: CarouselAction): CarouselState {
  switch (action.type) {
    case 'next':
      return { ...state, index: nextIndex(state.index, state.count) };
    case 'prev':
      return { ...state, index: prevIndex(state.index, state.count) };
    case 'goTo':
      return { ...state, index: wrap(Math.trunc(action.index), state.count) };
    case 'dragStart':
      return { ...state, dragging: true, startX: action.x, offsetX: 0 };
    case 'dragMove':
      return state.dragging ? { ...state, offsetX: action.x - state.startX } : state;
    case 'dragEnd':
      if (!state.dragging) return state;
      return {
        ...state,
        index: releaseIndex(state.index, state.count, state.offsetX, action.windowWidth),
        dragging: false,
        startX: 0,
        offsetX: 0,
      };
    case 'dragCancel':
      return { ...state, dragging: false, startX: 0, offsetX: 0 };
  }
}

/** The track's CSS: it follows the finger while dragging and eases for 300 ms otherwise. */
export function trackStyle(state: CarouselState): { transform: string; transition: string } {
  return {
    transform: `translate3d(calc(${-state.index * 100}% + ${state.offsetX}px), 0, 0)`,
    transition: state.dragging ? 'none' : `transform ${TRANSITION_MS}ms ease-out`,
  };
}
