import { createContext, use, useState } from 'react';
import { act } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { prerender } from 'react-dom/static';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { island } from './island.tsx';

/** The section's code: a counter, to see whether React handles its button. */
function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <section>
      <h2>{label}</h2>
      <button type="button" onClick={() => setCount((c) => c + 1)}>
        {`geteld: ${count}`}
      </button>
    </section>
  );
}

/** The section's code for a form: a field whose value React keeps, and a word from a context above. */
const Greeting = createContext('dag');
function NameForm() {
  const greeting = use(Greeting);
  const [name, setName] = useState('');
  return (
    <form aria-label={greeting}>
      <label htmlFor="island-naam">Je naam</label>
      <input id="island-naam" value={name} onChange={(e) => setName(e.target.value)} />
      <output>{`${greeting} ${name}`}</output>
    </form>
  );
}

/** An IntersectionObserver whose callbacks the test calls. */
class FakeObserver {
  static all: FakeObserver[] = [];
  constructor(readonly callback: (entries: Array<{ isIntersecting: boolean }>) => void) {
    FakeObserver.all.push(this);
  }
  observe() {}
  disconnect() {}
}

async function serverHtml(element: React.ReactElement): Promise<string> {
  const { prelude } = await prerender(element);
  return new Response(prelude).text();
}

const settle = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  });

describe('island', () => {
  let root: Root | undefined;
  let container: HTMLDivElement;
  beforeEach(() => {
    FakeObserver.all = [];
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => {
    act(() => root?.unmount());
    container.remove();
    vi.unstubAllGlobals();
  });

  it('keeps the server HTML without its code until the visitor comes near, then hydrates it in place', async () => {
    // The server's render (its own instance, as the server's bundle is another program than the browser's).
    const OnServer = island('test-near', () => Promise.resolve(Counter));
    container.innerHTML = await serverHtml(<OnServer label="Kaarsjes" />);
    expect(container.textContent).toContain('geteld: 0');
    const load = vi.fn(() => Promise.resolve(Counter));
    const Section = island('test-near', load);
    const button = container.querySelector('button')!;

    await act(async () => {
      root = hydrateRoot(container, <Section label="Kaarsjes" />);
    });
    await settle();
    expect(load).not.toHaveBeenCalled();
    expect(container.querySelector('button')).toBe(button);

    // The visitor scrolls, and the section comes near the screen.
    await act(async () => {
      window.dispatchEvent(new Event('scroll'));
      await Promise.resolve();
    });
    expect(FakeObserver.all).toHaveLength(1);
    await act(async () => FakeObserver.all[0]!.callback([{ isIntersecting: true }]));
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
    // Hydrated, not rendered afresh: the same button, and React handles it now.
    expect(container.querySelector('button')).toBe(button);
    await act(async () => button.click());
    expect(button.textContent).toBe('geteld: 1');
  });

  it('keeps a tap that comes before its code and repeats it once hydrated', async () => {
    let resolve!: (c: typeof Counter) => void;
    const load = vi.fn(() => new Promise<typeof Counter>((r) => (resolve = r)));
    const Section = island('test-tap', load);
    const OnServer = island('test-tap', () => Promise.resolve(Counter));
    container.innerHTML = await serverHtml(<OnServer label="Herinneringen" />);
    const button = container.querySelector('button')!;
    await act(async () => {
      root = hydrateRoot(container, <Section label="Herinneringen" />);
    });
    expect(load).not.toHaveBeenCalled();

    await act(async () => button.click());
    expect(load).toHaveBeenCalledTimes(1);
    expect(button.textContent).toBe('geteld: 0');
    await act(async () => resolve(Counter));
    await settle();
    expect(container.querySelector('button')).toBe(button);
    expect(button.textContent).toBe('geteld: 1');
  });

  it('keeps the focus and what was typed when a context above changes before it hydrates, and after', async () => {
    const OnServer = island('test-context', () => Promise.resolve(NameForm));
    container.innerHTML = await serverHtml(<OnServer />);
    let resolve!: (c: typeof NameForm) => void;
    const Section = island('test-context', () => new Promise<typeof NameForm>((r) => (resolve = r)));
    const page = (greeting: string) => (
      <Greeting value={greeting}>
        <Section />
      </Greeting>
    );
    // Typed into before the app took over the page.
    const field = container.querySelector('input')!;
    field.focus();
    field.value = 'Anna';
    field.setSelectionRange(2, 2);
    await act(async () => {
      root = hydrateRoot(container, page('dag'));
    });
    // An update from above reaches the section before its code is there: React renders it afresh.
    await act(async () => root!.render(page('hallo')));
    expect(container.querySelector('input')).toBe(field);
    expect(field.value).toBe('Anna');
    expect(document.activeElement).toBe(field);
    expect(field.selectionStart).toBe(2);

    // Its code arrives: the new field takes what the old one held, the focus too, and React knows the value.
    await act(async () => resolve(NameForm));
    await settle();
    const fresh = container.querySelector('input')!;
    expect(fresh.value).toBe('Anna');
    expect(document.activeElement).toBe(fresh);
    expect(container.querySelector('output')!.textContent).toBe('hallo Anna');
  });
});
