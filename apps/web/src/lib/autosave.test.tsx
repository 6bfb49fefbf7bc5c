import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useAutosave } from './autosave.ts';

afterEach(cleanup);

/** A server that answers when told to, so the order of saves can be checked. */
function fakeServer() {
  const calls: { value: string; resolve: () => void }[] = [];
  const saved: string[] = [];
  return {
    calls,
    saved,
    save: (value: string) =>
      new Promise<void>((resolve) => calls.push({ value, resolve: () => (saved.push(value), resolve()) })),
  };
}

function Caption({ save, delay = 20 }: { save: (v: string) => Promise<unknown>; delay?: number }) {
  const [value, setValue] = useState('');
  const { status, flush } = useAutosave(value, '', save, delay);
  return (
    <>
      <input
        aria-label="Onderschrift"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onBlur={flush}
      />
      <span data-testid="status">{status}</span>
    </>
  );
}

describe('useAutosave', () => {
  it('saves a moment after typing stops, without leaving the field', async () => {
    const server = fakeServer();
    render(<Caption save={server.save} />);
    fireEvent.change(screen.getByLabelText('Onderschrift'), { target: { value: 'Aan zee' } });
    await waitFor(() => expect(server.calls.map((c) => c.value)).toEqual(['Aan zee']));
    expect(screen.getByTestId('status').textContent).toBe('saving');
    server.calls[0]!.resolve();
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('saved'));
  });

  it('saves one at a time and ends with the newest text', async () => {
    const server = fakeServer();
    render(<Caption save={server.save} delay={10_000} />);
    const input = screen.getByLabelText('Onderschrift');
    fireEvent.change(input, { target: { value: 'Aan' } });
    fireEvent.blur(input);
    fireEvent.change(input, { target: { value: 'Aan zee' } });
    fireEvent.blur(input);
    // The second waits for the first.
    expect(server.calls.map((c) => c.value)).toEqual(['Aan']);
    server.calls[0]!.resolve();
    await waitFor(() => expect(server.calls.map((c) => c.value)).toEqual(['Aan', 'Aan zee']));
    server.calls[1]!.resolve();
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('saved'));
    expect(server.saved).toEqual(['Aan', 'Aan zee']);
  });

  it('saves what is still waiting when the field goes away', () => {
    const server = fakeServer();
    const view = render(<Caption save={server.save} delay={10_000} />);
    fireEvent.change(screen.getByLabelText('Onderschrift'), { target: { value: 'Bij de molen' } });
    expect(server.calls).toHaveLength(0);
    view.unmount();
    expect(server.calls.map((c) => c.value)).toEqual(['Bij de molen']);
  });

  it('warns before leaving the page while a save waits', () => {
    const server = fakeServer();
    render(<Caption save={server.save} delay={10_000} />);
    const before = () => {
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(before()).toBe(false);
    fireEvent.change(screen.getByLabelText('Onderschrift'), { target: { value: 'Thuis' } });
    expect(before()).toBe(true);
  });
});
