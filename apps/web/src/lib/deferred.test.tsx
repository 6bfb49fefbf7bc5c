import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { deferred, placeholderTriggerProps, useDeferred, type Deferred } from './deferred.ts';

interface LoadedModule {
  Control(props: { initialOpen: boolean }): React.ReactElement;
}

/** A deferred module whose load the test finishes when it wants (as a slow or a fast network would). */
function controllable() {
  let finish!: () => void;
  const gate = new Promise<void>((resolve) => (finish = resolve));
  const loaded: LoadedModule = {
    Control: ({ initialOpen }) => (
      <button type="button" aria-label="Menu openen">
        {initialOpen ? 'open' : 'dicht'}
      </button>
    ),
  };
  const d = deferred(async () => {
    await gate;
    return loaded;
  });
  return { d, finish: () => act(async () => finish()) };
}

function Trigger({ d, opensOn }: { d: Deferred<LoadedModule>; opensOn: 'click' | 'pointerdown' }) {
  const control = useDeferred(d);
  if (control.module) return <control.module.Control initialOpen={control.openRequested} />;
  return (
    <button {...placeholderTriggerProps(control, opensOn)} aria-label="Menu openen">
      placeholder
    </button>
  );
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('a placeholder for a control that loads on intent', () => {
  it('keeps a tap whose module arrives between pointerdown and click (a dialog opens on click)', async () => {
    const { d, finish } = controllable();
    render(<Trigger d={d} opensOn="click" />);
    const placeholder = screen.getByRole('button', { name: 'Menu openen' });
    fireEvent.pointerDown(placeholder, { button: 0 });
    await finish();
    // The element the finger is on is still there, so the tap's click reaches it.
    expect(placeholder.isConnected).toBe(true);
    fireEvent.pointerUp(placeholder, { button: 0 });
    fireEvent.click(placeholder);
    await act(async () => {});
    expect(screen.getByRole('button', { name: 'Menu openen' })).toHaveProperty('textContent', 'open');
  });

  it('gives way to the loaded control once a press ends without a click', async () => {
    vi.useFakeTimers();
    const { d, finish } = controllable();
    render(<Trigger d={d} opensOn="click" />);
    const placeholder = screen.getByRole('button', { name: 'Menu openen' });
    fireEvent.pointerDown(placeholder, { button: 0 });
    await finish();
    fireEvent.pointerCancel(placeholder);
    expect(placeholder.isConnected).toBe(true);
    await act(async () => vi.advanceTimersByTime(1_000));
    expect(screen.getByRole('button', { name: 'Menu openen' })).toHaveProperty('textContent', 'dicht');
  });

  it('opens a menu asked for at pointerdown, before its module is there, once the click is done', async () => {
    const { d, finish } = controllable();
    render(<Trigger d={d} opensOn="pointerdown" />);
    const placeholder = screen.getByRole('button', { name: 'Menu openen' });
    fireEvent.pointerDown(placeholder, { button: 0 });
    await finish();
    // Not swapped under the pointer in the middle of the click.
    expect(placeholder.isConnected).toBe(true);
    fireEvent.pointerUp(placeholder, { button: 0 });
    fireEvent.click(placeholder);
    await act(async () => {});
    expect(screen.getByRole('button', { name: 'Menu openen' })).toHaveProperty('textContent', 'open');
  });

  it('opens a menu asked for at pointerdown when the press ends without a click', async () => {
    vi.useFakeTimers();
    const { d, finish } = controllable();
    render(<Trigger d={d} opensOn="pointerdown" />);
    const placeholder = screen.getByRole('button', { name: 'Menu openen' });
    fireEvent.pointerDown(placeholder, { button: 0 });
    await finish();
    fireEvent.pointerUp(placeholder, { button: 0 });
    await act(async () => vi.advanceTimersByTime(1_000));
    expect(screen.getByRole('button', { name: 'Menu openen' })).toHaveProperty('textContent', 'open');
  });

  it('does not open a menu whose press became a scroll (pointercancel)', async () => {
    vi.useFakeTimers();
    const { d, finish } = controllable();
    render(<Trigger d={d} opensOn="pointerdown" />);
    const placeholder = screen.getByRole('button', { name: 'Menu openen' });
    fireEvent.pointerDown(placeholder, { button: 0 });
    await finish();
    fireEvent.pointerCancel(placeholder);
    await act(async () => vi.advanceTimersByTime(1_000));
    expect(screen.getByRole('button', { name: 'Menu openen' })).toHaveProperty('textContent', 'dicht');
  });

  it('keeps a tap that starts while the swap a hover asked for is still to be rendered', async () => {
    const d = deferred<LoadedModule>(async () => ({
      Control: ({ initialOpen }) => (
        <button type="button" aria-label="Menu openen">
          {initialOpen ? 'open' : 'dicht'}
        </button>
      ),
    }));
    render(<Trigger d={d} opensOn="click" />);
    const placeholder = screen.getByRole('button', { name: 'Menu openen' });
    // The pointer arrives (the module starts loading) and the module is there; the swap is asked for but
    // React has not rendered it yet when the finger comes down.
    fireEvent.pointerEnter(placeholder);
    await d.load();
    await Promise.resolve();
    fireEvent.pointerDown(placeholder, { button: 0 });
    // In a browser the press's events are tasks of their own, and React renders what is pending in between.
    // eslint-disable-next-line no-restricted-syntax -- the browser's gap between a press's events
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(placeholder.isConnected).toBe(true);
    fireEvent.pointerUp(placeholder, { button: 0 });
    fireEvent.click(placeholder);
    await act(async () => {});
    expect(screen.getByRole('button', { name: 'Menu openen' })).toHaveProperty('textContent', 'open');
  });

  it('swaps in the loaded control, closed, after a hover', async () => {
    const { d, finish } = controllable();
    render(<Trigger d={d} opensOn="click" />);
    fireEvent.pointerEnter(screen.getByRole('button', { name: 'Menu openen' }));
    await finish();
    expect(screen.getByRole('button', { name: 'Menu openen' })).toHaveProperty('textContent', 'dicht');
  });
});
