import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useInView } from './use-in-view.ts';

const preload = vi.fn();

function Probe() {
  const [ref, shown] = useInView<HTMLDivElement>('400px 0px', preload);
  return <div ref={ref}>{shown ? 'shown' : 'waiting'}</div>;
}

/** An IntersectionObserver whose callbacks the test calls, found by its margin. */
class FakeObserver {
  static all: FakeObserver[] = [];
  disconnected = false;
  constructor(
    readonly callback: (entries: Array<{ isIntersecting: boolean }>) => void,
    readonly options: { rootMargin?: string },
  ) {
    FakeObserver.all.push(this);
  }
  observe() {}
  disconnect() {
    this.disconnected = true;
  }
  static withMargin(margin: string) {
    return FakeObserver.all.filter((o) => o.options.rootMargin === margin).at(-1);
  }
}

describe('useInView', () => {
  let idle: Array<() => void>;
  beforeEach(() => {
    idle = [];
    FakeObserver.all = [];
    preload.mockClear();
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => idle.push(cb));
    vi.stubGlobal('cancelIdleCallback', () => {});
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('preloads when near once the visitor has scrolled, and shows only once on the screen and after an idle moment', async () => {
    render(<Probe />);
    // Nothing is fetched before the visitor scrolls or touches the page (decision 019).
    expect(FakeObserver.withMargin('400px 0px')).toBeUndefined();
    await act(async () => {
      window.dispatchEvent(new Event('scroll'));
      await Promise.resolve();
    });
    const near = FakeObserver.withMargin('400px 0px');
    const onScreen = FakeObserver.withMargin('0px');
    act(() => near!.callback([{ isIntersecting: false }]));
    expect(preload).not.toHaveBeenCalled();
    act(() => near!.callback([{ isIntersecting: true }]));
    expect(preload).toHaveBeenCalledTimes(1);
    expect(near!.disconnected).toBe(true);
    expect(idle).toHaveLength(0);
    expect(screen.getByText('waiting')).toBeTruthy();

    act(() => onScreen!.callback([{ isIntersecting: true }]));
    expect(onScreen!.disconnected).toBe(true);
    expect(screen.getByText('waiting')).toBeTruthy();
    expect(idle).toHaveLength(1);
    act(() => idle[0]!());
    expect(screen.getByText('shown')).toBeTruthy();
    expect(preload).toHaveBeenCalledTimes(1);
  });

  it('without IntersectionObserver it preloads at once and shows at the first idle moment', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<Probe />);
    expect(preload).toHaveBeenCalledTimes(1);
    expect(screen.getByText('waiting')).toBeTruthy();
    expect(idle).toHaveLength(1);
    act(() => idle[0]!());
    expect(screen.getByText('shown')).toBeTruthy();
  });
});
