import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiPaths,
  companyBillingSchema,
  companyPaymentCreateSchema,
  exportDownloadQuerySchema,
  idParamSchema,
  paymentCreatedSchema,
  paymentCreateSchema,
  paymentSchema,
  teamRefundSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { planService } from '../plans/service.ts';
import { mollieGateway } from './mollie.ts';
import { paymentService } from './service.ts';
import { signedFileRoute } from '../../lib/signed-file-route.ts';

const tags = ['payments'];
const security = [{ bearer: [] }];

/** Paying for a plan through Mollie (docs/plans.md, decision 013). */
export const paymentRoutes =
  (deps: Pick<Deps, 'db' | 'config' | 'outbox' | 'clock'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { config } = deps;
    const mollie = config.MOLLIE_API_KEY
      ? mollieGateway({ apiKey: config.MOLLIE_API_KEY, apiUrl: config.MOLLIE_API_URL })
      : null;
    const service = paymentService({ ...deps, plans: planService(deps), mollie });

    // Mollie posts its webhook as a form (`id=tr_…`); only here.
    fastify.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.post(
      apiPaths.payments.pattern,
      {
        config: { rateLimit: { max: 20, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'Een abonnement betalen',
          description:
            'Eigenaren en redacteuren. Maakt de betaling bij Mollie (iDEAL, kaart, Bancontact) en geeft het adres van de betaalpagina. 409 PAYMENTS_DISABLED als online betalen uitstaat.',
          body: paymentCreateSchema,
          response: { 201: paymentCreatedSchema, ...errorResponses },
        },
      },
      async (req, reply) => reply.status(201).send(await service.create(await req.caller(), req.body)),
    );

    app.get(
      apiPaths.payment.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'De stand van een betaling',
          description: 'Na terugkomst van de betaalpagina; vraagt Mollie zolang de betaling nog open is.',
          params: idParamSchema,
          response: { 200: paymentSchema, ...errorResponses },
        },
      },
      async (req) => service.get(await req.caller(), req.params.id),
    );

    signedFileRoute(fastify, {
      pattern: apiPaths.invoicePdf.pattern,
      idParam: 'id',
      params: idParamSchema,
      querystring: exportDownloadQuerySchema,
      tags,
      summary: 'De factuur als PDF',
      description:
        'Met de ondertekende link (`exp`, `sig`) uit de mail of het beheerscherm zonder inloggen; ingelogd als eigenaar of redacteur van de pagina zonder link. Een verlopen link geeft 403 INVOICE_LINK_EXPIRED.',
      contentType: 'application/pdf',
      contentDescription: 'De factuur',
      open: async (o) => {
        const file = await service.invoicePdf(o);
        return { filename: file.filename, body: Buffer.from(file.body) };
      },
    });

    app.post(
      apiPaths.teamPaymentRefund.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Een betaling terugstorten (team)',
          description:
            'Alleen het team: stort het hele bedrag terug via Mollie, maakt een creditfactuur (volgend nummer) en mailt die, en neemt het abonnement terug. Met de reden in het logboek van de pagina.',
          params: idParamSchema,
          body: teamRefundSchema,
          response: { 200: paymentSchema, ...errorResponses },
        },
      },
      async (req) => service.teamRefund(await req.caller(), req.params.id, req.body),
    );

    app.get(
      apiPaths.companyBilling.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Betalingen van een partnerbedrijf',
          description:
            'Voor de gebruikers van het bedrijf: tot wanneer het partnerschap betaald is, wat het bedrijf nog verschuldigd is voor de pagina’s die het voor families maakte, en de betalingen met hun facturen.',
          params: idParamSchema,
          response: { 200: companyBillingSchema, ...errorResponses },
        },
      },
      async (req) => service.companyBilling(await req.caller(), req.params.id),
    );

    app.post(
      apiPaths.companyPayments.pattern,
      {
        config: { rateLimit: { max: 20, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'Het partnerschap of de pagina’s voor families betalen (beheerder van het bedrijf)',
          description:
            'Maakt de betaling bij Mollie met het bedrijf als koper en geeft het adres van de betaalpagina. Een betaling die nog openstaat voor hetzelfde wordt opnieuw aangeboden. 409 als er niets openstaat of online betalen uitstaat.',
          params: idParamSchema,
          body: companyPaymentCreateSchema,
          response: { 201: paymentCreatedSchema, ...errorResponses },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await service.companyPay(await req.caller(), req.params.id, req.body.purpose)),
    );

    app.post(
      apiPaths.paymentWebhook.pattern,
      {
        config: { allowAnonymous: true, rateLimit: { max: 600, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: 'Webhook van Mollie',
          description:
            'Mollie meldt alleen een id; de stand wordt altijd bij Mollie zelf opgevraagd. Onbekende ids worden genegeerd.',
          body: z.object({ id: z.string().max(100).optional() }).passthrough(),
          response: { 200: z.object({ ok: z.literal(true) }), ...errorResponses },
        },
      },
      async (req) => {
        await service.webhook(req.body.id);
        return { ok: true as const };
      },
    );
  };
