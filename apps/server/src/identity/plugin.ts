import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Deps } from '../lib/deps.ts';
import { getOrCreateSecret } from '../lib/secrets.ts';
import { sweepExpiredModels } from './adapter.ts';
import { accountService, type AccountService } from './account-service.ts';
import { formLimit, formLimitedScreen } from './form-limit.ts';
import { googleFederation } from './google.ts';
import { googleBroker } from './google-routes.ts';
import { interactionRoutes } from './interaction-routes.ts';
import { loginActionRoutes } from './login-actions.ts';
import { providerEndpoints } from './provider-endpoints.ts';
import { createProvider, webClientUris } from './provider.ts';
import { identityScreens } from './screens.ts';

const SWEEP_INTERVAL_MS = 15 * 60 * 1000;

/** COOKIE_KEYS (comma-separated, newest first), or a key generated once and kept in the database. */
async function cookieKeys({ config, db }: Pick<Deps, 'config' | 'db'>): Promise<string[]> {
  const fromEnv = (config.COOKIE_KEYS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (fromEnv.length) return fromEnv;
  return getOrCreateSecret<string[]>(db, 'oidc-cookie-keys', () => [randomBytes(32).toString('base64url')]);
}

/**
 * The embedded OpenID Connect provider at /realms/aandenken (docs/identity.md): oidc-provider mounted in
 * this Fastify process, plus our Dutch interaction screens (login, registration, password reset, Google).
 */
export const identityPlugin =
  (deps: Pick<Deps, 'config' | 'db' | 'outbox' | 'signingKeys'>): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const { config, db, outbox, signingKeys } = deps;
    if (!config.embeddedIdentity || !signingKeys) return;

    const keys = await cookieKeys(deps);
    const accounts: AccountService = accountService({ db, config, outbox });
    const provider = createProvider({ config, db, signingKeys, cookieKeys: keys, accounts });
    const federation = googleFederation({ config, repo: accounts.repository, accounts });
    const clientOrigins = webClientUris(config).origins;
    const screens = identityScreens({ config, provider, keys, clientOrigins });

    provider.on('server_error', (_ctx, err) => app.log.error({ err }, 'identity provider error'));

    const sweep = setInterval(() => {
      sweepExpiredModels(db)
        .then(() => accounts.repository.sweep())
        .catch((err: unknown) => app.log.warn({ err }, 'identity sweep failed'));
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));

    await app.register(
      providerEndpoints({ config, provider, signingKeys, accounts, clientOrigins, screens }),
    );

    // Our screens and actions.
    await app.register(async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 16 * 1024 },
        (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
      const limit = formLimit(config);
      scope.setErrorHandler(formLimitedScreen(screens));
      const google = googleBroker({ google: federation, accounts, screens, log: app.log });
      interactionRoutes(scope, { screens, accounts, formLimit: limit, startGoogle: google.startGoogle });
      google.routes(scope);
      loginActionRoutes(scope, { config, provider, keys, accounts, formLimit: limit, screens });
    });
  };
