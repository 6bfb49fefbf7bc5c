import type { FastifyBaseLogger } from 'fastify';
import type { Db, Listener } from '../../db/client.ts';

export const GUESTBOOK_CHANNEL = 'guestbook_entry';

export interface LiveSubscriber {
  /** A guestbook entry of the subscribed memorial was added or changed (by any process). */
  onEntry(entryId: string): void;
  /** The notifications were lost: the stream ends, and the client reconnects and reads the list again. */
  onLost(): void;
}

/**
 * The live half of the guestbook: one LISTEN per process on `guestbook_entry` (NOTIFY from the trigger of
 * migration 116, so entries written by any process arrive), opened with the first stream and closed with
 * the last, fanned out to the streams of the memorial the entry belongs to.
 */
export function guestbookLive(db: Db, log: FastifyBaseLogger) {
  const subs = new Map<string, Set<LiveSubscriber>>();
  let listener: Promise<Listener> | null = null;
  let count = 0;

  function onPayload(payload: string) {
    const [memorialId, entryId] = payload.split(' ');
    if (!memorialId || !entryId) return;
    for (const s of subs.get(memorialId.toLowerCase()) ?? []) s.onEntry(entryId);
  }

  function lost(err: Error) {
    log.warn({ err }, 'guestbook: lost the entry notifications; live streams end');
    listener = null;
    const all = [...subs.values()].flatMap((set) => [...set]);
    subs.clear();
    count = 0;
    for (const s of all) s.onLost();
  }

  function closeListener() {
    const l = listener;
    listener = null;
    void l?.then((x) => x.close()).catch(() => {});
  }

  return {
    /** Starts listening if needed; resolves once notifications are received. Returns the unsubscribe. */
    async subscribe(memorialId: string, s: LiveSubscriber): Promise<() => void> {
      const key = memorialId.toLowerCase();
      let set = subs.get(key);
      if (!set) subs.set(key, (set = new Set()));
      set.add(s);
      count++;
      let done = false;
      const unsubscribe = () => {
        if (done) return;
        done = true;
        const current = subs.get(key);
        if (current?.delete(s)) {
          count--;
          if (current.size === 0) subs.delete(key);
        }
        if (count === 0) closeListener();
      };
      try {
        listener ??= db.listen(GUESTBOOK_CHANNEL, onPayload, lost);
        const l = listener;
        await l.catch((err: unknown) => {
          if (listener === l) listener = null;
          throw err;
        });
      } catch (err) {
        unsubscribe();
        throw err;
      }
      return unsubscribe;
    },
    /** Streams open in this process (for tests and the operations view). */
    streams: () => count,
    close() {
      const all = [...subs.values()].flatMap((set) => [...set]);
      subs.clear();
      count = 0;
      closeListener();
      for (const s of all) s.onLost();
    },
  };
}
export type GuestbookLive = ReturnType<typeof guestbookLive>;
