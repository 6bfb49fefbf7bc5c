import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { errorCodes } from '@aandenken/contract';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Caller } from './auth.ts';
import { AppError, unauthorized } from './errors.ts';
import { liveChannel } from './live-channel.ts';

/** NOTIFY from the triggers of migration 125: a change that may end someone's access to this memorial. */
export const LIVE_ACCESS_CHANNEL = 'live_access';
/** Every open stream's access is checked again this often, in case a notification was missed. */
export const RECHECK_MS = 60_000;
/** Access checks run at once after notifications; more wait, so a burst does not take the pool. */
const CHECKS_AT_ONCE = 2;
export const STREAMS_FULL_RETRY_AFTER_SECONDS = 30;

export type LiveStreamLimits = Pick<
  Config,
  'LIVE_STREAMS_PER_CALLER' | 'LIVE_STREAMS_PER_ADDRESS' | 'LIVE_STREAMS_MAX'
>;

/** Whose stream it is, for the caps: the user or the guest token; null for an anonymous visitor. */
export const callerKey = (caller: Caller): string | null =>
  caller.kind === 'user'
    ? `user:${caller.userId}`
    : caller.kind === 'guest'
      ? `guest:${caller.tokenId}`
      : null;

/**
 * One person on a memorial, for counting people instead of connections: the user, the guest token, or an
 * anonymous visitor's address with the page view's id (so one address adds at most its stream cap). A
 * hash: the address itself is not stored.
 */
export function personKey(caller: Caller, address: string, pageView?: string): string {
  const key = callerKey(caller) ?? `anonymous:${address}:${pageView ?? ''}`;
  return createHash('sha256').update(key).digest('base64url').slice(0, 22);
}

export interface WatchOptions {
  /** The route: streams of one caller on one memorial and one kind share each access check. */
  kind: string;
  memorialId: string;
  /**
   * The route's own access check, with the caller's token verified again (`req.callerAgain()`): resolves
   * when access holds, rejects with the route's 4xx when it no longer does.
   */
  check: () => Promise<unknown>;
  /** Ends the stream; nothing more is delivered. Called at most once. */
  end: () => void;
}

export interface LiveSlot {
  /**
   * Watches the open stream: `end` is called within seconds of a change that ends the caller's access, and
   * when their token expires. Resolves once access changes are received.
   */
  watch(o: WatchOptions): Promise<void>;
  /** The stream is gone: frees its place. Idempotent. */
  release(): void;
}

interface Watched {
  group: string;
  memorialId: string;
  check: () => Promise<unknown>;
  end: () => void;
  expiry: NodeJS.Timeout | null;
  unsubscribe: () => void;
  ended: boolean;
}

/**
 * The live streams of one process (the guestbook's list, the kaarsjesmoment): how many each caller and
 * address may hold, how many the process holds at most, and ending a stream when the caller's access ends.
 * Access changes come as notifications (one LISTEN per process through lib/live-channel.ts); the streams on
 * that memorial are checked again with the route's own check, one check per caller, memorial and kind. A
 * timer ends a stream when its token expires, and a check of all every `RECHECK_MS` covers a notification
 * lost while the listening connection was down. Nothing per stream polls the database.
 */
export function liveStreams(o: { db: Db; log: FastifyBaseLogger; limits: LiveStreamLimits }) {
  const { log, limits } = o;
  const perAddress = new Map<string, number>();
  const perCaller = new Map<string, number>();
  let open = 0;
  const byMemorial = new Map<string, Set<Watched>>();
  const pending = new Set<string>();
  let running = 0;
  let sweep: NodeJS.Timeout | null = null;
  let closed = false;

  const channel = liveChannel<null>({
    db: o.db,
    channel: LIVE_ACCESS_CHANNEL,
    log,
    parse: (payload) => (payload ? { key: payload, message: null } : null),
  });

  const add = (m: Map<string, number>, k: string, n: number) => {
    const v = (m.get(k) ?? 0) + n;
    if (v > 0) m.set(k, v);
    else m.delete(k);
  };

  /** Checks the streams on `memorialId` again; those whose caller lost access end. */
  async function recheck(memorialId: string) {
    const streams = byMemorial.get(memorialId);
    if (!streams?.size) return;
    const groups = new Map<string, Watched[]>();
    for (const w of streams) {
      const g = groups.get(w.group);
      if (g) g.push(w);
      else groups.set(w.group, [w]);
    }
    for (const group of groups.values()) {
      const alive = group.filter((w) => !w.ended);
      if (!alive.length) continue;
      let lost = false;
      try {
        await alive[0]!.check();
      } catch (err) {
        // A 4xx is the route's answer (no access, token refused); anything else (the database away) is
        // no verdict: the stream stays and the next check decides.
        if (err instanceof AppError && err.statusCode < 500) lost = true;
        else log.warn({ err, memorialId }, 'live streams: access check failed');
      }
      if (lost) for (const w of alive) finish(w);
    }
  }

  function schedule(memorialId: string) {
    if (closed || !byMemorial.has(memorialId)) return;
    pending.add(memorialId);
    drain();
  }

  function drain() {
    while (running < CHECKS_AT_ONCE && pending.size) {
      const memorialId = pending.values().next().value!;
      pending.delete(memorialId);
      running++;
      recheck(memorialId)
        .catch((err: unknown) => log.warn({ err }, 'live streams: recheck failed'))
        .finally(() => {
          running--;
          drain();
        });
    }
  }

  function recheckAll() {
    for (const memorialId of byMemorial.keys()) schedule(memorialId);
  }

  function finish(w: Watched) {
    if (w.ended) return;
    w.ended = true;
    forget(w);
    w.end();
  }

  function forget(w: Watched) {
    if (w.expiry) clearTimeout(w.expiry);
    w.expiry = null;
    w.unsubscribe();
    const set = byMemorial.get(w.memorialId);
    if (set?.delete(w) && set.size === 0) byMemorial.delete(w.memorialId);
    if (byMemorial.size === 0 && sweep) {
      clearInterval(sweep);
      sweep = null;
    }
  }

  return {
    /**
     * Takes a place for a new stream of `caller` from `address`, or throws: 429 above the caller's or the
     * address's cap, 503 when the process holds its maximum, 401 when the token has just expired (within
     * the verifiers' clock tolerance: the client renews it rather than reconnecting again and again).
     */
    admit(
      caller: Caller,
      address: string,
      reply?: { header(name: string, value: string): unknown },
    ): LiveSlot & { expiresAt: number | null } {
      const expiresAt = caller.kind !== 'anonymous' && caller.expiresAt ? caller.expiresAt * 1000 : null;
      if (expiresAt !== null && expiresAt <= Date.now())
        throw unauthorized('Je sessie is verlopen. Log opnieuw in.');
      const who = callerKey(caller);
      if (who && (perCaller.get(who) ?? 0) >= limits.LIVE_STREAMS_PER_CALLER)
        throw new AppError(
          429,
          errorCodes.rateLimited,
          `Je hebt al ${limits.LIVE_STREAMS_PER_CALLER} live verbindingen open. Sluit een ander venster of tabblad en probeer het opnieuw.`,
        );
      if ((perAddress.get(address) ?? 0) >= limits.LIVE_STREAMS_PER_ADDRESS)
        throw new AppError(
          429,
          errorCodes.rateLimited,
          'Vanaf dit adres zijn al te veel live verbindingen open. Sluit een ander venster of tabblad en probeer het opnieuw.',
        );
      if (open >= limits.LIVE_STREAMS_MAX || closed) {
        reply?.header('retry-after', String(STREAMS_FULL_RETRY_AFTER_SECONDS));
        throw new AppError(
          503,
          errorCodes.overloaded,
          'Er kijken nu heel veel mensen live mee. Probeer het over een halve minuut opnieuw.',
        );
      }
      open++;
      add(perAddress, address, 1);
      if (who) add(perCaller, who, 1);
      let released = false;
      let watched: Watched | null = null;
      return {
        expiresAt,
        async watch(w) {
          if (released) return;
          const memorialId = w.memorialId.toLowerCase();
          const entry: Watched = {
            group: `${w.kind} ${memorialId} ${who ?? 'anonymous'}`,
            memorialId,
            check: w.check,
            end: w.end,
            expiry: null,
            unsubscribe: () => {},
            ended: false,
          };
          watched = entry;
          let set = byMemorial.get(memorialId);
          if (!set) byMemorial.set(memorialId, (set = new Set()));
          set.add(entry);
          if (expiresAt !== null) {
            // Capped: a timer cannot wait longer than about 24 days (guest tokens last hours).
            entry.expiry = setTimeout(() => finish(entry), Math.min(expiresAt - Date.now(), 2 ** 31 - 1));
            entry.expiry.unref();
          }
          sweep ??= setInterval(recheckAll, RECHECK_MS).unref();
          const unsubscribe = await channel.subscribe(memorialId, {
            onMessage: () => schedule(memorialId),
            // Changes of the gap were missed: check this memorial's streams again.
            onResync: () => schedule(memorialId),
          });
          if (entry.ended || released) unsubscribe();
          else entry.unsubscribe = unsubscribe;
        },
        release() {
          if (released) return;
          released = true;
          open--;
          add(perAddress, address, -1);
          if (who) add(perCaller, who, -1);
          if (watched && !watched.ended) {
            watched.ended = true;
            forget(watched);
          }
        },
      };
    },
    /** Streams open in this process. */
    open: () => open,
    /** Checks every open stream's access now (the periodic safety net; tests call it). */
    recheckAll,
    close() {
      closed = true;
      pending.clear();
      if (sweep) clearInterval(sweep);
      sweep = null;
      channel.close();
    },
  };
}
export type LiveStreams = ReturnType<typeof liveStreams>;
