import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { loginMessages, type AccountService } from './account-service.ts';
import type { formLimit as formLimitOf } from './form-limit.ts';
import { oidcRoutes } from './provider.ts';
import { RETURN_PARAM } from './return-path.ts';
import type { Body, IdentityScreens, Interaction } from './screens.ts';
import { forgotPage, loginPage, registerPage } from './views.ts';

const resourcesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'resources');

/** The interaction screens: login, registration, forgotten password, and their static resources. */
export function interactionRoutes(
  scope: FastifyInstance,
  {
    screens: { base, html, view, interaction, csrfOk, expiredPage, finish, signIn },
    accounts,
    formLimit,
    startGoogle,
  }: {
    screens: IdentityScreens;
    accounts: AccountService;
    formLimit: ReturnType<typeof formLimitOf>;
    startGoogle: (reply: FastifyReply, details: Interaction) => Promise<unknown>;
  },
) {
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

  scope.get<{ Params: { file: string } }>(`${base}/resources/:file`, async (req, reply) => {
    // Own names only: 'constructor' and the like are properties of every object, not files.
    if (!Object.hasOwn(resources, req.params.file)) return reply.callNotFound();
    const file = resources[req.params.file as keyof typeof resources];
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
        result.reason === 'locked' ? loginMessages.locked(result.retryAfterSeconds) : loginMessages.invalid;
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
      const result = await accounts.register(body, details.uid, details.params[RETURN_PARAM]);
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
}
