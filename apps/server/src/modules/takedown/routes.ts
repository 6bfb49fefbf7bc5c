import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  idParamSchema,
  takedownHideSchema,
  takedownItemParamsSchema,
  takedownItemsSchema,
  takedownReportResultSchema,
  takedownReportSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { takedownService } from './service.ts';

export const takedownRoutes =
  (deps: Pick<Deps, 'db' | 'outbox' | 'config'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = takedownService(deps);
    const items = { 200: takedownItemsSchema, ...errorResponses };

    app.post(
      apiPaths.takedownReport.pattern,
      {
        config: { allowAnonymous: true, rateLimit: { max: 20, timeWindow: '1 minute' } },
        schema: {
          tags: ['takedown'],
          summary: 'Een herinnering of foto melden (iedereen die hem kan zien)',
          description:
            'Met een reden en eventueel een toelichting. De eigenaren van de pagina en ons team krijgen bericht. Per adres 5 meldingen per uur en één per onderdeel per dag (429).',
          body: takedownReportSchema,
          response: { 201: takedownReportResultSchema, ...errorResponses },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await service.report(await req.caller(), req.body, req.ip)),
    );
    app.get(
      apiPaths.memorialTakedowns.pattern,
      {
        schema: {
          tags: ['takedown'],
          summary: 'Gemelde en verborgen onderdelen van een pagina (eigenaren)',
          security: [{ bearer: [] }],
          params: idParamSchema,
          response: items,
        },
      },
      async (req) => service.memorialList(await req.caller(), req.params.id),
    );
    app.post(
      apiPaths.takedownHide.pattern,
      {
        schema: {
          tags: ['takedown'],
          summary: 'Een onderdeel van de eigen pagina verbergen (eigenaren)',
          security: [{ bearer: [] }],
          params: takedownItemParamsSchema,
          body: takedownHideSchema,
          response: items,
        },
      },
      async (req) =>
        service.ownerHide(await req.caller(), req.params.itemType, req.params.itemId, req.body.reason),
    );
    app.post(
      apiPaths.takedownUnhide.pattern,
      {
        schema: {
          tags: ['takedown'],
          summary: 'Een zelf verborgen onderdeel weer tonen (eigenaren)',
          security: [{ bearer: [] }],
          params: takedownItemParamsSchema,
          response: items,
        },
      },
      async (req) => service.ownerUnhide(await req.caller(), req.params.itemType, req.params.itemId),
    );
    app.get(
      apiPaths.teamTakedowns.pattern,
      {
        schema: {
          tags: ['team'],
          summary: 'Meldingen: gemelde en verborgen onderdelen van alle pagina’s (het team)',
          security: [{ bearer: [] }],
          response: items,
        },
      },
      async (req) => service.teamList(await req.caller()),
    );
    app.post(
      apiPaths.teamTakedownHide.pattern,
      {
        schema: {
          tags: ['team'],
          summary: 'Een gemeld onderdeel meteen verbergen, met een reden (het team)',
          security: [{ bearer: [] }],
          params: takedownItemParamsSchema,
          body: takedownHideSchema,
          response: items,
        },
      },
      async (req) =>
        service.teamHide(await req.caller(), req.params.itemType, req.params.itemId, req.body.reason),
    );
    app.post(
      apiPaths.teamTakedownUnhide.pattern,
      {
        schema: {
          tags: ['team'],
          summary: 'Een verborgen onderdeel weer tonen (het team)',
          security: [{ bearer: [] }],
          params: takedownItemParamsSchema,
          response: items,
        },
      },
      async (req) => service.teamUnhide(await req.caller(), req.params.itemType, req.params.itemId),
    );
  };
