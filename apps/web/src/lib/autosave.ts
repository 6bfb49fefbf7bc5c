import { useEffect, useState } from 'react';
import { useLeaveWarning } from './drafts.tsx';

export type AutosaveStatus = 'idle' | 'waiting' | 'saving' | 'saved' | 'error';

/** The saving itself, outside React: one save at a time, always of the newest text. */
function createSaver(initial: string, onStatus: (status: AutosaveStatus) => void) {
  let stored = initial;
  let latest = initial;
  let busy = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let save: (value: string) => Promise<unknown> = async () => {};

  const stop = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };

  const flush = () => {
    stop();
    // A save under way picks up the newest text when it is done.
    if (busy || latest === stored) return;
    const next = latest;
    busy = true;
    onStatus('saving');
    save(next).then(
      () => {
        stored = next;
        busy = false;
        if (latest !== stored) flush();
        else onStatus('saved');
      },
      () => {
        busy = false;
        // No retry loop: the next change or leaving the field tries again.
        onStatus('error');
      },
    );
  };

  return {
    flush,
    update(value: string, saveFn: (value: string) => Promise<unknown>, delay: number) {
      save = saveFn;
      if (value === latest) return;
      latest = value;
      stop();
      if (value === stored) return;
      if (!busy) onStatus('waiting');
      timer = setTimeout(flush, delay);
    },
  };
}

/**
 * Saves `value` a moment (`delay` ms) after typing stops. `flush()` saves at once (on leaving the field,
 * Enter); unmounting saves what is still waiting, and leaving the page while something waits asks first.
 * `saved` is what the server had when this mounted.
 */
export function useAutosave(
  value: string,
  saved: string,
  save: (value: string) => Promise<unknown>,
  delay = 800,
): { status: AutosaveStatus; flush: () => void } {
  const [status, setStatus] = useState<AutosaveStatus>('idle');
  const [saver] = useState(() => createSaver(saved, setStatus));

  useEffect(() => saver.update(value, save, delay));
  // Leaving the screen (another tab, another page) saves what was still waiting.
  useEffect(() => () => saver.flush(), [saver]);

  useLeaveWarning(status === 'waiting' || status === 'saving');
  return { status, flush: saver.flush };
}
