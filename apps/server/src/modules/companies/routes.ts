import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiPaths,
  companyRequestResultSchema,
  companyRequestSchema,
  companyResponseSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { companyService } from './service.ts';

export const companyRoutes =
  (deps: Pick<Deps, 'db' | 'outbox' | 'config'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = companyService(deps);
    app.post(
      apiPaths.companyRequest.pattern,
      {
        config: { allowAnonymous: true, rateLimit: { max: 10, timeWindow: '1 hour' } },
        schema: {
          tags: ['companies'],
          summary: 'Partneraanvraag indienen',
          body: companyRequestSchema,
          response: { 201: companyRequestResultSchema, ...errorResponses },
        },
      },
      async (req, reply) => {
        const company = await service.request(req.body, req.log);
        return reply.status(201).send({ id: company.id, status: company.status });
      },
    );
    app.get(
      apiPaths.company.pattern,
      {
        schema: {
          tags: ['companies'],
          summary: 'Partneraanvraag bekijken (alleen het team)',
          security: [{ bearer: [] }],
          params: z.object({ id: z.string() }),
          response: { 200: companyResponseSchema, ...errorResponses },
        },
      },
      async (req) => service.get(await req.caller(), req.params.id),
    );
  };
