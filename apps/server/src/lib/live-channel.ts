import type { FastifyBaseLogger } from 'fastify';
import type { Db, Listener } from '../db/client.ts';

export interface LiveSubscriber<M> {
  /** A notification for the subscribed key arrived (from any process). */
  onMessage(message: M): void;
  /**
   * The listening connection broke and listens again: notifications of the gap may be lost, so read the
   * state afresh.
   */
  onResync?(): void;
  /** The channel closed (the process stops); nothing more arrives. */
  onClose?(): void;
}

/** How long to wait before listening again after the listening connection broke, and between tries. */
export const RELISTEN_MS = 2_000;

/**
 * A PostgreSQL NOTIFY channel fanned out to subscribers by key (a memorial id) within one process: one LISTEN
 * per process, opened with the first subscriber and closed after the last. When the listening connection
 * breaks the subscribers stay; the channel listens again (every `relistenMs` until it works) and then calls
 * their `onResync`, since what was notified meanwhile is lost. Keys compare case-insensitively (UUIDs).
 */
export function liveChannel<M>(o: {
  db: Db;
  channel: string;
  log: FastifyBaseLogger;
  /** The key and the message of a payload; null to ignore it. */
  parse: (payload: string) => { key: string; message: M } | null;
  relistenMs?: number;
}) {
  const { db, channel, log } = o;
  const relistenMs = o.relistenMs ?? RELISTEN_MS;
  /** Subscribers by key; a key without subscribers is removed, so an empty map means nobody listens. */
  const subs = new Map<string, Set<LiveSubscriber<M>>>();
  let listener: Promise<Listener> | null = null;
  let retry: NodeJS.Timeout | null = null;
  /** The connection broke since the subscribers last had everything. */
  let missed = false;
  let closed = false;

  function onPayload(payload: string) {
    const parsed = o.parse(payload);
    if (!parsed) return;
    for (const s of [...(subs.get(parsed.key.toLowerCase()) ?? [])]) s.onMessage(parsed.message);
  }

  function each(fn: (s: LiveSubscriber<M>) => void) {
    for (const s of [...subs.values()].flatMap((set) => [...set])) fn(s);
  }

  function listen(): Promise<Listener> {
    if (listener) return listener;
    const current = db.listen(channel, onPayload, lost);
    listener = current;
    current.then(
      (l) => {
        if (listener !== current) {
          void l.close().catch(() => {}); // the last subscriber left while it connected
          return;
        }
        if (missed) {
          missed = false;
          log.info({ channel }, 'live channel: listening again');
          each((s) => s.onResync?.());
        }
      },
      (err: unknown) => {
        if (listener === current) listener = null;
        if (missed) {
          log.warn({ err, channel }, 'live channel: listening again failed; trying later');
          scheduleRelisten();
        }
      },
    );
    return current;
  }

  function lost(err: Error) {
    log.warn({ err, channel }, 'live channel: lost the listening connection; listening again');
    listener = null;
    missed = true;
    scheduleRelisten();
  }

  function scheduleRelisten() {
    if (closed || retry || subs.size === 0) return;
    retry = setTimeout(() => {
      retry = null;
      if (closed || subs.size === 0) return;
      listen().catch(() => {}); // a failure schedules the next try
    }, relistenMs);
    retry.unref();
  }

  function stopListening() {
    const l = listener;
    listener = null;
    missed = false;
    if (retry) clearTimeout(retry);
    retry = null;
    void l?.then((x) => x.close()).catch(() => {});
  }

  return {
    /**
     * Adds a subscriber for `key`; resolves once notifications are received (rejects, subscribing nothing,
     * when listening fails). Returns the unsubscribe.
     */
    async subscribe(key: string, s: LiveSubscriber<M>): Promise<() => void> {
      if (closed) throw new Error(`live channel ${channel} is closed`);
      const k = key.toLowerCase();
      let set = subs.get(k);
      if (!set) subs.set(k, (set = new Set()));
      set.add(s);
      let done = false;
      const unsubscribe = () => {
        if (done) return;
        done = true;
        const current = subs.get(k);
        if (current?.delete(s) && current.size === 0) subs.delete(k);
        if (subs.size === 0) stopListening();
      };
      try {
        await listen();
      } catch (err) {
        unsubscribe();
        throw err;
      }
      return unsubscribe;
    },
    /** Subscribers in this process (for tests and the operations view). */
    subscribers: () => [...subs.values()].reduce((n, set) => n + set.size, 0),
    /** Stops listening; every subscriber's `onClose` is called. */
    close() {
      closed = true;
      const all: LiveSubscriber<M>[] = [];
      each((s) => all.push(s));
      subs.clear();
      stopListening();
      for (const s of all) s.onClose?.();
    },
  };
}
export type LiveChannel<M> = ReturnType<typeof liveChannel<M>>;
