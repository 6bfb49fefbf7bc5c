import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiPaths, auditPageSchema, auditQuerySchema, memorialIdParamSchema } from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { auditService } from './service.ts';

export const auditRoutes =
  (deps: Pick<Deps, 'db'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = auditService(deps);
    app.get(
      apiPaths.audit.pattern,
      {
        schema: {
          tags: ['audit'],
          security: [{ bearer: [] }],
          summary: 'Logboek van een gedenkpagina (eigenaar)',
          description: 'Wie wat wanneer wijzigde, nieuwste eerst, per pagina (?limit=…&cursor=…).',
          params: memorialIdParamSchema,
          querystring: auditQuerySchema,
          response: { 200: auditPageSchema, ...errorResponses },
        },
      },
      async (req) => service.list(await req.caller(), req.params.memorialId, req.query),
    );
  };
