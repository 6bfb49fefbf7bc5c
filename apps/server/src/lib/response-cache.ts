import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Listener } from '../db/client.ts';

/** Sent by the triggers of migration 090 with a memorial's id whenever anything it shows changes. */
export const MEMORIAL_CHANGED_CHANNEL = 'memorial_changed';

type Encoding = 'br' | 'gzip';

interface Entry {
  key: string;
  version: string;
  body: Buffer;
  etag: string;
  encoded: Partial<Record<Encoding, Buffer>>;
  /** Complete header sets for `answerRaw`, per encoding, built on first use. */
  raw: Partial<Record<Encoding | 'identity', Record<string, string | number>>>;
  bytes: number;
}

export interface CacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
  enabled: boolean;
}

export interface ResponseCache {
  /**
   * Answers an anonymous read of one memorial from memory when nothing on that memorial changed since it
   * was computed; otherwise runs `compute` (the normal handler: access check, queries) once for all
   * concurrent callers and keeps its 200 answer, serialised by the route's own response schema. A request
   * with an Authorization header (a user or a guest token) always runs `compute` and is never kept.
   * Errors (404 for a private or missing memorial) are never kept.
   */
  serve<T>(
    req: FastifyRequest,
    reply: FastifyReply,
    scope: { memorialId: string; name: string },
    compute: () => Promise<T>,
  ): Promise<FastifyReply | T>;
  /** Drops what is kept for this memorial. Migration 090's triggers do this for every database change. */
  invalidateMemorial(memorialId: string): void;
  /**
   * The memorial's current version: something derived from everything it shows (the server-rendered
   * memorial page) is valid while this stays the same. Null while the cache is off or paused.
   */
  versionOf(memorialId: string): string | null;
  /** Waits until changes committed by any process so far have invalidated this cache. */
  sync(): Promise<void>;
  /**
   * Answers a cached anonymous `GET /core/memorial/{id}` straight from the HTTP server's request handler,
   * before the framework (routing, hooks, logging, rate limit); false when it is not such a hit, and the
   * request goes to Fastify as usual. A hit costs about what the bare node:http baseline costs.
   */
  answerRaw(req: IncomingMessage, res: ServerResponse): boolean;
  stats(): CacheStats;
  close(): Promise<void>;
}

export interface ResponseCacheOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** Upper bound for kept bytes (bodies and their compressed forms); 0 switches the cache off. */
  maxBytes: number;
  /** Headers every response carries (the security headers), for answers sent by `answerRaw`. */
  headers?: Record<string, string>;
}

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;
/** Versions are kept per memorial that changed; past this many the whole cache starts over. */
const MAX_TRACKED_MEMORIALS = 100_000;
const COMPRESS_MIN_BYTES = 1024;

function preferredEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  let best: Encoding | null = null;
  let bestQ = 0;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name !== 'br' && name !== 'gzip') continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    const quality = q ? Number(q[1]) : 1;
    if (quality > bestQ || (quality === bestQ && quality > 0 && name === 'br')) {
      best = name;
      bestQ = quality;
    }
  }
  return bestQ > 0 ? best : null;
}

const encode = (encoding: Encoding, body: Buffer) =>
  encoding === 'br'
    ? zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : zlib.gzipSync(body, { level: 9 });

/** RFC 9110 weak comparison: the same opaque tag, with or without W/. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

const servedFromCache = Symbol('servedFromCache');
/** The one URL `answerRaw` answers: the memorial read, without a query string. */
const MEMORIAL_URL =
  /^\/core\/memorial\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** True when the request was a cached read (so the write barrier can skip it). */
export function isCachedRead(req: FastifyRequest): boolean {
  return (req as FastifyRequest & { [servedFromCache]?: boolean })[servedFromCache] === true;
}

/**
 * The in-process cache for reads many visitors share: a public memorial and the first page of its wall.
 * Each memorial has a version; an entry is valid only while the version it was computed under is current.
 * Every committed change bumps the version: the database triggers NOTIFY `memorial_changed`, which every
 * process LISTENs to (PGlite in-process, PostgreSQL over its own connection). `sync()` (run before a write
 * request answers) makes the invalidation immediate for the process that wrote. While the LISTEN
 * connection is down nothing is cached, and after it comes back everything starts over, so a missed
 * notification can never leave a stale answer.
 */
export async function createResponseCache(opts: ResponseCacheOptions): Promise<ResponseCache> {
  const { db, log, maxBytes } = opts;
  const entries = new Map<string, Entry>(); // insertion order = least recently used first
  const inflight = new Map<string, { version: string; promise: Promise<Entry> }>();
  let versions = new Map<string, number>();
  let clock = 0;
  let generation = 0;
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  let enabled = false;
  let closed = false;
  let listener: Listener | null = null;
  let retry: NodeJS.Timeout | undefined;
  let retryDelay = RECONNECT_MIN_MS;

  const versionOf = (memorialId: string) => `${generation}.${versions.get(memorialId) ?? 0}`;

  function drop(entry: Entry) {
    entries.delete(entry.key);
    bytes -= entry.bytes;
  }

  function invalidateAll() {
    generation++;
    versions = new Map();
    entries.clear();
    bytes = 0;
  }

  function invalidateMemorial(id: string) {
    const memorialId = id.toLowerCase();
    if (versions.size >= MAX_TRACKED_MEMORIALS) {
      invalidateAll();
      return;
    }
    versions.set(memorialId, ++clock);
    for (const entry of entries.values()) if (entry.key.endsWith(`:${memorialId}`)) drop(entry);
  }

  function store(entry: Entry) {
    if (entry.bytes > maxBytes / 4) return; // one huge answer must not push out everything else
    const old = entries.get(entry.key);
    if (old) drop(old);
    entries.set(entry.key, entry);
    bytes += entry.bytes;
    for (const lru of entries.values()) {
      if (bytes <= maxBytes) break;
      drop(lru);
    }
  }

  async function connect() {
    try {
      const l = await db.listen(MEMORIAL_CHANGED_CHANNEL, invalidateMemorial, (err) => {
        log.warn({ err }, 'response cache: lost the change notifications; caching paused');
        enabled = false;
        listener = null;
        invalidateAll();
        schedule();
      });
      if (closed) {
        await l.close();
        return;
      }
      listener = l;
      invalidateAll();
      enabled = true;
      retryDelay = RECONNECT_MIN_MS;
    } catch (err) {
      log.warn({ err }, 'response cache: could not listen for changes; caching paused');
      schedule();
    }
  }

  function schedule() {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, retryDelay);
    retry.unref();
    retryDelay = Math.min(retryDelay * 2, RECONNECT_MAX_MS);
  }

  /** The body in the client's preferred encoding, compressed once per entry. */
  function encodedBody(
    entry: Entry,
    acceptEncoding: string | undefined,
  ): { body: Buffer; encoding: Encoding | null } {
    const encoding = entry.body.length >= COMPRESS_MIN_BYTES ? preferredEncoding(acceptEncoding) : null;
    if (!encoding) return { body: entry.body, encoding: null };
    let encoded = entry.encoded[encoding];
    if (!encoded) {
      encoded = encode(encoding, entry.body);
      if (entries.get(entry.key) === entry) {
        entry.encoded[encoding] = encoded;
        entry.bytes += encoded.length;
        bytes += encoded.length;
      }
    }
    return { body: encoded, encoding };
  }

  function send(req: FastifyRequest, reply: FastifyReply, entry: Entry, hit: boolean) {
    reply.header('etag', entry.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    reply.header('x-cache', hit ? 'hit' : 'miss');
    if (
      (req.method === 'GET' || req.method === 'HEAD') &&
      matches(req.headers['if-none-match'], entry.etag)
    ) {
      return reply.code(304).send();
    }
    reply.type('application/json; charset=utf-8');
    const { body, encoding } = encodedBody(entry, req.headers['accept-encoding']);
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  }

  if (maxBytes > 0) await connect();

  return {
    async serve(req, reply, scope, compute) {
      if (!enabled || req.headers.authorization !== undefined) return compute();
      // Notifications carry PostgreSQL's text form of the uuid: lower case.
      const memorialId = scope.memorialId.toLowerCase();
      const name = scope.name;
      (req as FastifyRequest & { [servedFromCache]?: boolean })[servedFromCache] = true;
      const key = `${name}:${memorialId}`;
      const version = versionOf(memorialId);
      const cached = entries.get(key);
      if (cached && cached.version === version) {
        hits++;
        entries.delete(key); // most recently used goes last
        entries.set(key, cached);
        return send(req, reply, cached, true);
      }
      misses++;
      let flight = inflight.get(key);
      if (!flight || flight.version !== version) {
        const promise = (async (): Promise<Entry> => {
          const body = Buffer.from(reply.serialize(await compute()) as string);
          const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
          const entry: Entry = {
            key,
            version,
            body,
            etag,
            encoded: {},
            raw: {},
            bytes: body.length + key.length + 64,
          };
          // Something changed while it was computed: answer with it, but do not keep it.
          if (enabled && versionOf(memorialId) === version) store(entry);
          return entry;
        })();
        const current = { version, promise };
        flight = current;
        inflight.set(key, current);
        promise
          .finally(() => {
            if (inflight.get(key) === current) inflight.delete(key);
          })
          .catch(() => {});
      }
      return send(req, reply, await flight.promise, false);
    },

    invalidateMemorial,

    versionOf: (memorialId) => (enabled ? versionOf(memorialId.toLowerCase()) : null),

    answerRaw(req, res) {
      if (
        !enabled ||
        (req.method !== 'GET' && req.method !== 'HEAD') ||
        req.headers.authorization !== undefined
      )
        return false;
      const match = MEMORIAL_URL.exec(req.url ?? '');
      if (!match) return false;
      const memorialId = match[1]!.toLowerCase();
      const key = `memorial:${memorialId}`;
      const entry = entries.get(key);
      if (!entry || entry.version !== versionOf(memorialId)) return false;
      hits++;
      entries.delete(key);
      entries.set(key, entry);
      const common = {
        ...opts.headers,
        etag: entry.etag,
        'cache-control': 'no-cache',
        vary: 'accept-encoding',
        'x-cache': 'hit',
      };
      if (matches(req.headers['if-none-match'], entry.etag)) {
        res.writeHead(304, common);
        res.end();
        return true;
      }
      const { body, encoding } = encodedBody(entry, req.headers['accept-encoding']);
      const headers = (entry.raw[encoding ?? 'identity'] ??= {
        ...common,
        'content-type': 'application/json; charset=utf-8',
        'content-length': body.length,
        ...(encoding ? { 'content-encoding': encoding } : {}),
      });
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    },

    async sync() {
      const l = listener;
      if (!l) return;
      try {
        await l.sync();
      } catch (err) {
        // The write this runs for has committed: its answer must still go out. The notifications may be
        // lost, so caching pauses until they are listened to again, as when the connection drops.
        if (listener !== l) return;
        log.warn({ err }, 'response cache: could not sync with the change notifications; caching paused');
        enabled = false;
        listener = null;
        invalidateAll();
        void l.close();
        schedule();
      }
    },

    stats: () => ({ hits, misses, entries: entries.size, bytes, enabled }),

    async close() {
      closed = true;
      enabled = false;
      clearTimeout(retry);
      await listener?.close();
      listener = null;
      invalidateAll();
    },
  };
}
