import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  idParamSchema,
  successorSchema,
  successorSetSchema,
  teamHandOverResultSchema,
  teamHandOverSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { registerSuccessorJobs, successorService } from './service.ts';

export const successorRoutes =
  (deps: Pick<Deps, 'db' | 'outbox' | 'config' | 'clock' | 'queue'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = successorService(deps);
    const jobs = registerSuccessorJobs(deps, fastify.log);
    fastify.addHook('onReady', jobs.scheduleNext);
    const answer = { 200: successorSchema, ...errorResponses };

    app.get(
      apiPaths.successor.pattern,
      {
        schema: {
          tags: ['successors'],
          summary: 'De opvolger van de pagina (eigenaren)',
          security: [{ bearer: [] }],
          params: idParamSchema,
          response: answer,
        },
      },
      async (req) => service.get(await req.caller(), req.params.id),
    );
    app.put(
      apiPaths.successor.pattern,
      {
        schema: {
          tags: ['successors'],
          summary: 'Een opvolger aanwijzen of wijzigen: een ander lid, of een e-mailadres (eigenaren)',
          description:
            'Als de laatste eigenaar zijn account verwijdert, of een jaar niet inlogt en twee herinneringen onbeantwoord laat, wordt de opvolger eigenaar. Een adres zonder account krijgt dan een uitnodiging.',
          security: [{ bearer: [] }],
          params: idParamSchema,
          body: successorSetSchema,
          response: answer,
        },
      },
      async (req) => service.set(await req.caller(), req.params.id, req.body),
    );
    app.delete(
      apiPaths.successor.pattern,
      {
        schema: {
          tags: ['successors'],
          summary: 'De opvolger weghalen (eigenaren)',
          security: [{ bearer: [] }],
          params: idParamSchema,
          response: answer,
        },
      },
      async (req) => service.remove(await req.caller(), req.params.id),
    );
    app.post(
      apiPaths.teamHandOver.pattern,
      {
        schema: {
          tags: ['team'],
          summary: 'Een pagina op verzoek aan een familielid overdragen, met een reden (het team)',
          description:
            'Een bevestigd account met dit adres wordt eigenaar; anders krijgt het adres een uitnodiging om eigenaar te worden. De reden staat in het logboek van de pagina.',
          security: [{ bearer: [] }],
          params: idParamSchema,
          body: teamHandOverSchema,
          response: { 200: teamHandOverResultSchema, ...errorResponses },
        },
      },
      async (req) => service.teamHandOver(await req.caller(), req.params.id, req.body),
    );
  };
