import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { loginMessages } from './account-service.ts';
import type { Body, IdentityScreens } from './screens.ts';
import { forgotPage, loginPage, messagePage, registerPage } from './views.ts';

/** A form's per-address limit was reached: answered with the form's own screen (see formLimit). */
export class FormRateLimited extends Error {
  readonly statusCode = 429;
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super('too many identity form requests from this address');
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

// Per client address and per form (each route counts on its own), on top of the per-e-mail lockout:
// one password tried against many addresses is slowed here. Checked once the form is read, so the
// answer can be the screen itself, with what was typed.
export const formLimit = (config: Pick<Config, 'IDENTITY_RATE_LIMIT_MAX'>) => ({
  rateLimit: {
    max: config.IDENTITY_RATE_LIMIT_MAX,
    timeWindow: '10 minutes',
    hook: 'preHandler' as const,
    errorResponseBuilder: (_req: FastifyRequest, ctx: { ttl: number }) =>
      new FormRateLimited(Math.ceil(ctx.ttl / 1000)),
  },
});

/** The form's own screen, with what was typed, for a post over its limit. */
export const formLimitedScreen =
  ({ interaction, view, html, pageOf }: IdentityScreens) =>
  async (err: unknown, req: FastifyRequest, reply: FastifyReply) => {
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
  };
