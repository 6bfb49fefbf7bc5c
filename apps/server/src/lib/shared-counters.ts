import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * The rate limits' counters (the general limit, every route's own limit, the identity forms' limits), shared by
 * all processes through Redis when REDIS_URL is set (docs/scale-out.md). A Redis that does not answer never
 * lifts a limit and never fails a request: each process then counts in its own memory, with a warning, until
 * Redis is back.
 */

interface Counted {
  current: number;
  ttl: number;
}
type Callback = (err: Error | null, res?: Counted) => void;

/** The store contract of @fastify/rate-limit's `store` option. */
interface RateLimitStore {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): RateLimitStore;
}
type StoreParams = { continueExceeding?: boolean; exponentialBackoff?: boolean };

const require = createRequire(import.meta.url);

/** Keys a process keeps in memory at the most; the oldest window goes first. */
const LOCAL_KEYS = 5_000;

/**
 * Fixed windows counted in this process's memory: a key's count starts at its first request and ends
 * `timeWindow` later.
 */
class LocalCounter implements RateLimitStore {
  // Plain fields, not parameter properties: Node's type stripping runs the server and cannot erase those.
  private readonly windows: Map<string, { current: number; start: number }>;
  private readonly prefix: string;
  constructor(windows = new Map<string, { current: number; start: number }>(), prefix = '') {
    this.windows = windows;
    this.prefix = prefix;
  }
  incr(key: string, cb: Callback, timeWindow: number) {
    const now = Date.now();
    const k = this.prefix + key;
    let w = this.windows.get(k);
    if (!w || w.start + timeWindow <= now) w = { current: 0, start: now };
    w.current += 1;
    // Re-inserting keeps the Map in the order of last use, so the first key is the one to drop.
    this.windows.delete(k);
    this.windows.set(k, w);
    if (this.windows.size > LOCAL_KEYS) this.windows.delete(this.windows.keys().next().value!);
    cb(null, { current: w.current, ttl: w.start + timeWindow - now });
  }
  read(key: string, cb: Callback, timeWindow: number) {
    const now = Date.now();
    const w = this.windows.get(this.prefix + key);
    if (!w || w.start + timeWindow <= now) cb(null, { current: 0, ttl: 0 });
    else cb(null, { current: w.current, ttl: w.start + timeWindow - now });
  }
  child(routeOptions: unknown): RateLimitStore {
    return new LocalCounter(this.windows, `${this.prefix}${routeKey(routeOptions)}`);
  }
}

/** The same fixed windows in Redis: one atomic INCR (with its expiry set on the first) per request. */
const INCR_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('PTTL', KEYS[1])}`;

class RedisCounter implements RateLimitStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  constructor(redis: Redis, prefix: string) {
    this.redis = redis;
    this.prefix = prefix;
  }
  incr(key: string, cb: Callback, timeWindow: number) {
    this.redis.eval(INCR_SCRIPT, 1, this.prefix + key, timeWindow).then(
      (r) => {
        const [current, ttl] = r as [number, number];
        cb(null, { current, ttl: Math.max(ttl, 0) });
      },
      (err: Error) => cb(err),
    );
  }
  read(key: string, cb: Callback) {
    const k = this.prefix + key;
    this.redis
      .multi()
      .get(k)
      .pttl(k)
      .exec()
      .then(
        (r) => {
          const current = Number(r?.[0]?.[1] ?? 0);
          const ttl = Number(r?.[1]?.[1] ?? 0);
          cb(null, current > 0 ? { current, ttl: Math.max(ttl, 0) } : { current: 0, ttl: 0 });
        },
        (err: Error) => cb(err),
      );
  }
  child(routeOptions: unknown): RateLimitStore {
    return new RedisCounter(this.redis, `${this.prefix}${routeKey(routeOptions)}`);
  }
}

/** A route's own limit counts under its method and path. */
function routeKey(routeOptions: unknown): string {
  const info = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo;
  return `${info?.method ?? ''}${info?.url ?? ''}-`;
}

export interface SharedCounters {
  /** The store class for @fastify/rate-limit's `store` option. */
  store: new (params: StoreParams) => RateLimitStore;
  /** True while Redis answers (the limits are shared); false while each process counts alone. */
  readonly shared: boolean;
  close(): Promise<void>;
}

/** How long a Redis command may take before the request counts in this process's memory instead. */
const COMMAND_TIMEOUT_MS = 500;

export function sharedCounters({
  url,
  prefix,
  log,
}: {
  url: string;
  prefix: string;
  log: FastifyBaseLogger;
}): SharedCounters {
  // Loaded only when REDIS_URL is set: a single server does not keep the client in its memory.
  const { Redis } = require('ioredis') as typeof import('ioredis');
  const redis = new Redis(url, {
    // A command while the connection is down fails at once (and is counted locally) instead of waiting.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    // Reconnects for ever, at most two seconds apart.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let up = false;
  let warned = false;
  const down = (err?: Error) => {
    up = false;
    if (!warned) {
      warned = true;
      log.warn(
        { err: err?.message },
        'Redis antwoordt niet: de limieten gelden nu per proces, tot Redis terug is',
      );
    }
  };
  redis.on('ready', () => {
    up = true;
    if (warned) log.info('Redis is terug: de limieten worden weer gedeeld');
    warned = false;
  });
  redis.on('error', (err: Error) => down(err));
  redis.on('close', () => down());

  class FallbackStore implements RateLimitStore {
    private readonly remote: RateLimitStore;
    private readonly local: RateLimitStore;
    constructor(_params: StoreParams, remote?: RateLimitStore, local?: RateLimitStore) {
      this.remote = remote ?? new RedisCounter(redis, prefix);
      this.local = local ?? new LocalCounter();
    }
    private run(method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number) {
      if (!up) return this.local[method](key, cb, timeWindow, max);
      this.remote[method](
        key,
        (err, res) => {
          if (err || !res) {
            down(err ?? undefined);
            this.local[method](key, cb, timeWindow, max);
          } else cb(null, res);
        },
        timeWindow,
        max,
      );
    }
    incr(key: string, cb: Callback, timeWindow: number, max: number) {
      this.run('incr', key, cb, timeWindow, max);
    }
    read(key: string, cb: Callback, timeWindow: number, max: number) {
      this.run('read', key, cb, timeWindow, max);
    }
    child(routeOptions: unknown): RateLimitStore {
      return new FallbackStore({}, this.remote.child(routeOptions), this.local.child(routeOptions));
    }
  }

  return {
    store: FallbackStore,
    get shared() {
      return up;
    },
    async close() {
      redis.removeAllListeners('close');
      redis.disconnect();
    },
  };
}
