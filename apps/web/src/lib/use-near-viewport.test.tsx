import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useNearViewport } from './use-near-viewport.ts';

function Probe() {
  const [ref, near] = useNearViewport<HTMLDivElement>('400px 0px');
  return <div ref={ref}>{near ? 'near' : 'far'}</div>;
}

/** An IntersectionObserver whose callbacks the test calls; records the options it was made with. */
class FakeObserver {
  static last: FakeObserver | undefined;
  disconnected = false;
  constructor(
    readonly callback: (entries: Array<{ isIntersecting: boolean }>) => void,
    readonly options: { rootMargin?: string },
  ) {
    FakeObserver.last = this;
  }
  observe() {}
  disconnect() {
    this.disconnected = true;
  }
}

describe('useNearViewport', () => {
  let idle: Array<() => void>;
  beforeEach(() => {
    idle = [];
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    vi.stubGlobal('requestIdleCallback', (cb: () => void) => idle.push(cb));
    vi.stubGlobal('cancelIdleCallback', () => {});
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('turns true only after the element came near and the browser then had an idle moment', () => {
    render(<Probe />);
    const observer = FakeObserver.last!;
    expect(observer.options.rootMargin).toBe('400px 0px');
    act(() => observer.callback([{ isIntersecting: false }]));
    expect(idle).toHaveLength(0);
    act(() => observer.callback([{ isIntersecting: true }]));
    expect(observer.disconnected).toBe(true);
    expect(screen.getByText('far')).toBeTruthy();
    expect(idle).toHaveLength(1);
    act(() => idle[0]!());
    expect(screen.getByText('near')).toBeTruthy();
  });

  it('without IntersectionObserver it turns true at the first idle moment', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<Probe />);
    expect(screen.getByText('far')).toBeTruthy();
    expect(idle).toHaveLength(1);
    act(() => idle[0]!());
    expect(screen.getByText('near')).toBeTruthy();
  });
});
