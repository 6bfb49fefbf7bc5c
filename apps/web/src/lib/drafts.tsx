import { useCallback, useEffect, useState } from 'react';
import { useFormContext, useFormState, type FieldValues, type UseFormReturn } from 'react-hook-form';

import { clearDraft, readDraft, writeDraft } from './draft-store.ts';

export {
  clearAllDrafts,
  clearDraft,
  draftKey,
  readDraft,
  writeDraft,
  type DraftKind,
} from './draft-store.ts';

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // An input that was never touched may be undefined where its default is ''.
  if ((a ?? '') === '' && (b ?? '') === '') return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (!same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** While `active`, leaving or reloading the page asks the browser's own 'Leave site?' first. */
export function useLeaveWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}

/**
 * Keeps a react-hook-form form's values under `key` while they differ from its defaults, and puts them back
 * when the form mounts again. `restored` tells the form shows a draft; after a successful save call
 * `saved()`, to let go of one call `discard()`.
 */
export function useFormDraft<T extends FieldValues>(form: UseFormReturn<T, unknown, unknown>, key: string) {
  // The methods are stable; the object around them is not (FormProvider spreads it anew every render).
  const { reset, getValues, watch, control } = form;
  // Read while rendering: these forms render in the browser only (a dialog, the manage page), never on
  // the server, so there is no server HTML for this to differ from.
  const [initial] = useState(() => {
    const draft = readDraft<Partial<T>>(key);
    return draft && !same(draft, control._defaultValues) ? draft : null;
  });
  const [restored, setRestored] = useState(initial !== null);

  useEffect(() => {
    if (initial) {
      // keepDefaultValues: the form stays dirty against what the server has, so it can still be saved.
      reset({ ...control._defaultValues, ...initial } as unknown as T, { keepDefaultValues: true });
    }
    const sub = watch((values) => {
      if (same(values, control._defaultValues)) {
        clearDraft(key);
        setRestored(false);
      } else writeDraft(key, values);
    });
    return () => sub.unsubscribe();
  }, [key, initial, reset, watch, control]);

  const saved = useCallback(() => {
    clearDraft(key);
    setRestored(false);
    // What was saved is the new starting point: the form is no longer dirty.
    reset(getValues());
  }, [key, reset, getValues]);

  const discard = useCallback(() => {
    clearDraft(key);
    setRestored(false);
    reset();
  }, [key, reset]);

  return { restored, saved, discard };
}

/**
 * For inside a <Form>: keeps its draft (useFormDraft), lets go of it after a successful submit, warns before
 * leaving while the form is dirty and reports whether it is (for a dialog that asks before closing).
 */
export function FormDraft({
  storageKey,
  onDirtyChange,
  children,
}: {
  storageKey: string;
  onDirtyChange?: (dirty: boolean) => void;
  children?: (draft: ReturnType<typeof useFormDraft>) => React.ReactNode;
}) {
  const form = useFormContext();
  const draft = useFormDraft(form, storageKey);
  const { isDirty: dirty, isSubmitSuccessful } = useFormState({ control: form.control });
  useLeaveWarning(dirty);
  // A submit that did not throw has saved: its draft is done with.
  const { saved } = draft;
  useEffect(() => {
    if (isSubmitSuccessful) saved();
  }, [isSubmitSuccessful, saved]);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  return children ? children(draft) : null;
}

/**
 * A plain value's draft (the biography's HTML): read once when mounted, written on every change, removed
 * with `set(null)`.
 */
export function useStoredDraft<T>(key: string): [T | null, (value: T | null) => void] {
  const [value, setValue] = useState<T | null>(() => readDraft<T>(key));
  const set = useCallback(
    (next: T | null) => {
      setValue(next);
      if (next === null) clearDraft(key);
      else writeDraft(key, next);
    },
    [key],
  );
  return [value, set];
}
