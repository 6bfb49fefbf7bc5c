import { useCallback, useState } from 'react';

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
 * A control backed by a deferred module: `module` is undefined until loaded. `prepare` starts loading (call it
 * when the person shows intent: hovering or focusing the trigger); `open` also asks for the control to open
 * once it is there (a click, Enter or Space on the placeholder trigger).
 */
export function useDeferred<M>(d: Deferred<M>) {
  const [module, setModule] = useState<M | undefined>(() => d.module);
  const [openRequested, setOpenRequested] = useState(false);
  const prepare = useCallback(() => {
    void d.load().then((m) => setModule(() => m));
  }, [d]);
  const open = useCallback(() => {
    setOpenRequested(true);
    prepare();
  }, [prepare]);
  return { module, openRequested, prepare, open };
}

/**
 * Props for a placeholder trigger: loads on intent, opens on activation as the Radix trigger it stands in
 * for does (menus on pointer down, dialogs on click).
 */
export function placeholderTriggerProps(
  control: { prepare(): void; open(): void },
  opensOn: 'pointerdown' | 'click' = 'pointerdown',
) {
  return {
    type: 'button' as const,
    onPointerEnter: control.prepare,
    onFocus: control.prepare,
    onPointerDown: (e: { button: number }) => {
      if (opensOn === 'pointerdown' && e.button === 0) control.open();
      else control.prepare();
    },
    onClick: control.open,
    onKeyDown: (e: { key: string; preventDefault(): void }) => {
      if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') {
        e.preventDefault();
        control.open();
      }
    },
  };
}
