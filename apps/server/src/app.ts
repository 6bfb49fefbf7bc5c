import http from 'node:http';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import helmet from 'helmet';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { createMailOutbox, type MailOutbox } from './lib/mail-outbox.ts';
import { frameworkErrorAnswer, registerApiNotFound, registerErrorHandling } from './lib/error-handler.ts';
import { useDutchValidationMessages } from './lib/dutch-validation.ts';
import { createResponseCache, isCachedRead, type ResponseCache } from './lib/response-cache.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { companyRoutes } from './modules/companies/routes.ts';
import { contactRoutes } from './modules/contact/routes.ts';
import { memorialRoutes } from './modules/memorials/routes.ts';
import { memberRoutes } from './modules/members/routes.ts';
import { guestRoutes } from './modules/guests/routes.ts';
import { guestTokenVerifier } from './modules/guests/tokens.ts';
import { inviteRoutes } from './modules/invites/routes.ts';
import { redactingRequestSerializer } from './modules/invites/log-redaction.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { mediaRoutes } from './modules/media/routes.ts';
import { memoryRoutes } from './modules/memories/routes.ts';
import { candleRoutes } from './modules/candles/routes.ts';
import { sitePlugin } from './modules/site/plugin.ts';
import { authPlugin, userTokenVerifier } from './lib/auth.ts';
import { loadSigningKeys, type SigningKeys } from './identity/keys.ts';
import { identityPlugin } from './identity/plugin.ts';

/** What every module receives; passed in explicitly (rule 4). */
export interface Deps {
  config: Config;
  db: Db;
  /** Mail is written in the transaction of the change that causes it and sent by a background job. */
  outbox: MailOutbox;
  /** The embedded provider's keys; undefined when an external provider (OIDC_AUTHORITY) is used. */
  signingKeys?: SigningKeys;
  /** Shared reads of public memorials (docs/performance.md); every database change invalidates it. */
  responseCache: ResponseCache;
}

export type App = FastifyInstance;

export interface BuildOptions {
  config: Config;
  db: Db;
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** Sees every route as it is added (tests check that the authorization matrix covers them all). */
  onRoute?: (route: RouteOptions) => void;
}

/** Builds the whole application as one Fastify instance. Never listens (server.ts does). */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, db } = opts;
  useDutchValidationMessages();
  // Cached shared reads are answered before the framework (see the response cache); set once it exists.
  const fastPath: { answer?: ResponseCache['answerRaw'] } = {};
  const app = Fastify({
    logger: opts.logger ?? {
      level: config.LOG_LEVEL,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'body.accessCode',
          'body.password',
          'body.token',
        ],
        remove: true,
      },
      serializers: { req: redactingRequestSerializer },
    },
    bodyLimit: config.BODY_LIMIT_BYTES,
    frameworkErrors: frameworkErrorAnswer,
    trustProxy: config.TRUST_PROXY,
    genReqId: () => crypto.randomUUID(),
    serverFactory: (handler, options) => {
      // What Fastify's own factory does for HTTP/1, plus the response cache's answer for a cached read.
      const server = http.createServer(options.http ?? {}, (req, res) => {
        if (!fastPath.answer?.(req, res)) handler(req, res);
      });
      server.keepAliveTimeout = Number(options.keepAliveTimeout);
      server.requestTimeout = Number(options.requestTimeout);
      server.setTimeout(Number(options.connectionTimeout));
      if (Number(options.maxRequestsPerSocket) > 0)
        server.maxRequestsPerSocket = Number(options.maxRequestsPerSocket);
      return server;
    },
  }).withTypeProvider<ZodTypeProvider>();

  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const mailer =
    opts.mailer ??
    createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: path.join(config.DATA_DIR, 'outbox'),
      log: app.log,
    });
  const outbox = createMailOutbox({
    db,
    mailer,
    log: app.log.child({ module: 'mail' }),
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
  });
  app.addHook('onReady', async () => outbox.start());
  app.addHook('onClose', async () => {
    await outbox.stop();
    mailer.close();
  });

  const signingKeys = config.embeddedIdentity ? await loadSigningKeys(db) : undefined;
  const authorityOrigin = new URL(config.OIDC_AUTHORITY).origin;
  const apiOrigin = new URL(config.API_URL).origin;
  // Security headers (helmet), computed once: @fastify/helmet rebuilds helmet's middleware on every
  // request, which cost about a tenth of a cached memorial read (docs/performance.md).
  const securityHeaders = staticHeaders(
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
  );
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(securityHeaders);
    done();
  });
  const responseCache = await createResponseCache({
    db,
    log: app.log,
    maxBytes: config.RESPONSE_CACHE_MB * 1024 * 1024,
    headers: securityHeaders,
  });
  fastPath.answer = responseCache.answerRaw;
  app.addHook('onClose', async () => responseCache.close());
  // A write answers only after its change notifications reached this process's cache, so the writer's
  // next read (and everyone else's on this process) is never served from before the change.
  app.addHook('onSend', (req, _reply, payload, done) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || isCachedRead(req))
      return done(null, payload);
    responseCache.sync().then(() => done(null, payload), done);
  });
  const deps: Deps = { config, db, outbox, signingKeys, responseCache };

  registerErrorHandling(app);

  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(rateLimit, {
    global: true,
    max: config.RATE_LIMIT_MAX,
    timeWindow: '1 minute',
    // Pages and static assets are not limited (one page load is ~40 files); the API and the identity
    // provider are.
    allowList: (req) =>
      req.url === '/healthz' ||
      ((req.method === 'GET' || req.method === 'HEAD') &&
        !req.url.startsWith('/core') &&
        !req.url.startsWith('/realms')),
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `Te veel verzoeken. Probeer het over ${Math.ceil(ctx.ttl / 1000)} seconden opnieuw.`,
    }),
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Aandenken API', version: '1.0.0', description: 'De product-API van Aandenken.' },
      servers: [{ url: config.API_URL }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/core/docs', staticCSP: true });

  await app.register(authPlugin, {
    verifiers: [
      userTokenVerifier({ config, db, localJwks: signingKeys?.publicJwks, log: app.log }),
      guestTokenVerifier({ db, config }),
    ],
  });

  await app.register(healthRoutes(deps));
  await app.register(
    async (core) => {
      registerApiNotFound(core);
      core.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await core.register(companyRoutes(deps));
      await core.register(contactRoutes(deps));
      await core.register(memorialRoutes(deps));
      await core.register(memberRoutes(deps));
      await core.register(guestRoutes(deps));
      await core.register(inviteRoutes(deps));
      await core.register(auditRoutes(deps));
      await core.register(mediaRoutes(deps));
      await core.register(memoryRoutes(deps));
      await core.register(candleRoutes(deps));
    },
    { prefix: '/core' },
  );

  await app.register(identityPlugin(deps));
  await app.register(sitePlugin(deps));
  return app;
}

/** The headers a connect-style middleware sets when every request gets the same ones (helmet's do). */
function staticHeaders(
  middleware: (req: never, res: never, next: (err?: unknown) => void) => void,
): Record<string, string> {
  const headers: Record<string, string> = {};
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
