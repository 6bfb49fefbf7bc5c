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

/** The store contract of @fastify/rate-limit (its own stores have no types). */
interface RateLimitStore {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): RateLimitStore;
}
type StoreParams = { continueExceeding?: boolean; exponentialBackoff?: boolean };

const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean | undefined,
  exponentialBackoff: boolean | undefined,
  redis: Redis,
  key: string,
) => RateLimitStore;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean | undefined,
  exponentialBackoff: boolean | undefined,
  cache?: number,
) => RateLimitStore;

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
    constructor(params: StoreParams, remote?: RateLimitStore, local?: RateLimitStore) {
      this.remote =
        remote ?? new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, prefix);
      this.local = local ?? new LocalStore(params.continueExceeding, params.exponentialBackoff);
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
