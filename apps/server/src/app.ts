import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
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
import { createDeps, type Deps } from './lib/deps.ts';
import type { Mailer } from './lib/mailer.ts';
import { cachedReadsFrontDoor, securityHeaders } from './lib/response-cache-plugin.ts';
import {
  clientErrorAnswer,
  frameworkErrorAnswer,
  registerApiNotFound,
  registerErrorHandling,
} from './lib/error-handler.ts';
import { useDutchValidationMessages } from './lib/dutch-validation.ts';
import { registerInputGuards } from './lib/input-guard.ts';
import { registerIdempotency } from './lib/idempotency.ts';
import { registerLoadShedding } from './lib/load-shedding.ts';
import { sharedCounters } from './lib/shared-counters.ts';
import { loggerOptions, urlRedactor } from './lib/log-redaction.ts';
import { noStoreByDefault } from './lib/cache-control.ts';
import { registerBodyDeadlines } from './lib/body-deadline.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { companyRoutes } from './modules/companies/routes.ts';
import { partnerRoutes } from './modules/companies/partner-routes.ts';
import { companyProfileRoutes } from './modules/companies/profile-routes.ts';
import { contactRoutes } from './modules/contact/routes.ts';
import { memorialRoutes } from './modules/memorials/routes.ts';
import { memberRoutes } from './modules/members/routes.ts';
import { guestRoutes } from './modules/guests/routes.ts';
import { guestTokenVerifier } from './modules/guests/tokens.ts';
import { inviteRoutes } from './modules/invites/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { mediaRoutes } from './modules/media/routes.ts';
import { memoryRoutes } from './modules/memories/routes.ts';
import { visitorMemoryConfirmRoute, visitorMemoryRoutes } from './modules/memories/visitor-routes.ts';
import { candleRoutes } from './modules/candles/routes.ts';
import { guestbookRoutes } from './modules/guestbook/routes.ts';
import { funeralDayRoutes } from './modules/funeral-day/routes.ts';
import { candleMomentRoutes } from './modules/candles/moment-routes.ts';
import { futureMailRoutes } from './modules/future-mail/routes.ts';
import { exportRoutes } from './modules/exports/routes.ts';
import { planRoutes } from './modules/plans/routes.ts';
import { paymentRoutes } from './modules/payments/routes.ts';
import { sitePlugin } from './modules/site/plugin.ts';
import { pageSecrets } from './modules/site/page-secrets.ts';
import { authPlugin, requireCaller, seenUsers, userTokenVerifier } from './lib/auth.ts';
import { accountRoutes } from './modules/account/routes.ts';
import { memorialDeletionRoutes } from './modules/memorial-deletion/routes.ts';
import { takedownRoutes } from './modules/takedown/routes.ts';
import { successorRoutes } from './modules/successors/routes.ts';
import { keepsakeRoutes } from './modules/keepsakes/routes.ts';
import { printedBookRoutes } from './modules/printed-book/routes.ts';
import { presentationRoutes } from './modules/presentation/routes.ts';
import { forgetPerson as forgetSignIns } from './identity/account-service.ts';
import { identityPlugin } from './identity/plugin.ts';
import { identityRepository } from './identity/repository.ts';

/** How long a stopping process waits for the background job in progress before handing it back. */
const JOB_STOP_WAIT_MS = 5000;

export { databaseRoutines } from './database-routines.ts';

export type App = FastifyInstance & { deps: Deps };

export interface BuildOptions {
  config: Config;
  db: Db;
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** Where the app's own logger (loggerOptions) writes; standard output when absent. */
  logStream?: { write(line: string): void };
  /** Sees every route as it is added (tests check that the authorization matrix covers them all). */
  onRoute?: (route: RouteOptions) => void;
}

/** Builds the whole application as one Fastify instance. Never listens (server.ts does). */
export async function buildApp(opts: BuildOptions): Promise<App> {
  const { config, db } = opts;
  useDutchValidationMessages();
  const headers = securityHeaders(config);
  const frontDoor = cachedReadsFrontDoor(headers);
  // Secrets in addresses are masked in the log by route: the pages' table here, each API route's own
  // `config.logSecrets` as it is added.
  const redactor = urlRedactor(pageSecrets);
  const app = Fastify({
    logger: opts.logger ?? {
      ...loggerOptions(config, redactor),
      ...(opts.logStream ? { stream: opts.logStream } : {}),
    },
    bodyLimit: config.BODY_LIMIT_BYTES,
    // Node's own limits on slow clients (Fastify's default is no request timeout at all). Node checks
    // them every `connectionsCheckingInterval`, so that follows the shortest of them.
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    connectionTimeout: config.CONNECTION_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    http: {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(config.HEADERS_TIMEOUT_MS / 4))),
    },
    clientErrorHandler: clientErrorAnswer,
    frameworkErrors: frameworkErrorAnswer,
    trustProxy: config.TRUST_PROXY,
    genReqId: () => crypto.randomUUID(),
    // While closing, new requests get our own Dutch 503 from the front door (response-cache-plugin.ts).
    return503OnClosing: false,
    serverFactory: frontDoor.serverFactory,
  }).withTypeProvider<ZodTypeProvider>();

  app.addHook('onRoute', redactor.onRoute);
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const deps = await createDeps({ config, db, log: app.log, mailer: opts.mailer, headers });
  const { mailer, outbox, queue, signingKeys } = deps;
  app.addHook('onReady', async () => outbox.start());
  // Mail being handed over finishes before the SMTP transport closes.
  app.addHook('onClose', async () => {
    await outbox.stop();
    mailer.close();
  });
  await app.register(frontDoor.plugin, { cache: deps.responseCache });
  app.addHook('onReady', async () => queue.start());
  // The job in progress gets a few seconds to finish; the process must be gone within 10 (server.ts).
  app.addHook('onClose', async () => queue.stop({ waitMs: JOB_STOP_WAIT_MS }));
  // The routes end their streams first (preClose); then the listening connection closes.
  app.addHook('onClose', async () => deps.liveStreams.close());
  app.decorate('deps', deps);

  registerErrorHandling(app);
  registerBodyDeadlines(app, config);
  await registerLoadShedding(app, config);
  registerInputGuards(app);
  registerIdempotency(app, { db, queue });

  await app.register(compress, { global: true, threshold: 1024 });
  // With REDIS_URL every process counts against the same limits (lib/shared-counters.ts).
  const counters = config.REDIS_URL
    ? sharedCounters({ url: config.REDIS_URL, prefix: `${config.REDIS_KEY_PREFIX}rate:`, log: app.log })
    : undefined;
  if (counters) app.addHook('onClose', () => counters.close());
  await app.register(rateLimit, {
    global: true,
    ...(counters ? { store: counters.store } : {}),
    max: config.RATE_LIMIT_MAX,
    timeWindow: '1 minute',
    // A request whose connection closed before it was read has no address any more; it gets no answer either.
    keyGenerator: (req) => req.ip ?? 'closed',
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

  const seen = seenUsers();
  await app.register(authPlugin, {
    verifiers: [
      userTokenVerifier({ config, db, localJwks: signingKeys?.publicJwks, log: app.log, seen }),
      guestTokenVerifier({ db, config }),
    ],
  });

  await app.register(healthRoutes(deps));
  await app.register(
    async (core) => {
      registerApiNotFound(core);
      core.addHook('onRequest', requireCaller);
      core.addHook('onSend', noStoreByDefault);
      core.get('/openapi.json', { schema: { hide: true }, config: { allowAnonymous: true } }, async () =>
        app.swagger(),
      );
      await core.register(companyRoutes(deps));
      await core.register(partnerRoutes(deps));
      await core.register(companyProfileRoutes(deps));
      await core.register(contactRoutes(deps));
      await core.register(memorialRoutes(deps));
      await core.register(memberRoutes(deps));
      await core.register(guestRoutes(deps));
      await core.register(inviteRoutes(deps));
      await core.register(auditRoutes(deps));
      await core.register(mediaRoutes(deps));
      await core.register(memoryRoutes(deps));
      await core.register(visitorMemoryRoutes(deps));
      await core.register(candleRoutes(deps));
      await core.register(funeralDayRoutes(deps));
      await core.register(guestbookRoutes(deps));
      await core.register(candleMomentRoutes(deps));
      await core.register(futureMailRoutes(deps));
      await core.register(exportRoutes(deps));
      await core.register(memorialDeletionRoutes(deps));
      await core.register(takedownRoutes(deps));
      await core.register(successorRoutes(deps));
      await core.register(planRoutes(deps));
      await core.register(paymentRoutes(deps));
      await core.register(keepsakeRoutes(deps));
      await core.register(printedBookRoutes(deps));
      await core.register(presentationRoutes(deps));
      await core.register(
        accountRoutes(deps, {
          seen,
          endAllSessions: (tx, accountId) => identityRepository(tx).endAllSessions(accountId),
          forgetSignIns,
        }),
      );
    },
    { prefix: '/core' },
  );

  await app.register(identityPlugin(deps));
  await app.register(visitorMemoryConfirmRoute(deps));
  await app.register(sitePlugin(deps));
  return app as unknown as App;
}
