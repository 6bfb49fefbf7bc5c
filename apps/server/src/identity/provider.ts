import { createHmac } from 'node:crypto';
import Provider, {
  type Configuration,
  type KoaContextWithOIDC,
  errors,
  interactionPolicy,
} from 'oidc-provider';
import { OIDC_CLIENT_ID } from '@aandenken/contract';
import type { Config } from '../config.ts';
import { RETURN_PARAM } from './return-path.ts';
import type { Queryable } from '../db/client.ts';
import type { SigningKeys } from '../lib/signing-keys.ts';
import { createAdapterFactory, revokeGrant } from './adapter.ts';
import type { AccountService } from './account-service.ts';
import { errorPage, logoutPage, messagePage, type PageContext } from './views.ts';
import { themeFromCookie } from '../shared/theme.ts';

/** Keycloak's endpoint paths, so a client configured for a Keycloak realm works unchanged. */
export const oidcRoutes = {
  authorization: '/protocol/openid-connect/auth',
  token: '/protocol/openid-connect/token',
  userinfo: '/protocol/openid-connect/userinfo',
  jwks: '/protocol/openid-connect/certs',
  end_session: '/protocol/openid-connect/logout',
  revocation: '/protocol/openid-connect/revoke',
  introspection: '/protocol/openid-connect/token/introspect',
} as const;

/** The resource indicator of the product API; its tokens carry `aud` = OIDC_AUDIENCE. */
export const apiResource = (config: Config) => `${config.API_URL}/core`;

const SCOPES = 'openid profile email';

export function pageContext(config: Config): PageContext {
  return { base: new URL(config.OIDC_AUTHORITY).pathname.replace(/\/+$/, ''), siteUrl: config.PUBLIC_URL };
}

/** Redirect URIs of the web client: the site and, when it lives elsewhere, the app host. */
export function webClientUris(config: Config) {
  const origins = [...new Set([config.PUBLIC_URL, config.APP_URL])];
  return {
    redirect_uris: origins.flatMap((o) => [`${o}/auth/callback`, `${o}/silent-callback.html`]),
    post_logout_redirect_uris: origins.map((o) => `${o}/auth/logout-callback`),
    origins: origins.map((o) => new URL(o).origin),
  };
}

/**
 * A `create` prompt (OpenID Connect "Initiating User Registration"): requested by the registrations
 * endpoint, it opens the registration screen instead of the login screen.
 */
function createPrompt() {
  const { Prompt, Check } = interactionPolicy;
  return new Prompt(
    { name: 'create', requestable: true },
    new Check('create_requested', 'End-User registration was requested', (ctx) => {
      const { oidc } = ctx;
      if (oidc.prompts.has('create') && !(oidc.result as { create?: unknown } | undefined)?.create) {
        return Check.REQUEST_PROMPT;
      }
      return Check.NO_NEED_TO_PROMPT;
    }),
  );
}

export interface ProviderDeps {
  config: Config;
  db: Queryable;
  signingKeys: SigningKeys;
  cookieKeys: string[];
  accounts: AccountService;
}

export function createProvider({ config, db, signingKeys, cookieKeys, accounts }: ProviderDeps): Provider {
  const resource = apiResource(config);
  const uris = webClientUris(config);
  const page = pageContext(config);
  const themed = (ctx: KoaContextWithOIDC): PageContext => ({
    ...page,
    theme: themeFromCookie(ctx.get('cookie')),
  });
  const policy = interactionPolicy.base();
  policy.add(createPrompt(), 0);

  const configuration: Configuration = {
    adapter: createAdapterFactory(db),
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_name: 'Aandenken',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: uris.redirect_uris,
        post_logout_redirect_uris: uris.post_logout_redirect_uris,
      },
    ],
    jwks: { keys: signingKeys.privateJwks as NonNullable<Configuration['jwks']>['keys'] },
    cookies: {
      keys: cookieKeys,
      names: {
        session: 'aandenken_session',
        interaction: 'aandenken_interaction',
        resume: 'aandenken_resume',
      },
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    routes: oidcRoutes,
    responseTypes: ['code'],
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // ID tokens carry name and e-mail (as Keycloak's do): the web client shows them without a userinfo call.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    features: {
      devInteractions: { enabled: false },
      // A client may revoke only its own tokens.
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      claimsParameter: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          // A valid id_token_hint means our own client asked; sign out without a question (as Keycloak does).
          const auto = !!(ctx.oidc.entities as { IdTokenHint?: unknown }).IdTokenHint;
          ctx.set('cache-control', 'no-store');
          ctx.body = logoutPage({ ...themed(ctx), form, auto });
        },
        async postLogoutSuccessSource(ctx) {
          ctx.set('cache-control', 'no-store');
          ctx.body = messagePage(themed(ctx), {
            title: 'Uitgelogd',
            text: 'Je bent uitgelogd.',
            link: { href: `${config.PUBLIC_URL}/`, label: 'Naar Aandenken' },
          });
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        async getResourceServerInfo(_ctx, indicator) {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: SCOPES,
            audience: config.OIDC_AUDIENCE,
            accessTokenTTL: config.OIDC_ACCESS_TOKEN_TTL,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    extraParams: {
      kc_idp_hint(_ctx, value) {
        if (value !== undefined && value !== 'google') {
          throw new errors.InvalidRequest('kc_idp_hint must be google');
        }
      },
      // Where the site returns the person to (the mailed confirmation link carries it along); anything but
      // a path on the site is ignored where it is used (`safeReturnPath`).
      [RETURN_PARAM]: null,
    },
    async findAccount(_ctx, sub) {
      const account = await accounts.findById(sub);
      if (!account) return undefined;
      return {
        accountId: account.id,
        async claims() {
          return {
            sub: account.id,
            email: account.email,
            email_verified: account.emailVerified,
            name: account.name,
          };
        },
      };
    },
    // The API's tokens carry e-mail and name, so it needs no userinfo call (same claims as test/helpers.ts).
    async extraTokenClaims(_ctx, token) {
      if (!('accountId' in token) || !token.accountId) return undefined;
      const account = await accounts.findById(token.accountId);
      return account ? { email: account.email, name: account.name } : undefined;
    },
    // First-party client: no consent screen; the grant covers the OIDC scopes and the API.
    async loadExistingGrant(ctx) {
      const { oidc } = ctx;
      if (!oidc.client || oidc.client.clientId !== OIDC_CLIENT_ID || !oidc.session?.accountId)
        return undefined;
      const grantId =
        (oidc.result as { consent?: { grantId?: string } } | undefined)?.consent?.grantId ??
        oidc.session.grantIdFor(oidc.client.clientId);
      let grant = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
      if (grant && grant.accountId !== oidc.session.accountId) grant = undefined;
      grant ??= new oidc.provider.Grant({
        clientId: oidc.client.clientId,
        accountId: oidc.session.accountId,
      });
      grant.addOIDCScope(SCOPES);
      grant.addOIDCClaims(['sub', 'email', 'email_verified', 'name']);
      grant.addResourceScope(resource, SCOPES);
      await grant.save();
      return grant;
    },
    // Refresh tokens without offline_access, bound to the session (as Keycloak's): logging out ends them.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: () => true,
    rotateRefreshToken: true,
    ttl: {
      AccessToken: config.OIDC_ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Session: config.OIDC_SESSION_TTL,
      Grant: config.OIDC_SESSION_TTL,
      RefreshToken(ctx) {
        // Rotation never extends a refresh token beyond its session's lifetime.
        const rotated = (
          ctx?.oidc?.entities as { RotatedRefreshToken?: { remainingTTL: number } } | undefined
        )?.RotatedRefreshToken;
        return rotated ? rotated.remainingTTL : config.OIDC_SESSION_TTL;
      },
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => `${page.base}/interaction/${interaction.uid}`,
    },
    clientBasedCORS: (_ctx, origin) => uris.origins.includes(origin),
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.set('cache-control', 'no-store');
      ctx.body = errorPage(themed(ctx), { error: out.error, description: out.error_description });
    },
  };

  const provider = new Provider(config.OIDC_AUTHORITY, configuration);
  // The Fastify mount passes the issuer's protocol and host on (see plugin.ts).
  provider.proxy = true;
  provider.use(spendCodeOnFailedExchange(db));
  return provider;
}

/**
 * An authorization code has one try. oidc-provider consumes a code only when its exchange succeeds, so a
 * wrong PKCE verifier (or redirect_uri) left the code usable for a next guess. Any refused exchange of a
 * code this client holds ends the code and revokes its grant (as reusing a code does).
 */
function spendCodeOnFailedExchange(db: Queryable) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    const oidc = ctx.oidc as KoaContextWithOIDC['oidc'] | undefined;
    if (oidc?.route !== 'token' || ctx.status !== 400) return;
    if ((ctx.body as { error?: unknown } | undefined)?.error !== 'invalid_grant') return;
    const params = oidc.params as { grant_type?: unknown; code?: unknown } | undefined;
    if (params?.grant_type !== 'authorization_code' || typeof params.code !== 'string') return;
    const code = await oidc.provider.AuthorizationCode.find(params.code, { ignoreExpiration: true }).catch(
      () => undefined,
    );
    if (!code || code.clientId !== oidc.client?.clientId) return;
    await code.destroy();
    if (code.grantId) await revokeGrant(db, code.grantId);
  };
}

/** A token for the interaction forms: bound to the interaction, unforgeable without the cookie keys. */
export function interactionCsrf(cookieKeys: string[], uid: string): string {
  return createHmac('sha256', cookieKeys[0]!).update(`csrf:${uid}`).digest('base64url');
}

export type { KoaContextWithOIDC };
