import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  apiPaths,
  idParamSchema,
  memorialServiceListSchema,
  memorialServiceSchema,
  RSVP_RATE_LIMIT,
  rsvpCreatedSchema,
  rsvpCreateSchema,
  rsvpListSchema,
  serviceDeletedSchema,
  serviceInputSchema,
  serviceParamsSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { amsterdamDate } from './calendar.ts';
import { funeralDayService, registerFuneralDayJobs } from './service.ts';

const tags = ['funeral-day'];
/** Bearer optional: visitors of a public page need no account. */
const optional: Record<string, string[]>[] = [{ bearer: [] }, {}];
const bearer: Record<string, string[]>[] = [{ bearer: [] }];

/** The services of the funeral day and the mails about them (docs/funeral-day.md). */
export const funeralDayRoutes =
  (deps: Pick<Deps, 'db' | 'clock' | 'config' | 'outbox' | 'queue' | 'responseCache'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = funeralDayService(deps);
    const jobs = registerFuneralDayJobs(deps, fastify.log);
    fastify.addHook('onReady', jobs.scheduleNext);

    app.get(
      apiPaths.funeralServices.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags,
          security: optional,
          summary: 'Bijeenkomsten van een gedenkpagina',
          description:
            'Iedereen die de pagina mag zien. De livestreamlink pas vanaf de dag zelf (eigenaren en redacteuren altijd).',
          params: idParamSchema,
          response: { 200: memorialServiceListSchema, ...errorResponses },
        },
      },
      // Anonymous reads come from the response cache, one entry per Amsterdam day (the livestream link and
      // the place on the page change with the day); any change to the services invalidates it.
      async (req, reply) =>
        deps.responseCache.serve(
          req,
          reply,
          { memorialId: req.params.id, name: `services-${amsterdamDate(deps.clock.now())}` },
          async () => service.list(await req.caller(), req.params.id),
        ),
    );

    app.post(
      apiPaths.funeralServices.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Bijeenkomst toevoegen (eigenaar, redacteur)',
          params: idParamSchema,
          body: serviceInputSchema,
          response: { 201: memorialServiceSchema, ...errorResponses },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await service.create(await req.caller(), req.params.id, req.body)),
    );

    app.put(
      apiPaths.funeralService.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Bijeenkomst wijzigen (eigenaar, redacteur)',
          params: serviceParamsSchema,
          body: serviceInputSchema,
          response: { 200: memorialServiceSchema, ...errorResponses },
        },
      },
      async (req) => service.update(await req.caller(), req.params.id, req.params.serviceId, req.body),
    );

    app.delete(
      apiPaths.funeralService.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Bijeenkomst verwijderen (eigenaar, redacteur)',
          description: 'De aanmeldingen gaan mee.',
          params: serviceParamsSchema,
          response: { 200: serviceDeletedSchema, ...errorResponses },
        },
      },
      async (req) => service.remove(await req.caller(), req.params.id, req.params.serviceId),
    );

    app.get(
      apiPaths.funeralServiceCalendar.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags,
          security: optional,
          summary: 'Agendabestand (.ics) van een bijeenkomst',
          description: 'iCalendar (RFC 5545), tijden in Europe/Amsterdam. Iedereen die de pagina mag zien.',
          params: serviceParamsSchema,
          response: { 200: z.string(), ...errorResponses },
        },
      },
      async (req, reply) => {
        const file = await service.calendar(await req.caller(), req.params.id, req.params.serviceId);
        return reply
          .header('content-type', 'text/calendar; charset=utf-8')
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('cache-control', 'no-store')
          .send(file.body);
      },
    );

    app.post(
      apiPaths.serviceRsvp.pattern,
      {
        config: {
          allowAnonymous: true,
          rateLimit: { max: RSVP_RATE_LIMIT.max, timeWindow: `${RSVP_RATE_LIMIT.windowMinutes} minutes` },
        },
        schema: {
          tags,
          security: optional,
          summary: 'Aanmelden voor de bijeenkomst na afloop',
          description: `Zonder account, voor iedereen die de pagina mag zien, tot de sluittijd (daarna 409 RSVP_CLOSED). Maximaal ${RSVP_RATE_LIMIT.max} per ${RSVP_RATE_LIMIT.windowMinutes} minuten per adres (429).`,
          params: serviceParamsSchema,
          body: rsvpCreateSchema,
          response: { 201: rsvpCreatedSchema, ...errorResponses },
        },
      },
      async (req, reply) =>
        reply
          .status(201)
          .send(await service.rsvp(await req.caller(), req.params.id, req.params.serviceId, req.body)),
    );

    app.get(
      apiPaths.serviceRsvps.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Aanmeldingen van een bijeenkomst (eigenaar, redacteur)',
          params: serviceParamsSchema,
          response: { 200: rsvpListSchema, ...errorResponses },
        },
      },
      async (req) => service.rsvps(await req.caller(), req.params.id, req.params.serviceId),
    );

    app.get(
      apiPaths.serviceRsvpsCsv.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Aanmeldingen als CSV (eigenaar, redacteur)',
          description: 'UTF-8 met BOM, gescheiden door puntkomma’s (zoals Excel in het Nederlands verwacht).',
          params: serviceParamsSchema,
          response: { 200: z.string(), ...errorResponses },
        },
      },
      async (req, reply) => {
        const file = await service.rsvpsCsv(await req.caller(), req.params.id, req.params.serviceId);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('cache-control', 'no-store')
          .send(file.body);
      },
    );
  };
