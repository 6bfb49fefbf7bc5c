import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { AccountService } from './account-service.ts';
import { googleMessages, type googleFederation } from './google.ts';
import type { Body, IdentityScreens, Interaction } from './screens.ts';
import { loginPage } from './views.ts';

/** Sign-in through Google: starting it from an interaction, and Google's way back (docs/identity.md). */
export function googleBroker({
  google,
  accounts,
  screens: { base, html, view, interaction, csrfOk, expiredPage, signIn },
  log,
}: {
  google: ReturnType<typeof googleFederation>;
  accounts: AccountService;
  screens: IdentityScreens;
  log: FastifyBaseLogger;
}) {
  const startGoogle = async (reply: FastifyReply, details: Interaction) => {
    if (!google.enabled) {
      // No dead end: the login screen itself, saying why, so the e-mail address is one step away.
      const email = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
      return html(
        reply,
        loginPage({ ...view(reply.request, details.uid), email, info: googleMessages.unavailable }),
      );
    }
    try {
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
      const url = await google.start(details.uid, hint);
      return reply.header('cache-control', 'no-store').redirect(url.href, 303);
    } catch (err) {
      log.error({ err }, 'google federation failed');
      return html(
        reply,
        loginPage({ ...view(reply.request, details.uid), error: googleMessages.failed }),
        502,
      );
    }
  };

  function routes(scope: FastifyInstance) {
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
      { config: { logSecrets: { query: ['state'] } } },
      async (req, reply) => {
        const details = await interaction(req, reply);
        const state = typeof req.query.state === 'string' ? req.query.state : '';
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
      { config: { logSecrets: { query: ['code', 'state', 'session_state'] } } },
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
  }

  return { startGoogle, routes };
}
