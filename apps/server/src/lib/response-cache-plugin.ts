import http from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { errorCodes } from '@aandenken/contract';
import type { Config } from '../config.ts';
import { isCachedRead, type ResponseCache } from './response-cache.ts';

/**
 * Powerful browser features no page of ours uses, off for us and for anything we embed. Only features
 * browsers know: an unknown one makes Chromium log a console warning on every page.
 */
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), midi=(), ' +
  'magnetometer=(), gyroscope=(), accelerometer=(), display-capture=()';

/**
 * Security headers (helmet), computed once: @fastify/helmet rebuilds helmet's middleware on every
 * request, which cost about a tenth of a cached memorial read (docs/performance.md).
 */
export function securityHeaders(config: Pick<Config, 'OIDC_AUTHORITY' | 'API_URL' | 'PUBLIC_URL'>) {
  const authorityOrigin = new URL(config.OIDC_AUTHORITY).origin;
  const apiOrigin = new URL(config.API_URL).origin;
  return staticHeaders(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", authorityOrigin, apiOrigin],
          frameSrc: ["'self'", authorityOrigin],
          frameAncestors: ["'self'"],
          formAction: ["'self'", authorityOrigin],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          mediaSrc: ["'self'", 'blob:'],
          workerSrc: ["'self'", 'blob:'],
        },
      },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: config.PUBLIC_URL.startsWith('https://'),
    }),
    { 'permissions-policy': PERMISSIONS_POLICY },
  );
}

/**
 * The response cache in front of the framework: a server factory that answers a cached read before
 * Fastify sees it, and the plugin that connects the cache, sets the static headers on every answer and
 * holds each write until the cache has seen its change.
 *
 * The static (security) headers go on the raw response, not on Fastify's reply: the identity provider
 * writes its answers past the framework (discovery, token, logout and error pages), and Node merges them
 * into every answer written through Fastify, whose own `reply.header` still wins for the same name.
 */
export function cachedReadsFrontDoor(headers: Record<string, string>) {
  const entries = Object.entries(headers);
  const setStatic = (res: http.ServerResponse) => {
    for (const [name, value] of entries) res.setHeader(name, value);
  };
  // Cached shared reads are answered before the framework; set once the cache exists.
  const fastPath: { answer?: ResponseCache['answerRaw'] } = {};
  // Set when the app starts closing (SIGTERM): requests that arrive after it are refused at once.
  let closing = false;
  const shuttingDown = JSON.stringify({
    code: errorCodes.shuttingDown,
    message: 'Aandenken wordt even opnieuw gestart. Probeer het over een paar seconden opnieuw.',
  });

  const serverFactory: FastifyServerFactory = (handler, options) => {
    // What Fastify's own factory does for HTTP/1, plus the response cache's answer for a cached read.
    const server = http.createServer(options.http ?? {}, (req, res) => {
      // Every answer, also those written before routing (framework errors) or past the framework.
      setStatic(res);
      if (closing) {
        // Requests under way finish; a new one (on a kept-alive connection) is told to come back.
        res.writeHead(503, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(shuttingDown),
          'retry-after': '5',
          connection: 'close',
        });
        res.end(shuttingDown);
        return;
      }
      if (!fastPath.answer?.(req, res)) handler(req, res);
    });
    server.keepAliveTimeout = Number(options.keepAliveTimeout);
    server.requestTimeout = Number(options.requestTimeout);
    server.setTimeout(Number(options.connectionTimeout));
    if (Number(options.maxRequestsPerSocket) > 0)
      server.maxRequestsPerSocket = Number(options.maxRequestsPerSocket);
    return server;
  };

  const plugin = fp<{ cache: ResponseCache }>(
    async (app, { cache }) => {
      // Again for requests that did not come through the server factory (app.inject).
      const marker = entries[0]?.[0];
      app.addHook('onRequest', (_req, reply, done) => {
        if (marker && !reply.raw.hasHeader(marker)) setStatic(reply.raw);
        done();
      });
      fastPath.answer = cache.answerRaw;
      app.addHook('preClose', async () => {
        closing = true;
      });
      app.addHook('onClose', async () => cache.close());
      // A write answers only after its change notifications reached this process's cache, so the writer's
      // next read (and everyone else's on this process) is never served from before the change.
      app.addHook('onSend', (req, _reply, payload, done) => {
        if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || isCachedRead(req))
          return done(null, payload);
        cache.sync().then(() => done(null, payload), done);
      });
    },
    { name: 'cached-reads' },
  );

  return { serverFactory, plugin };
}

/** The headers a connect-style middleware sets when every request gets the same ones (helmet's do). */
function staticHeaders(
  middleware: (req: never, res: never, next: (err?: unknown) => void) => void,
  extra: Record<string, string> = {},
): Record<string, string> {
  const headers: Record<string, string> = { ...extra };
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  middleware({ headers: {}, method: 'GET', url: '/' } as never, res as never, (err) => {
    if (err) throw err;
  });
  return headers;
}
