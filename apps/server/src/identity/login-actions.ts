import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type Provider from 'oidc-provider';
import type { Config } from '../config.ts';
import type { AccountService } from './account-service.ts';
import type { formLimit as formLimitOf } from './form-limit.ts';
import { safeEqual, type Body, type IdentityScreens } from './screens.ts';
import { messagePage, resetPasswordPage, verifyEmailPage } from './views.ts';

/** The links sent by mail: resetting a password, confirming an e-mail address. */
export function loginActionRoutes(
  scope: FastifyInstance,
  {
    config,
    provider,
    keys,
    accounts,
    formLimit,
    screens: { base, html, pageOf },
  }: {
    config: Config;
    provider: Provider;
    keys: string[];
    accounts: AccountService;
    formLimit: ReturnType<typeof formLimitOf>;
    screens: IdentityScreens;
  },
) {
  const resetCsrf = (token: string) =>
    createHmac('sha256', keys[0]!).update(`reset:${token}`).digest('base64url');
  const verifyCsrf = (token: string) =>
    createHmac('sha256', keys[0]!).update(`verify:${token}`).digest('base64url');
  /** Where the holder signs in next: the sign-in they started, if it still lives, else from the site. */
  const signInLink = async (interactionUid: string | null) =>
    interactionUid && (await provider.Interaction.find(interactionUid))
      ? { href: `${base}/interaction/${interactionUid}?scherm=gewijzigd`, label: 'Verder met inloggen' }
      : { href: `${config.PUBLIC_URL}/mijn-paginas`, label: 'Inloggen' };
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
    { config: { logSecrets: { query: ['token'] } } },
    async (req, reply) => {
      // A token given twice (?token=a&token=b) arrives as a list: that is no link of ours.
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      if (!token || !(await accounts.resetTokenUsable(token))) return linkExpired(reply);
      return html(reply, resetPasswordPage({ ...pageOf(req), token, csrf: resetCsrf(token) }));
    },
  );

  scope.post<{ Body: Body }>(
    `${base}/login-actions/reset-password`,
    { config: formLimit },
    async (req, reply) => {
      const token = typeof req.body?.token === 'string' ? req.body.token : '';
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
      return html(
        reply,
        messagePage(pageOf(req), {
          title: 'Je wachtwoord is gewijzigd',
          text: 'Je kunt nu inloggen met je nieuwe wachtwoord.',
          link: await signInLink(result.interactionUid),
        }),
      );
    },
  );

  const verified = (reply: FastifyReply, text: string, link: { href: string; label: string }) =>
    html(
      reply,
      messagePage(pageOf(reply.request), { title: 'Je e-mailadres is bevestigd', text, link, tone: 'info' }),
    );
  const verifyExpired = (reply: FastifyReply) =>
    html(
      reply,
      messagePage(pageOf(reply.request), {
        title: 'Deze link werkt niet meer',
        text: 'Deze link is verlopen of al gebruikt. Is je e-mailadres al bevestigd? Dan hoef je niets te doen.',
        link: { href: `${config.PUBLIC_URL}/`, label: 'Naar Aandenken' },
        tone: 'error',
      }),
      400,
    );

  // Opening the link changes nothing while a password is needed (the form's post does), so a mail
  // scanner that fetches it uses nothing up.
  scope.get<{ Querystring: { token?: string } }>(
    `${base}/login-actions/verify-email`,
    { config: { logSecrets: { query: ['token'] } } },
    async (req, reply) => {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      if (!token) return verifyExpired(reply);
      const result = await accounts.verifyEmail(token);
      if (result.ok) {
        return verified(reply, 'Bedankt. Je e-mailadres is bevestigd. Log opnieuw in om verder te gaan.', {
          href: `${config.PUBLIC_URL}/`,
          label: 'Naar Aandenken',
        });
      }
      if (!result.needsPassword) return verifyExpired(reply);
      return html(reply, verifyEmailPage({ ...pageOf(req), token, csrf: verifyCsrf(token) }));
    },
  );

  scope.post<{ Body: Body }>(
    `${base}/login-actions/verify-email`,
    { config: formLimit },
    async (req, reply) => {
      const token = typeof req.body?.token === 'string' ? req.body.token : '';
      if (!token || typeof req.body?.csrf !== 'string' || !safeEqual(req.body.csrf, verifyCsrf(token))) {
        return verifyExpired(reply);
      }
      const result = await accounts.verifyEmail(token, req.body);
      if (!result.ok) {
        if (!result.needsPassword) return verifyExpired(reply);
        return html(
          reply,
          verifyEmailPage({ ...pageOf(req), token, csrf: verifyCsrf(token), fields: result.fields ?? {} }),
          400,
        );
      }
      // (Without a new password when the address was proven meanwhile, by a password reset.)
      return verified(
        reply,
        result.passwordSet
          ? 'Bedankt. Je e-mailadres is bevestigd en je wachtwoord is opgeslagen. Log in met dit wachtwoord om verder te gaan.'
          : 'Bedankt. Je e-mailadres is bevestigd. Log opnieuw in om verder te gaan.',
        await signInLink(result.interactionUid),
      );
    },
  );
}
