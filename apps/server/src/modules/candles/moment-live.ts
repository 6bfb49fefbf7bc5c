import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Candle, CandleMoment } from '@aandenken/contract';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/deps.ts';
import { liveChannel } from '../../lib/live-channel.ts';
import type { LiveSlot } from '../../lib/live-streams.ts';
import { sse } from '../../lib/sse.ts';
import { candlePresenceRepository } from './moment-repository.ts';
import { candleRepository, toCandle } from './repository.ts';

/** How often a process refreshes its connections' presence and sends a keep-alive comment. */
export const HEARTBEAT_MS = 15_000;
/** A presence row not refreshed for this long is no longer counted (its process died). */
export const PRESENCE_STALE_MS = 45_000;

interface Connection {
  id: string;
  memorialId: string;
  moment: CandleMoment;
  res: ServerResponse;
  closed: boolean;
  /** Its presence row is written (a heartbeat before that would not find it). */
  ready: boolean;
  unsubscribe: () => void;
  /** Frees its place among the process's streams. */
  release: () => void;
}

interface LiveMessage {
  m: string;
  c?: string;
  p?: boolean;
}

/**
 * The live side of the kaarsjesmoment in one process (docs/funeral-day.md, 'Samen herdenken'). Every
 * process holds its own connections; what happens elsewhere arrives through PostgreSQL: a trigger
 * notifies `candle_live` for each candle lit and for each presence row added or removed, whichever
 * process made the change, and every process that has connections on that memorial forwards the candle
 * or counts again. Presence is one row per open connection (candle_presence), so the count is the same
 * in every process.
 */
export function createCandleLive(o: { db: Db; clock: () => Clock; log: FastifyBaseLogger }) {
  const { db, log } = o;
  const presence = candlePresenceRepository(db);
  const now = () => o.clock().now();
  const byMemorial = new Map<string, Set<Connection>>();
  let heartbeat: NodeJS.Timeout | null = null;
  const recounts = new Map<string, Promise<void>>();
  const forwards = new Set<string>();

  const write = (c: Connection, event: string, data: unknown) => {
    if (c.closed) return;
    c.res.write(sse.event(event, data));
  };

  async function count(memorialId: string): Promise<number> {
    return presence.count(memorialId, new Date(now().getTime() - PRESENCE_STALE_MS));
  }

  /** Counts again and tells this process's connections; notifications that arrive meanwhile share it. */
  function recount(memorialId: string) {
    if (recounts.has(memorialId)) return;
    const run = (async () => {
      await Promise.resolve();
      recounts.delete(memorialId);
      const conns = byMemorial.get(memorialId);
      if (!conns?.size) return;
      const together = await count(memorialId);
      for (const c of conns) write(c, 'together', { together });
    })().catch((err: unknown) => log.warn({ err }, 'candle moment: count failed'));
    recounts.set(memorialId, run);
  }

  /** Reads the candle once and tells this process's connections (each of them hears the notification). */
  function forwardCandle(memorialId: string, candleId: string) {
    if (forwards.has(candleId)) return;
    forwards.add(candleId);
    (async () => {
      const conns = byMemorial.get(memorialId);
      if (!conns?.size) return;
      const row = await candleRepository(db).findById(candleId);
      if (!row) return;
      const candle: Candle = toCandle(row);
      for (const c of conns) write(c, 'candle', candle);
    })()
      .catch((err: unknown) => log.warn({ err }, 'candle moment: forward failed'))
      .finally(() => forwards.delete(candleId));
  }

  // A trigger notifies `candle_live` for each candle lit and each presence row added or removed.
  const channel = liveChannel<LiveMessage>({
    db,
    channel: 'candle_live',
    log,
    parse(payload) {
      let msg: Partial<LiveMessage>;
      try {
        msg = JSON.parse(payload) as Partial<LiveMessage>;
      } catch {
        return null;
      }
      return msg.m ? { key: msg.m, message: msg as LiveMessage } : null;
    },
  });

  function onMessage(msg: LiveMessage) {
    const memorialId = msg.m.toLowerCase();
    if (!byMemorial.has(memorialId)) return;
    if (msg.c) forwardCandle(memorialId, msg.c);
    if (msg.p) recount(memorialId);
  }

  /**
   * Refreshes this process's presence rows and ends the streams whose moment is over: by its time, or
   * because the family cancelled it (the row went with the moment) or moved its end.
   */
  async function beat() {
    const at = now();
    const all = [...byMemorial.values()].flatMap((s) => [...s]).filter((c) => c.ready && !c.closed);
    const ends = new Map<string, number>();
    if (all.length) {
      const rows = await presence.touch(
        all.map((c) => c.id),
        at,
      );
      for (const r of rows) ends.set(r.id, new Date(r.ends_at).getTime());
    }
    for (const c of all) {
      const endsAt = ends.get(c.id);
      if (endsAt === undefined || endsAt <= at.getTime()) {
        write(c, 'ended', {});
        end(c);
      } else c.res.write(sse.heartbeat);
    }
    // Rows of a process that died: gone for everyone (the delete notifies, the others count again).
    await presence.dropSeenBefore(new Date(at.getTime() - PRESENCE_STALE_MS));
  }

  function end(c: Connection) {
    if (c.closed) return;
    c.closed = true;
    c.res.end();
  }

  async function drop(c: Connection) {
    c.release();
    const conns = byMemorial.get(c.memorialId);
    if (!conns?.delete(c)) return;
    c.unsubscribe();
    if (conns.size === 0) byMemorial.delete(c.memorialId);
    if (byMemorial.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
    await presence.drop(c.id);
  }

  return {
    /**
     * Opens the stream on `res` (its headers are written here): a presence row, the state, then live
     * events until the moment ends, the client leaves, the caller's access ends (`check`, through the
     * process's live streams: `slot`) or the process closes. `person` is who counts in "samen".
     */
    async open(
      res: ServerResponse,
      headers: Record<string, string>,
      moment: CandleMoment,
      o: { person: string; slot: LiveSlot; check: () => Promise<unknown> },
    ) {
      const memorialId = moment.memorialId.toLowerCase();
      const unsubscribe = await channel.subscribe(memorialId, {
        onMessage,
        // Candles and arrivals of the gap were missed: count again (shared by the memorial's connections).
        onResync: () => recount(memorialId),
      });
      const c: Connection = {
        id: randomUUID(),
        memorialId,
        moment,
        res,
        closed: false,
        ready: false,
        unsubscribe,
        release: () => o.slot.release(),
      };
      sse.open(res, headers);
      res.on('close', () => {
        c.closed = true;
        drop(c).catch((err: unknown) => log.warn({ err }, 'candle moment: leaving failed'));
      });
      let conns = byMemorial.get(c.memorialId);
      if (!conns) byMemorial.set(c.memorialId, (conns = new Set()));
      conns.add(c);
      heartbeat ??= setInterval(() => {
        beat().catch((err: unknown) => log.warn({ err }, 'candle moment: heartbeat failed'));
      }, HEARTBEAT_MS).unref();
      res.write(sse.retry(5000));
      await o.slot.watch({ kind: 'candle-moment', memorialId, check: o.check, end: () => end(c) });
      await presence.add(c.id, c.memorialId, moment.id, now(), o.person);
      if (c.closed) {
        await presence.drop(c.id);
        return;
      }
      c.ready = true;
      const rows = await candleRepository(db).during(c.memorialId, moment.startsAt, moment.endsAt);
      write(c, 'state', { moment, candles: rows.map(toCandle), together: await count(c.memorialId) });
    },

    /** The process closes: every stream ends (the clients connect again elsewhere), rows removed. */
    async close() {
      const all = [...byMemorial.values()].flatMap((s) => [...s]);
      for (const c of all) end(c);
      await Promise.allSettled(all.map(drop));
      if (heartbeat) clearInterval(heartbeat);
      channel.close();
    },

    /** For tests: run one heartbeat now. */
    beat,
  };
}
export type CandleLive = ReturnType<typeof createCandleLive>;
