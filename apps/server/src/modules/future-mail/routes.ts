import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  futureMessageInputSchema,
  futureMessageListSchema,
  futureMessageParamsSchema,
  futureMessageSchema,
  idParamSchema,
  mailTokenQuerySchema,
  mailTokenSchema,
  SUBSCRIBE_RATE_LIMIT,
  subscriptionConfirmedSchema,
  subscriptionCreateSchema,
  subscriptionListSchema,
  subscriptionParamsSchema,
  subscriptionPendingSchema,
  subscriptionRemovedSchema,
  unsubscribedSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { futureMailService, registerFutureMailJobs } from './service.ts';

const tags = ['future-mail'];
const optional: Record<string, string[]>[] = [{ bearer: [] }, {}];
const bearer: Record<string, string[]>[] = [{ bearer: [] }];
const anonymous: Record<string, string[]>[] = [{}];

/** Future messages, anniversary reminders and their delivery (docs/funeral-day.md, docs/decisions/014-scheduled-mail-on-the-job-queue.md). */
export const futureMailRoutes =
  (deps: Pick<Deps, 'db' | 'clock' | 'config' | 'outbox' | 'queue'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = futureMailService(deps);
    registerFutureMailJobs(deps, fastify.log);

    // Mail programs post the one-click unsubscribe as a form, `List-Unsubscribe=One-Click` (RFC 8058).
    fastify.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.get(
      apiPaths.futureMessages.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Toekomstige berichten van een gedenkpagina (eigenaar, redacteur)',
          description:
            'Met de limiet van het abonnement (Basis: één) en het aantal adressen dat het nu zou krijgen.',
          params: idParamSchema,
          response: { 200: futureMessageListSchema, ...errorResponses },
        },
      },
      async (req) => service.list(await req.caller(), req.params.id),
    );

    app.post(
      apiPaths.futureMessages.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Toekomstig bericht plannen (eigenaar, redacteur)',
          description:
            'Datum en tijd in Europe/Amsterdam, in de toekomst. 403 PLAN_LIMIT als het abonnement geen bericht meer toelaat.',
          params: idParamSchema,
          body: futureMessageInputSchema,
          response: { 201: futureMessageSchema, ...errorResponses },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await service.create(await req.caller(), req.params.id, req.body)),
    );

    app.put(
      apiPaths.futureMessage.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Toekomstig bericht wijzigen (eigenaar, redacteur)',
          description: 'Alleen zolang het nog niet verstuurd of geannuleerd is (anders 409).',
          params: futureMessageParamsSchema,
          body: futureMessageInputSchema,
          response: { 200: futureMessageSchema, ...errorResponses },
        },
      },
      async (req) => service.update(await req.caller(), req.params.id, req.params.messageId, req.body),
    );

    app.delete(
      apiPaths.futureMessage.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Toekomstig bericht annuleren (eigenaar, redacteur)',
          description: 'Het bericht blijft zichtbaar als geannuleerd en gaat nooit meer weg.',
          params: futureMessageParamsSchema,
          response: { 200: futureMessageSchema, ...errorResponses },
        },
      },
      async (req) => service.cancel(await req.caller(), req.params.id, req.params.messageId),
    );

    app.post(
      apiPaths.memorialSubscriptions.pattern,
      {
        config: {
          allowAnonymous: true,
          rateLimit: {
            max: SUBSCRIBE_RATE_LIMIT.max,
            timeWindow: `${SUBSCRIBE_RATE_LIMIT.windowMinutes} minutes`,
          },
        },
        schema: {
          tags,
          security: optional,
          summary: 'Blijf verbonden: berichten en herinneringen van een gedenkpagina per e-mail',
          description:
            'Iedereen die de pagina mag zien, met toestemming. Er volgt een bevestigingsmail (dubbele opt-in); het antwoord is altijd hetzelfde.',
          params: idParamSchema,
          body: subscriptionCreateSchema,
          response: { 202: subscriptionPendingSchema, ...errorResponses },
        },
      },
      async (req, reply) =>
        reply.status(202).send(await service.subscribe(await req.caller(), req.params.id, req.body)),
    );

    app.get(
      apiPaths.memorialSubscriptions.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Blijf verbonden: wie zich aanmeldde (eigenaar, redacteur)',
          description:
            'De bevestigde aanmeldingen, de nieuwste eerst: adres, naam, hoe (openbare pagina, lid, toegangscode, persoonlijke link), wanneer, en of berichten er nu nog heen gaan (`hasAccess`).',
          params: idParamSchema,
          response: { 200: subscriptionListSchema, ...errorResponses },
        },
      },
      async (req) => service.listSubscriptions(await req.caller(), req.params.id),
    );

    app.delete(
      apiPaths.memorialSubscription.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Een aanmelding voor Blijf verbonden verwijderen (eigenaar, redacteur)',
          description: 'Er gaat niets meer naartoe. Onbekend of van een andere pagina: 404.',
          params: subscriptionParamsSchema,
          response: { 200: subscriptionRemovedSchema, ...errorResponses },
        },
      },
      async (req) => service.removeSubscription(await req.caller(), req.params.id, req.params.subscriptionId),
    );

    app.post(
      apiPaths.subscriptionConfirm.pattern,
      {
        config: { allowAnonymous: true, rateLimit: { max: 30, timeWindow: '10 minutes' } },
        schema: {
          tags,
          security: anonymous,
          summary: 'Aanmelding bevestigen met de link uit de bevestigingsmail',
          body: mailTokenSchema,
          response: { 200: subscriptionConfirmedSchema, ...errorResponses },
        },
      },
      async (req) => service.confirm(req.body.token),
    );

    app.post(
      apiPaths.mailUnsubscribe.pattern,
      {
        config: {
          allowAnonymous: true,
          rateLimit: { max: 30, timeWindow: '10 minutes' },
          logSecrets: { query: ['t'] },
        },
        schema: {
          tags,
          security: anonymous,
          summary: 'Afmelden met één klik, zonder in te loggen',
          description:
            'Het ondertekende token uit de link in de mail (`t`). Ook het adres van de List-Unsubscribe-kop: mailprogramma’s posten hier `List-Unsubscribe=One-Click` (RFC 8058). Nog eens afmelden mag.',
          querystring: mailTokenQuerySchema,
          response: { 200: unsubscribedSchema, ...errorResponses },
        },
      },
      async (req) => service.unsubscribe(req.query.t),
    );
  };
