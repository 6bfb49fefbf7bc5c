import { describe, expect, it } from 'vitest';
import {
  carouselReducer,
  initialCarouselState,
  nextIndex,
  prevIndex,
  releaseIndex,
  trackStyle,
  type CarouselAction,
  type CarouselState,
} from './carousel-logic.ts';

const run = (state: CarouselState, ...actions: CarouselAction[]) => actions.reduce(carouselReducer, state);

describe('carousel logic', () => {
  it('starts at the first of three slides, not dragging', () => {
    expect(initialCarouselState(3)).toEqual({ count: 3, index: 0, dragging: false, startX: 0, offsetX: 0 });
    expect(() => initialCarouselState(0)).toThrow(RangeError);
  });

  it('goes next and previous with wraparound at both ends', () => {
    const s = initialCarouselState(3);
    expect(run(s, { type: 'next' }).index).toBe(1);
    expect(run(s, { type: 'next' }, { type: 'next' }).index).toBe(2);
    expect(run(s, { type: 'next' }, { type: 'next' }, { type: 'next' }).index).toBe(0);
    expect(run(s, { type: 'prev' }).index).toBe(2);
    expect(run(s, { type: 'prev' }, { type: 'prev' }).index).toBe(1);
    expect(nextIndex(2, 3)).toBe(0);
    expect(prevIndex(0, 3)).toBe(2);
  });

  it('jumps to a dot, wrapping out-of-range indexes', () => {
    const s = initialCarouselState(3);
    expect(run(s, { type: 'goTo', index: 2 }).index).toBe(2);
    expect(run(s, { type: 'goTo', index: 4 }).index).toBe(1);
    expect(run(s, { type: 'goTo', index: -1 }).index).toBe(2);
  });

  it('tracks the drag offset only while dragging', () => {
    const s = initialCarouselState(3);
    expect(run(s, { type: 'dragMove', x: 50 })).toEqual(s);
    const dragging = run(s, { type: 'dragStart', x: 200 }, { type: 'dragMove', x: 140 });
    expect(dragging.dragging).toBe(true);
    expect(dragging.offsetX).toBe(-60);
  });

  it('moves to next after a left drag beyond 30% of the window width', () => {
    const s = run(initialCarouselState(3), { type: 'dragStart', x: 300 }, { type: 'dragMove', x: 300 - 118 });
    const after = carouselReducer(s, { type: 'dragEnd', windowWidth: 390 });
    expect(after).toMatchObject({ index: 1, dragging: false, offsetX: 0 });
  });

  it('moves to previous (wrapping) after a right drag beyond 30%', () => {
    const s = run(initialCarouselState(3), { type: 'dragStart', x: 10 }, { type: 'dragMove', x: 10 + 118 });
    expect(carouselReducer(s, { type: 'dragEnd', windowWidth: 390 }).index).toBe(2);
  });

  it('snaps back when the drag stays within 30% (the boundary itself does not count)', () => {
    const s = run(initialCarouselState(3), { type: 'dragStart', x: 0 }, { type: 'dragMove', x: -117 });
    expect(carouselReducer(s, { type: 'dragEnd', windowWidth: 390 })).toMatchObject({
      index: 0,
      dragging: false,
      offsetX: 0,
    });
    expect(releaseIndex(1, 3, 300, 1000)).toBe(1);
    expect(releaseIndex(1, 3, -300, 1000)).toBe(1);
    expect(releaseIndex(1, 3, 301, 1000)).toBe(0);
    expect(releaseIndex(1, 3, -301, 1000)).toBe(2);
  });

  it('ignores a release without a drag, and a cancelled drag keeps the slide', () => {
    const s = initialCarouselState(3);
    expect(carouselReducer(s, { type: 'dragEnd', windowWidth: 390 })).toBe(s);
    const cancelled = run(
      s,
      { type: 'dragStart', x: 0 },
      { type: 'dragMove', x: -300 },
      { type: 'dragCancel' },
    );
    expect(cancelled).toMatchObject({ index: 0, dragging: false, offsetX: 0 });
  });

  it('animates 300 ms when settling and follows the finger without transition while dragging', () => {
    const s = run(initialCarouselState(3), { type: 'next' });
    expect(trackStyle(s)).toEqual({
      transform: 'translate3d(calc(-100% + 0px), 0, 0)',
      transition: 'transform 300ms ease-out',
    });
    const dragging = run(s, { type: 'dragStart', x: 100 }, { type: 'dragMove', x: 80 });
    expect(trackStyle(dragging)).toEqual({
      transform: 'translate3d(calc(-100% + -20px), 0, 0)',
      transition: 'none',
    });
  });
});
