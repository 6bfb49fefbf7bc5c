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

/** The server's nodes of an island, and where the focus was in them. */
interface Held {
  nodes: Node[];
  focus: ({ element: HTMLElement } & Selection) | null;
  /** What the snapshot's fields held when it went, for the fields that replace them. */
  fields: FieldState[] | null;
}
interface Selection {
  start: number | null;
  end: number | null;
}
interface FieldState extends Selection {
  id: string;
  value: string;
  checked: boolean;
  focused: boolean;
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function selectionOf(el: HTMLElement): Selection {
  try {
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)
      return { start: el.selectionStart, end: el.selectionEnd };
  } catch {
    /* an input type without a selection (radio, checkbox) */
  }
  return { start: null, end: null };
}

function restoreFocus(el: HTMLElement, { start, end }: Selection) {
  el.focus({ preventScroll: true });
  if (start === null || end === null) return;
  try {
    (el as HTMLInputElement).setSelectionRange(start, end);
  } catch {
    /* no selection on this type */
  }
}

/** The fields with an id in `root`: their value, whether checked, whether focused and the caret. */
function readFields(root: Element): FieldState[] {
  return [...root.querySelectorAll<Field>('input[id], textarea[id], select[id]')].map((f) => ({
    id: f.id,
    value: f.value,
    checked: f instanceof HTMLInputElement && f.checked,
    focused: document.activeElement === f,
    ...selectionOf(f),
  }));
}

/**
 * Puts the kept state into the fields of the same id, as typing would (an input event, so a form library's
 * listener takes the value), and the focus back where it was.
 */
function writeFields(fields: FieldState[]) {
  for (const kept of fields) {
    const field = document.getElementById(kept.id);
    if (!(
      field instanceof HTMLInputElement ||
      field instanceof HTMLTextAreaElement ||
      field instanceof HTMLSelectElement
    ))
      continue;
    if (field instanceof HTMLInputElement && (field.type === 'radio' || field.type === 'checkbox')) {
      if (kept.checked && !field.checked) field.click();
    } else if (field.value !== kept.value) {
      const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value')?.set;
      setter?.call(field, kept.value);
      field.dispatchEvent(new Event('input', { bubbles: true }));
    }
    if (kept.focused) restoreFocus(field, kept);
  }
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
    held,
  }: {
    props: P;
    waitFor: Promise<void> | null;
    onHydrated: () => void;
    held: Held | null;
  }) {
    useEffect(onHydrated, [onHydrated]);
    // Rendered afresh after a snapshot (above): the fields are new elements; they take what the old ones held.
    useEffect(() => {
      if (!held?.fields) return;
      const fields = held.fields;
      held.fields = null;
      writeFields(fields);
    }, [held]);
    // From the server: until wanted (React keeps the server's HTML meanwhile). Otherwise: until the chunk is
    // there (the server's renderer waits for it).
    if (waitFor) use(waitFor);
    const Component = loaded ?? use(start());
    return <Component {...props} />;
  }

  /**
   * The server's own nodes, should React have to render the section afresh before its chunk is there (an update
   * from a context above reaches a boundary that has not hydrated): React removes them from the page, and they
   * are put back here as they are, so a field keeps what was typed and, when it had the focus, the focus.
   * When the section's code renders it afresh after that, what the fields hold moves to the new ones.
   */
  function Snapshot({ held }: { held: Held }) {
    const ref = useRef<HTMLDivElement>(null);
    useLayoutEffect(() => {
      const el = ref.current;
      if (!el) return;
      const focus = held.focus;
      el.append(...held.nodes);
      if (focus?.element.isConnected) restoreFocus(focus.element, focus);
      return () => {
        held.fields = readFields(el);
      };
    }, [held]);
    return <div ref={ref} className="contents" />;
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
        held: { nodes: [], focus: null, fields: null } as Held,
      };
    });
    const [hydrated, setHydrated] = useState(!state.fromServer);
    const onHydrated = useCallback(() => setHydrated(true), []);
    // For tests and tools that wait until the section answers (set here, not rendered: the server's HTML and
    // the first render in the browser must match).
    useEffect(() => {
      if (!hydrated) return;
      ref.current?.setAttribute('data-hydrated', '');
      // The server's nodes are the section's now, or gone: no need to hold on to them.
      state.held.nodes = [];
      state.held.focus = null;
    }, [hydrated, state]);

    useLayoutEffect(() => {
      const el = ref.current;
      if (!state.fromServer || !el) return;
      // The boundary's own nodes, without React's markers around them (comments `$` … `/$`).
      const nodes = [...el.childNodes];
      const marker = (n: Node | undefined, data: RegExp) =>
        n?.nodeType === Node.COMMENT_NODE && data.test((n as Comment).data);
      if (marker(nodes[0], /^\$/)) nodes.shift();
      if (marker(nodes[nodes.length - 1], /^\/\$/)) nodes.pop();
      state.held.nodes = nodes;
      // Focus that arrived before the app did (a tap on a field while the script loaded): nothing will tell
      // the listeners below, so the section is wanted at once and hydrates in place under the focus.
      if (document.activeElement && el.contains(document.activeElement)) state.wanted?.open();
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
      // Where the focus is, kept up to date: React's removal of the nodes (a snapshot, above) drops it.
      const onFocusIn = (e: Event) => {
        if (!(e.target instanceof HTMLElement) || !inside(e)) return;
        state.held.focus = { element: e.target, ...selectionOf(e.target) };
      };
      // Moved elsewhere on the page: nothing to give back. (Removed with the nodes: kept, the element is gone.)
      const onFocusOut = (e: Event) => {
        if (!inside(e)) return;
        queueMicrotask(() => {
          const focus = state.held.focus;
          if (focus?.element.isConnected && !el.contains(document.activeElement)) state.held.focus = null;
        });
      };
      const onSelect = () => {
        const focus = state.held.focus;
        if (focus && document.activeElement === focus.element)
          Object.assign(focus, selectionOf(focus.element));
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
      document.addEventListener('focusin', onFocusIn, true);
      document.addEventListener('focusout', onFocusOut, true);
      document.addEventListener('selectionchange', onSelect);
      document.addEventListener('pointerdown', onFocus, true);
      document.addEventListener('click', onClick, true);
      if (document.activeElement instanceof HTMLElement && el.contains(document.activeElement))
        state.held.focus = { element: document.activeElement, ...selectionOf(document.activeElement) };
      return () => {
        stopNear();
        document.removeEventListener('focusin', onFocus, true);
        document.removeEventListener('focusin', onFocusIn, true);
        document.removeEventListener('focusout', onFocusOut, true);
        document.removeEventListener('selectionchange', onSelect);
        document.removeEventListener('pointerdown', onFocus, true);
        document.removeEventListener('click', onClick, true);
        // Ends because the section has hydrated: the kept taps reach React now.
        for (const control of taps) if (control.isConnected) control.click();
      };
    }, [state, hydrated]);

    // One element for the boundary, made once: a new one would be an update to the boundary, and React
    // renders a boundary that gets an update before it has hydrated afresh.
    const [boundary] = useState(() => (
      <Suspense fallback={state.fromServer ? <Snapshot held={state.held} /> : null}>
        <Body props={props} waitFor={state.waitFor} onHydrated={onHydrated} held={state.held} />
      </Suspense>
    ));
    return (
      <div ref={ref} data-island={name} className="contents">
        {hydrated ? (
          <Suspense fallback={null}>
            <Body props={props} waitFor={state.waitFor} onHydrated={onHydrated} held={state.held} />
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
