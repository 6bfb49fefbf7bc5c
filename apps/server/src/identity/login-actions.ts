import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Config } from '../config.ts';
import type { AccountService } from './account-service.ts';
import type { formLimit as formLimitOf } from './form-limit.ts';
import { safeEqual, type Body, type IdentityScreens } from './screens.ts';
import { continueUrl, safeReturnPath } from './return-path.ts';
import { messagePage, resetPasswordPage, verifyEmailPage, verifyNewPasswordPage } from './views.ts';

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

  /** The account signed in to the provider in this browser, if any (its session cookie). */
  const sessionAccountOf = async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      const ctx = { req: req.raw, res: reply.raw } as unknown as Parameters<typeof provider.Session.get>[0];
      return (await provider.Session.get(ctx)).accountId;
    } catch {
      return undefined;
    }
  };
  const verified = (reply: FastifyReply, result: { passwordSet: boolean }, returnPath: string | undefined) =>
    html(
      reply,
      messagePage(pageOf(reply.request), {
        title: 'Je e-mailadres is bevestigd',
        text: result.passwordSet
          ? 'Bedankt. Je e-mailadres is bevestigd en je wachtwoord is opgeslagen. Op je andere apparaten log je opnieuw in.'
          : 'Bedankt. Je e-mailadres is bevestigd.',
        link: {
          href: continueUrl(config.PUBLIC_URL, returnPath),
          label: returnPath ? 'Verder waar je was' : 'Naar Mijn Pagina’s',
        },
        tone: 'info',
      }),
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

  // One click in the browser that is signed in to the account. Elsewhere opening the link changes
  // nothing (a mail scanner that fetches it uses nothing up): the form asks who is confirming.
  scope.get<{ Querystring: { token?: string; terug?: string; nieuw?: string } }>(
    `${base}/login-actions/verify-email`,
    { config: { logSecrets: { query: ['token', 'terug'] } } },
    async (req, reply) => {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      if (!token) return verifyExpired(reply);
      const returnPath = safeReturnPath(req.query.terug);
      const result = await accounts.verifyEmail(token, {
        sessionAccountId: await sessionAccountOf(req, reply),
      });
      if (result.ok) return verified(reply, result, returnPath);
      if (!result.needsProof) return verifyExpired(reply);
      const v = { ...pageOf(req), token, csrf: verifyCsrf(token), returnPath };
      if (req.query.nieuw === '1') return html(reply, verifyNewPasswordPage(v));
      const holder = await accounts.verifyHolder(token);
      if (!holder) return verifyExpired(reply);
      return html(reply, verifyEmailPage({ ...v, email: holder.email }));
    },
  );

  scope.post<{ Body: Body }>(
    `${base}/login-actions/verify-email`,
    { config: formLimit },
    async (req, reply) => {
      const body = req.body ?? {};
      const token = typeof body.token === 'string' ? body.token : '';
      if (!token || typeof body.csrf !== 'string' || !safeEqual(body.csrf, verifyCsrf(token))) {
        return verifyExpired(reply);
      }
      const returnPath = safeReturnPath(body.terug);
      const withPassword = body.stap === 'wachtwoord';
      const result = await accounts.verifyEmail(
        token,
        withPassword ? { password: body.password ?? '' } : { newPassword: body },
      );
      if (result.ok) return verified(reply, result, returnPath);
      if (!result.needsProof) return verifyExpired(reply);
      const v = {
        ...pageOf(req),
        token,
        csrf: verifyCsrf(token),
        returnPath,
        fields: result.fields ?? {},
        error: result.error,
      };
      if (!withPassword) return html(reply, verifyNewPasswordPage(v), 400);
      const holder = await accounts.verifyHolder(token);
      if (!holder) return verifyExpired(reply);
      return html(reply, verifyEmailPage({ ...v, email: holder.email }), result.status ?? 400);
    },
  );
}
