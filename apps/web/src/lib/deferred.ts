import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Code that stays out of the first download (docs/performance.md: the entry of '/' must stay small): the
 * Radix menus and dialogs of the header, the toaster. One shared load per module.
 */
export interface Deferred<M> {
  load(): Promise<M>;
  /** Set once loaded, so later mounts render at once. */
  readonly module: M | undefined;
}

export function deferred<M>(importer: () => Promise<M>): Deferred<M> {
  let promise: Promise<M> | undefined;
  const d = {
    module: undefined as M | undefined,
    load: () =>
      (promise ??= importer().then((m) => {
        d.module = m;
        return m;
      })),
  };
  return d;
}

/**
 * How long after a press ends without a click the placeholder still waits before it gives way to the loaded
 * control: a tap's click follows its pointerup as a separate event on a phone.
 */
const PRESS_GRACE_MS = 600;

/**
 * A control backed by a deferred module: `module` is undefined until loaded. `prepare` starts loading (call it
 * when the person shows intent: hovering or focusing the trigger); `open` also asks for the control to open
 * once it is there (a click, Enter or Space on the placeholder trigger); `press` and `release` bracket a
 * press on a placeholder, and `cancel` ends one the browser took over (a touch that became a scroll).
 *
 * While a press is under way the placeholder stays in the page even if the module arrives: swapping the
 * element between a tap's pointerdown and its click would send the click to neither element, and the tap
 * would be lost (or, for a menu, a repeated press would reach the new trigger and close what it opened).
 */
export function useDeferred<M>(d: Deferred<M>) {
  const [module, setModule] = useState<M | undefined>(() => d.module);
  const [openRequested, setOpenRequested] = useState(false);
  const pressed = useRef(false);
  const graceTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(graceTimer.current);
    };
  }, []);

  const show = useCallback(() => {
    if (mounted.current && !pressed.current && d.module) {
      const m = d.module;
      setModule(() => m);
    }
  }, [d]);
  const prepare = useCallback(() => {
    void d.load().then(show);
  }, [d, show]);
  const open = useCallback(() => {
    clearTimeout(graceTimer.current);
    pressed.current = false;
    setOpenRequested(true);
    prepare();
  }, [prepare]);
  const press = useCallback(
    (openToo = false) => {
      clearTimeout(graceTimer.current);
      pressed.current = true;
      // A press reaches only the placeholder, so a module set now is a swap not yet rendered (asked for by a
      // hover or focus an instant before): undone, so the element under the finger stays until the press ends.
      setModule(undefined);
      if (openToo) setOpenRequested(true);
      prepare();
    },
    [prepare],
  );
  const release = useCallback(() => {
    clearTimeout(graceTimer.current);
    graceTimer.current = setTimeout(() => {
      pressed.current = false;
      show();
    }, PRESS_GRACE_MS);
  }, [show]);
  /** A press the browser took over (a touch that became a scroll): what it asked for is dropped. */
  const cancel = useCallback(() => {
    setOpenRequested(false);
    release();
  }, [release]);
  return { module, openRequested, prepare, open, press, release, cancel };
}

/**
 * Props for a placeholder trigger: loads on intent, opens on activation as the Radix trigger it stands in
 * for does (menus on pointer down, dialogs on click).
 */
export function placeholderTriggerProps(
  control: {
    prepare(): void;
    open(): void;
    press(openToo?: boolean): void;
    release(): void;
    cancel(): void;
  },
  opensOn: 'pointerdown' | 'click' = 'pointerdown',
) {
  return {
    type: 'button' as const,
    onPointerEnter: control.prepare,
    onFocus: control.prepare,
    // A menu is asked to open at pointerdown, as Radix's trigger does, but shows once the press ends: the
    // element under the pointer is not swapped in the middle of a click.
    onPointerDown: (e: { button: number }) => control.press(opensOn === 'pointerdown' && e.button === 0),
    onPointerUp: control.release,
    onPointerCancel: control.cancel,
    onClick: control.open,
    onKeyDown: (e: { key: string; preventDefault(): void }) => {
      if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') {
        e.preventDefault();
        control.open();
      }
    },
  };
}
