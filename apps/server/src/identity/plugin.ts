import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { Deps } from '../app.ts';
import { getOrCreateSecret } from '../lib/secrets.ts';
import { sweepExpiredModels } from './adapter.ts';
import { accountService, loginMessages, type AccountService } from './account-service.ts';
import { googleFederation, googleMessages } from './google.ts';
import { createProvider, interactionCsrf, oidcRoutes, pageContext, webClientUris } from './provider.ts';
import {
  forgotPage,
  loginPage,
  messagePage,
  registerPage,
  resetPasswordPage,
  type InteractionView,
  type PageContext,
} from './views.ts';
import { themeFromCookie } from '../modules/site/theme.ts';

/** A form's per-address limit was reached: answered with the form's own screen (see formLimit). */
class FormRateLimited extends Error {
  readonly statusCode = 429;
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super('too many identity form requests from this address');
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const resourcesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'resources');
const SWEEP_INTERVAL_MS = 15 * 60 * 1000;

type Body = Record<string, string | undefined>;
type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

function safeEqual(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** COOKIE_KEYS (comma-separated, newest first), or a key generated once and kept in the database. */
async function cookieKeys({ config, db }: Deps): Promise<string[]> {
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
  (deps: Deps): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const { config, db, outbox, signingKeys } = deps;
    if (!config.embeddedIdentity || !signingKeys) return;

    const keys = await cookieKeys(deps);
    const accounts: AccountService = accountService({ db, config, outbox });
    const provider = createProvider({ config, db, signingKeys, cookieKeys: keys, accounts });
    const google = googleFederation({ config, repo: accounts.repository, accounts });
    const page = pageContext(config);
    const base = page.base;
    /** The screens come in the theme the site keeps in its cookie (no script before the first paint). */
    const pageOf = (req: FastifyRequest): PageContext => ({
      ...page,
      theme: themeFromCookie(req.headers.cookie),
    });
    const issuer = new URL(config.OIDC_AUTHORITY);
    const clientOrigins = webClientUris(config).origins;
    const callback = provider.callback();
    const resources = {
      'identity.css': {
        type: 'text/css; charset=utf-8',
        body: fs.readFileSync(path.join(resourcesDir, 'identity.css')),
      },
      'identity.js': {
        type: 'text/javascript; charset=utf-8',
        body: fs.readFileSync(path.join(resourcesDir, 'identity.js')),
      },
    };

    provider.on('server_error', (_ctx, err) => app.log.error({ err }, 'identity provider error'));

    const sweep = setInterval(() => {
      sweepExpiredModels(db)
        .then(() => accounts.repository.sweep())
        .catch((err: unknown) => app.log.warn({ err }, 'identity sweep failed'));
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));

    /** After a form post the browser may be redirected on to the client (another origin when APP_URL differs). */
    const widenFormAction = (res: ServerResponse) => {
      const csp = res.getHeader('content-security-policy');
      if (typeof csp !== 'string') return;
      res.setHeader(
        'content-security-policy',
        csp.replace(
          /form-action ([^;]*)/,
          (_m, list: string) =>
            `form-action ${[...new Set([...list.split(' '), ...clientOrigins])].join(' ')}`,
        ),
      );
    };

    const html = (reply: FastifyReply, body: string, status = 200) => {
      widenFormAction(reply.raw);
      return reply
        .status(status)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(body);
    };

    const expiredPage = (reply: FastifyReply) =>
      html(
        reply,
        messagePage(pageOf(reply.request), {
          title: 'Deze pagina is verlopen',
          text: 'Deze inlogpagina is verlopen of al gebruikt. Ga terug naar Aandenken en probeer het opnieuw.',
          link: { href: `${config.PUBLIC_URL}/`, label: 'Terug naar Aandenken' },
          tone: 'error',
        }),
        400,
      );

    const passToProvider = (req: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = req.raw as IncomingMessage & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = raw.url!.slice(base.length) || '/';
      // Generated URLs and secure cookies follow the issuer, however the request reached us.
      raw.headers['x-forwarded-host'] = issuer.host;
      raw.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
      widenFormAction(reply.raw);
      void callback(raw, reply.raw);
    };

    // The provider's own endpoints: bodies are left unread for it to parse.
    await app.register(async (scope) => {
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
      scope.all(`${base}/*`, passToProvider);
      scope.all(base, passToProvider);
    });

    // Our screens and actions.
    await app.register(async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 16 * 1024 },
        (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
      // Per client address and per form (each route counts on its own), on top of the per-e-mail lockout:
      // one password tried against many addresses is slowed here. Checked once the form is read, so the
      // answer can be the screen itself, with what was typed.
      const formLimit = {
        rateLimit: {
          max: config.IDENTITY_RATE_LIMIT_MAX,
          timeWindow: '10 minutes',
          hook: 'preHandler' as const,
          errorResponseBuilder: (_req: FastifyRequest, ctx: { ttl: number }) =>
            new FormRateLimited(Math.ceil(ctx.ttl / 1000)),
        },
      };
      scope.setErrorHandler(async (err, req, reply) => {
        if (!(err instanceof FormRateLimited)) throw err;
        const message = loginMessages.tooManyRequests(err.retryAfterSeconds);
        const body = (req.body ?? {}) as Body;
        const uid = (req.params as { uid?: string }).uid;
        const details = uid
          ? await interaction(req as FastifyRequest<{ Params: { uid: string } }>, reply)
          : undefined;
        const route = req.routeOptions.url ?? '';
        let screen: string;
        if (details && route.endsWith('/login')) {
          screen = loginPage({ ...view(req, details.uid), email: body.email, error: message });
        } else if (details && route.endsWith('/register')) {
          screen = registerPage({
            ...view(req, details.uid),
            values: { name: body.name, email: body.email },
            error: message,
          });
        } else if (details && route.endsWith('/forgot')) {
          screen = forgotPage({ ...view(req, details.uid), email: body.email, error: message });
        } else {
          screen = messagePage(pageOf(req), { title: 'Even geduld', text: message, tone: 'error' });
        }
        return html(reply, screen, 429);
      });

      scope.get<{ Params: { file: string } }>(`${base}/resources/:file`, async (req, reply) => {
        const file = resources[req.params.file as keyof typeof resources];
        if (!file) return reply.callNotFound();
        return reply.header('cache-control', 'public, max-age=3600').type(file.type).send(file.body);
      });

      // Keycloak's registrations endpoint: the authorization request, opening on the registration screen.
      scope.get(`${base}/protocol/openid-connect/registrations`, async (req, reply) => {
        const query = new URLSearchParams(req.url.split('?')[1] ?? '');
        query.set('prompt', 'create');
        return reply
          .header('cache-control', 'no-store')
          .redirect(`${base}${oidcRoutes.authorization}?${query}`, 303);
      });

      async function interaction(req: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) {
        try {
          const details = await provider.interactionDetails(req.raw, reply.raw);
          return details.uid === req.params.uid ? details : undefined;
        } catch {
          return undefined;
        }
      }
      const view = (req: FastifyRequest, uid: string): InteractionView => ({
        ...pageOf(req),
        uid,
        csrf: interactionCsrf(keys, uid),
      });
      const csrfOk = (uid: string, body: Body | undefined) =>
        typeof body?.csrf === 'string' && safeEqual(body.csrf, interactionCsrf(keys, uid));

      const finish = async (req: FastifyRequest, reply: FastifyReply, result: Record<string, unknown>) => {
        reply.hijack();
        widenFormAction(reply.raw);
        reply.raw.setHeader('cache-control', 'no-store');
        await provider.interactionFinished(req.raw, reply.raw, result, { mergeWithLastSubmission: false });
      };
      const signIn = (req: FastifyRequest, reply: FastifyReply, accountId: string, amr: string) =>
        finish(req, reply, { login: { accountId, amr: [amr] }, create: { accountId } });

      const startGoogle = async (reply: FastifyReply, details: Interaction) => {
        if (!google.enabled) {
          return html(
            reply,
            messagePage(pageOf(reply.request), {
              title: 'Inloggen met Google is niet beschikbaar',
              text: googleMessages.unavailable,
              link: {
                href: `${base}/interaction/${details.uid}?scherm=inloggen`,
                label: 'Inloggen met e-mailadres',
              },
            }),
          );
        }
        try {
          const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
          const url = await google.start(details.uid, hint);
          return reply.header('cache-control', 'no-store').redirect(url.href, 303);
        } catch (err) {
          app.log.error({ err }, 'google federation failed');
          return html(
            reply,
            loginPage({ ...view(reply.request, details.uid), error: googleMessages.failed }),
            502,
          );
        }
      };

      scope.get<{ Params: { uid: string }; Querystring: { scherm?: string } }>(
        `${base}/interaction/:uid`,
        async (req, reply) => {
          const details = await interaction(req, reply);
          if (!details) return expiredPage(reply);
          if (details.prompt.name === 'consent') return finish(req, reply, { consent: {} });
          const screen = req.query.scherm;
          if (!screen && details.params.kc_idp_hint === 'google') return startGoogle(reply, details);
          const email = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
          const register = screen === 'registreren' || (!screen && details.prompt.name === 'create');
          return html(
            reply,
            register
              ? registerPage({ ...view(req, details.uid), values: { email } })
              : loginPage({
                  ...view(req, details.uid),
                  email,
                  info:
                    screen === 'gewijzigd'
                      ? 'Je wachtwoord is gewijzigd. Log in met je nieuwe wachtwoord.'
                      : undefined,
                }),
          );
        },
      );

      scope.post<{ Params: { uid: string }; Body: Body }>(
        `${base}/interaction/:uid/login`,
        { config: formLimit },
        async (req, reply) => {
          const details = await interaction(req, reply);
          if (!details || !csrfOk(details.uid, req.body)) return expiredPage(reply);
          const email = req.body?.email ?? '';
          const result = await accounts.login(email, req.body?.password ?? '');
          if (result.ok) return signIn(req, reply, result.account.id, 'pwd');
          const error =
            result.reason === 'locked'
              ? loginMessages.locked(result.retryAfterSeconds)
              : loginMessages.invalid;
          return html(
            reply,
            loginPage({ ...view(req, details.uid), email, error }),
            result.reason === 'locked' ? 429 : 401,
          );
        },
      );

      scope.post<{ Params: { uid: string }; Body: Body }>(
        `${base}/interaction/:uid/register`,
        { config: formLimit },
        async (req, reply) => {
          const details = await interaction(req, reply);
          if (!details || !csrfOk(details.uid, req.body)) return expiredPage(reply);
          const body = req.body ?? {};
          const result = await accounts.register(body, details.uid);
          if (result.ok) return signIn(req, reply, result.account.id, 'pwd');
          return html(
            reply,
            registerPage({
              ...view(req, details.uid),
              values: { name: body.name, email: body.email },
              fields: result.fields,
            }),
            400,
          );
        },
      );

      scope.get<{ Params: { uid: string } }>(`${base}/interaction/:uid/forgot`, async (req, reply) => {
        const details = await interaction(req, reply);
        if (!details) return expiredPage(reply);
        const email = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
        return html(reply, forgotPage({ ...view(req, details.uid), email }));
      });

      scope.post<{ Params: { uid: string }; Body: Body }>(
        `${base}/interaction/:uid/forgot`,
        { config: formLimit },
        async (req, reply) => {
          const details = await interaction(req, reply);
          if (!details || !csrfOk(details.uid, req.body)) return expiredPage(reply);
          const email = req.body?.email ?? '';
          const result = await accounts.requestPasswordReset(email, details.uid);
          if (!result.ok)
            return html(
              reply,
              forgotPage({ ...view(req, details.uid), email, error: result.fields?.email }),
              400,
            );
          return html(reply, forgotPage({ ...view(req, details.uid), sent: true }));
        },
      );

      scope.post<{ Params: { uid: string }; Body: Body }>(
        `${base}/interaction/:uid/google`,
        async (req, reply) => {
          const details = await interaction(req, reply);
          if (!details || !csrfOk(details.uid, req.body)) return expiredPage(reply);
          return startGoogle(reply, details);
        },
      );

      scope.get<{ Params: { uid: string }; Querystring: { state?: string } }>(
        `${base}/interaction/:uid/google/done`,
        async (req, reply) => {
          const details = await interaction(req, reply);
          const state = req.query.state;
          if (!details || !state) return expiredPage(reply);
          const row = await accounts.repository.findFederationState(state);
          if (!row || !(await accounts.repository.consumeFederationState(state, details.uid)))
            return expiredPage(reply);
          if (row.accountId) return signIn(req, reply, row.accountId, 'google');
          return html(
            reply,
            loginPage({ ...view(req, details.uid), error: row.error ?? googleMessages.failed }),
            400,
          );
        },
      );

      // Google sends the browser here (a fixed redirect URI); the interaction continues under its own path,
      // where the browser's interaction cookie proves it is the same browser that started it.
      scope.get<{ Querystring: Record<string, string | undefined> }>(
        `${base}/broker/google/endpoint`,
        async (req, reply) => {
          const done = google.enabled ? await google.callback(req.query) : undefined;
          if (!done) return expiredPage(reply);
          return reply
            .header('cache-control', 'no-store')
            .redirect(
              `${base}/interaction/${done.interactionUid}/google/done?state=${encodeURIComponent(done.state)}`,
              303,
            );
        },
      );

      const resetCsrf = (token: string) =>
        createHmac('sha256', keys[0]!).update(`reset:${token}`).digest('base64url');
      const linkExpired = (reply: FastifyReply) =>
        html(
          reply,
          messagePage(pageOf(reply.request), {
            title: 'Deze link werkt niet meer',
            text: 'Deze link is verlopen of al gebruikt. Vraag op de inlogpagina een nieuwe link aan via ‘Wachtwoord vergeten?’.',
            link: { href: `${config.PUBLIC_URL}/`, label: 'Naar Aandenken' },
            tone: 'error',
          }),
          400,
        );

      scope.get<{ Querystring: { token?: string } }>(
        `${base}/login-actions/reset-password`,
        async (req, reply) => {
          const token = req.query.token ?? '';
          if (!token || !(await accounts.resetTokenUsable(token))) return linkExpired(reply);
          return html(reply, resetPasswordPage({ ...pageOf(req), token, csrf: resetCsrf(token) }));
        },
      );

      scope.post<{ Body: Body }>(
        `${base}/login-actions/reset-password`,
        { config: formLimit },
        async (req, reply) => {
          const token = req.body?.token ?? '';
          if (!token || typeof req.body?.csrf !== 'string' || !safeEqual(req.body.csrf, resetCsrf(token))) {
            return linkExpired(reply);
          }
          const result = await accounts.resetPassword(token, req.body);
          if (!result.ok) {
            if (result.expired) return linkExpired(reply);
            return html(
              reply,
              resetPasswordPage({ ...pageOf(req), token, csrf: resetCsrf(token), fields: result.fields }),
              400,
            );
          }
          const interactionAlive =
            result.interactionUid && (await provider.Interaction.find(result.interactionUid));
          return html(
            reply,
            messagePage(pageOf(req), {
              title: 'Je wachtwoord is gewijzigd',
              text: 'Je kunt nu inloggen met je nieuwe wachtwoord.',
              link: interactionAlive
                ? {
                    href: `${base}/interaction/${result.interactionUid}?scherm=gewijzigd`,
                    label: 'Verder met inloggen',
                  }
                : { href: `${config.PUBLIC_URL}/mijn-paginas`, label: 'Inloggen' },
            }),
          );
        },
      );

      scope.get<{ Querystring: { token?: string } }>(
        `${base}/login-actions/verify-email`,
        async (req, reply) => {
          const ok = !!req.query.token && (await accounts.verifyEmail(req.query.token));
          return html(
            reply,
            messagePage(pageOf(req), {
              title: ok ? 'Je e-mailadres is bevestigd' : 'Deze link werkt niet meer',
              text: ok
                ? 'Bedankt. Je e-mailadres is bevestigd.'
                : 'Deze link is verlopen of al gebruikt. Is je e-mailadres al bevestigd? Dan hoef je niets te doen.',
              link: { href: `${config.PUBLIC_URL}/`, label: 'Naar Aandenken' },
              tone: ok ? 'info' : 'error',
            }),
            ok ? 200 : 400,
          );
        },
      );
    });
  };
