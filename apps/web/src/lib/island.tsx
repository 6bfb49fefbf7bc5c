import {
  memo,
  Suspense,
  use,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
} from 'react';
import { whenNearAfterIntent } from './use-in-view.ts';

/**
 * Deferred hydration for a section of a server-rendered page that is interactive but below the first screen
 * (the memorial page's memories and candles; decision 019). Its code is a chunk of its own, and in the server's
 * HTML it stays exactly as the server rendered it (a dehydrated Suspense boundary: React keeps the HTML and
 * does no work for it) until it is wanted:
 *  - the visitor has shown intent (scrolled, touched, clicked, pressed a key) and the section is within
 *    `margin` of the screen, or
 *  - the visitor focuses or presses something inside it.
 * Then its chunk loads and React hydrates it in place (the same DOM: focus and what was typed stay). A tap on
 * one of its buttons or choices before that is kept and repeated once it has hydrated (as public/boot.js does
 * for the app).
 * Rendered in the browser (a page opened from within the app), it loads at once, as a React.lazy would.
 * On the server it renders in full (the server's renderer waits for the chunk).
 */
type Load<P> = () => Promise<ComponentType<P>>;

interface Gate {
  promise: Promise<void>;
  open: () => void;
}
function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Clicks kept until the island has hydrated, then repeated: buttons, and what changes a form's state. */
const KEPT_CLICKS = 'button, label, input[type="checkbox"], input[type="radio"]';

/** Which islands' server HTML has been claimed: only the page the browser loaded has it, and only once. */
const claimed = new Set<string>();

function serverHtmlFor(name: string): boolean {
  if (typeof document === 'undefined' || claimed.has(name)) return false;
  if (document.querySelector(`[data-island="${name}"]`) === null) return false;
  claimed.add(name);
  return true;
}

export function island<P extends object>(name: string, load: Load<P>, { margin = '400px 0px' } = {}) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const start = () =>
    (loading ??= load().then((c) => {
      loaded = c;
      return c;
    }));

  function Body({
    props,
    waitFor,
    onHydrated,
  }: {
    props: P;
    waitFor: Promise<void> | null;
    onHydrated: () => void;
  }) {
    useEffect(onHydrated, [onHydrated]);
    // From the server: until wanted (React keeps the server's HTML meanwhile). Otherwise: until the chunk is
    // there (the server's renderer waits for it).
    if (waitFor) use(waitFor);
    const Component = loaded ?? use(start());
    return <Component {...props} />;
  }

  /** The server's HTML as it was, should React have to render the section afresh before its chunk is there. */
  function Snapshot({ held }: { held: { html: string } }) {
    return <div className="contents" dangerouslySetInnerHTML={{ __html: held.html }} />;
  }

  function Island(props: P) {
    const ref = useRef<HTMLDivElement>(null);
    const [state] = useState(() => {
      const fromServer = !loaded && serverHtmlFor(name);
      const wanted = fromServer ? gate() : null;
      return {
        fromServer,
        wanted,
        waitFor: wanted ? wanted.promise.then(() => start()).then(() => undefined) : null,
        snapshot: { html: '' },
      };
    });
    const [hydrated, setHydrated] = useState(!state.fromServer);
    const onHydrated = useCallback(() => setHydrated(true), []);

    useLayoutEffect(() => {
      if (state.fromServer && ref.current) state.snapshot.html = ref.current.innerHTML;
    }, [state]);

    useEffect(() => {
      const el = ref.current;
      const wanted = state.wanted;
      if (!wanted || hydrated || !el) return;
      const stopNear = whenNearAfterIntent(el.firstElementChild ?? el, margin, wanted.open);
      const taps: HTMLElement[] = [];
      const inside = (e: Event) => e.target instanceof Node && el.contains(e.target);
      const onFocus = (e: Event) => {
        if (inside(e)) wanted.open();
      };
      const onClick = (e: MouseEvent) => {
        if (!inside(e)) return;
        wanted.open();
        const control = e.target instanceof Element ? e.target.closest(KEPT_CLICKS) : null;
        if (!(control instanceof HTMLElement)) return;
        // React drops a click on a section it has not hydrated yet, and a radio or checkbox would change without
        // the form knowing: keep it (nothing happens yet) and repeat it afterwards. Links work without it.
        e.preventDefault();
        e.stopPropagation();
        if (!taps.includes(control)) taps.push(control);
      };
      document.addEventListener('focusin', onFocus, true);
      document.addEventListener('pointerdown', onFocus, true);
      document.addEventListener('click', onClick, true);
      return () => {
        stopNear();
        document.removeEventListener('focusin', onFocus, true);
        document.removeEventListener('pointerdown', onFocus, true);
        document.removeEventListener('click', onClick, true);
        // Ends because the section has hydrated: the kept taps reach React now.
        for (const control of taps) if (control.isConnected) control.click();
      };
    }, [state, hydrated]);

    // One element for the boundary, made once: a new one would be an update to the boundary, and React
    // renders a boundary that gets an update before it has hydrated afresh.
    const [boundary] = useState(() => (
      <Suspense fallback={state.fromServer ? <Snapshot held={state.snapshot} /> : null}>
        <Body props={props} waitFor={state.waitFor} onHydrated={onHydrated} />
      </Suspense>
    ));
    return (
      <div ref={ref} data-island={name} className="contents">
        {hydrated ? (
          <Suspense fallback={null}>
            <Body props={props} waitFor={state.waitFor} onHydrated={onHydrated} />
          </Suspense>
        ) : (
          boundary
        )}
      </div>
    );
  }
  Island.displayName = `Island(${name})`;
  // Memoised: a re-render of the page (with the same props) must not reach a boundary still dehydrated, or
  // React would render it afresh.
  return memo(Island);
}
