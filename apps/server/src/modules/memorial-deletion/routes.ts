import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  deletedMemorialsSchema,
  idParamSchema,
  memorialDeleteResultSchema,
  memorialDeleteSchema,
  memorialRestoreResultSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { memorialDeletionService, registerMemorialDeletionJobs } from './service.ts';

const tags = ['memorials'];
const security = [{ bearer: [] }];

/** An owner deletes a memorial, restorable for 30 days (docs/privacy.md). */
export const memorialDeletionRoutes =
  (deps: Pick<Deps, 'db' | 'queue' | 'outbox' | 'config' | 'clock'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = memorialDeletionService(deps);
    registerMemorialDeletionJobs(deps);

    app.post(
      apiPaths.memorialDelete.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Een gedenkpagina verwijderen',
          description:
            "Alleen eigenaren, bevestigd met 'VERWIJDEREN'. De pagina is meteen weg voor iedereen; elke eigenaar krijgt een mail en kan hem 30 dagen terugzetten, daarna wordt hij met zijn media verwijderd.",
          params: idParamSchema,
          body: memorialDeleteSchema,
          response: { 200: memorialDeleteResultSchema, ...errorResponses },
        },
      },
      async (req) => service.delete(await req.caller(), req.params.id, req.body),
    );

    app.post(
      apiPaths.memorialRestore.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Een verwijderde gedenkpagina terugzetten',
          description: 'Alleen eigenaren, binnen 30 dagen na het verwijderen.',
          params: idParamSchema,
          response: { 200: memorialRestoreResultSchema, ...errorResponses },
        },
      },
      async (req) => service.restore(await req.caller(), req.params.id),
    );

    app.get(
      apiPaths.memorialsDeleted.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Mijn verwijderde gedenkpagina’s',
          description: 'De pagina’s die de beller als eigenaar verwijderde en nog kan terugzetten.',
          response: { 200: deletedMemorialsSchema, ...errorResponses },
        },
      },
      async (req) => service.listDeleted(await req.caller()),
    );
  };
