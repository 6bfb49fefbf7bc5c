import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { liveChannel } from '../../lib/live-channel.ts';

export const GUESTBOOK_CHANNEL = 'guestbook_entry';

export interface LiveSubscriber {
  /** A guestbook entry of the subscribed memorial was added or changed (by any process). */
  onEntry(entryId: string): void;
  /** Notifications may have been missed (the listening connection broke and listens again): read the list again. */
  onResync?(): void;
  /** The process closes: the stream ends, and the client reconnects elsewhere and reads the list again. */
  onLost(): void;
}

/**
 * The live half of the guestbook: `guestbook_entry` (NOTIFY from the trigger of migration 116, so entries
 * written by any process arrive) through lib/live-channel.ts, fanned out to the streams of the memorial the
 * entry belongs to.
 */
export function guestbookLive(db: Db, log: FastifyBaseLogger) {
  const channel = liveChannel<string>({
    db,
    channel: GUESTBOOK_CHANNEL,
    log,
    parse(payload) {
      const [memorialId, entryId] = payload.split(' ');
      return memorialId && entryId ? { key: memorialId, message: entryId } : null;
    },
  });
  return {
    /** Starts listening if needed; resolves once notifications are received. Returns the unsubscribe. */
    subscribe: (memorialId: string, s: LiveSubscriber) =>
      channel.subscribe(memorialId, {
        onMessage: (entryId) => s.onEntry(entryId),
        onResync: () => s.onResync?.(),
        onClose: () => s.onLost(),
      }),
    /** Streams open in this process (for tests and the operations view). */
    streams: () => channel.subscribers(),
    close: () => channel.close(),
  };
}
export type GuestbookLive = ReturnType<typeof guestbookLive>;
