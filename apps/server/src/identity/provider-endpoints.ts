import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { Config } from '../config.ts';
import { RETURN_PARAM } from './return-path.ts';
import type { SigningKeys } from '../lib/signing-keys.ts';
import type { AccountService } from './account-service.ts';
import { oidcRoutes } from './provider.ts';
import type { IdentityScreens } from './screens.ts';

/**
 * Query parameters of the provider's endpoints that are secrets or an e-mail address: codes, states,
 * nonces, token hints and tokens (never in a query of ours, but a client may put them there).
 */
const providerQuerySecrets = [
  'code',
  'state',
  'nonce',
  'id_token_hint',
  'id_token',
  'access_token',
  'refresh_token',
  'token',
  'code_verifier',
  'client_secret',
  'logout_hint',
  'login_hint',
  // The site path to return to: an invitation or handover link's code.
  RETURN_PARAM,
];

/** The provider's own endpoints (bodies are left unread for it to parse), and userinfo for the API's tokens. */
export const providerEndpoints =
  ({
    config,
    provider,
    signingKeys,
    accounts,
    clientOrigins,
    screens: { base, widenForClients },
  }: {
    config: Config;
    provider: Provider;
    signingKeys: SigningKeys;
    accounts: AccountService;
    clientOrigins: readonly string[];
    screens: IdentityScreens;
  }): FastifyPluginAsync =>
  async (scope) => {
    const issuer = new URL(config.OIDC_AUTHORITY);
    const callback = provider.callback();
    const passToProvider = (req: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = req.raw as IncomingMessage & { originalUrl?: string };
      raw.originalUrl = raw.url;
      // The provider routes by path: '/realms/aandenken?x' must reach it as '/?x', never as a bare '?x'.
      const rest = raw.url!.slice(base.length);
      raw.url = rest.startsWith('/') ? rest : `/${rest}`;
      // Generated URLs and secure cookies follow the issuer, however the request reached us.
      raw.headers['x-forwarded-host'] = issuer.host;
      raw.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
      widenForClients(reply.raw);
      void callback(raw, reply.raw);
    };

    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));

    const localKeys = createLocalJWKSet(signingKeys.publicJwks as Parameters<typeof createLocalJWKSet>[0]);
    // Userinfo also answers for the API's JWT access tokens (as Keycloak's does); others go to the provider.
    scope.route({
      method: ['GET', 'POST'],
      url: `${base}${oidcRoutes.userinfo}`,
      handler: async (req, reply) => {
        const match = /^Bearer\s+([\w-]+\.[\w-]+\.[\w-]+)$/i.exec(req.headers.authorization ?? '');
        if (!match) return passToProvider(req, reply);
        const origin = req.headers.origin;
        if (origin && clientOrigins.includes(origin)) {
          reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
        }
        reply.header('cache-control', 'no-store');
        try {
          const { payload } = await jwtVerify(match[1]!, localKeys, {
            issuer: config.OIDC_AUTHORITY,
            audience: config.OIDC_AUDIENCE,
            algorithms: ['RS256'],
          });
          const account = payload.sub ? await accounts.findById(payload.sub) : undefined;
          if (!account) throw new Error('unknown subject');
          // A token from a sign-in before the address was verified may be whoever registered it first's:
          // its sessions ended then (account-service.ts), and it gets no verified address here either.
          // `iat` has whole seconds, so a token from the second of the verification does not count.
          const verifiedAt = account.emailVerifiedAt && Math.floor(account.emailVerifiedAt.getTime() / 1000);
          if (verifiedAt && !(typeof payload.iat === 'number' && payload.iat > verifiedAt)) {
            throw new Error('issued before the address was verified');
          }
          return reply.send({
            sub: account.id,
            email: account.email,
            email_verified: account.emailVerified,
            name: account.name,
          });
        } catch {
          return reply
            .status(401)
            .header('www-authenticate', 'Bearer error="invalid_token"')
            .send({ error: 'invalid_token', error_description: 'invalid token provided' });
        }
      },
    });
    // The provider's own addresses carry OpenID Connect's codes, states, tokens and hints in the query.
    const logSecrets = { query: providerQuerySecrets };
    scope.all(`${base}/*`, { config: { logSecrets } }, passToProvider);
    scope.all(base, { config: { logSecrets } }, passToProvider);
  };
