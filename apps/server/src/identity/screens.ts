import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Config } from '../config.ts';
import { themeFromCookie } from '../shared/theme.ts';
import { clientOriginWidener } from './csp.ts';
import { interactionCsrf, pageContext } from './provider.ts';
import { messagePage, type InteractionView, type PageContext } from './views.ts';

export type Body = Record<string, string | undefined>;
export type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

export function safeEqual(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What every identity screen and action answers with: the page, the interaction, the form's CSRF check. */
export function identityScreens({
  config,
  provider,
  keys,
  clientOrigins,
}: {
  config: Config;
  provider: Provider;
  keys: string[];
  clientOrigins: readonly string[];
}) {
  const page = pageContext(config);
  const base = page.base;
  /** The screens come in the theme the site keeps in its cookie (no script before the first paint). */
  const pageOf = (req: FastifyRequest): PageContext => ({
    ...page,
    theme: themeFromCookie(req.headers.cookie),
  });
  const widenForClients = clientOriginWidener(clientOrigins);

  const html = (reply: FastifyReply, body: string, status = 200) => {
    widenForClients(reply.raw);
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
    google: config.googleEnabled,
  });
  const csrfOk = (uid: string, body: Body | undefined) =>
    typeof body?.csrf === 'string' && safeEqual(body.csrf, interactionCsrf(keys, uid));

  const finish = async (req: FastifyRequest, reply: FastifyReply, result: Record<string, unknown>) => {
    reply.hijack();
    widenForClients(reply.raw);
    reply.raw.setHeader('cache-control', 'no-store');
    await provider.interactionFinished(req.raw, reply.raw, result, { mergeWithLastSubmission: false });
  };
  const signIn = (req: FastifyRequest, reply: FastifyReply, accountId: string, amr: string) =>
    finish(req, reply, { login: { accountId, amr: [amr] }, create: { accountId } });

  return { base, pageOf, widenForClients, html, expiredPage, interaction, view, csrfOk, finish, signIn };
}

export type IdentityScreens = ReturnType<typeof identityScreens>;
