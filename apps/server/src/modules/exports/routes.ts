import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  exportDownloadParamsSchema,
  exportDownloadQuerySchema,
  exportStateSchema,
  idParamSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { requireUser } from '../../lib/auth.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { exportService } from './service.ts';
import { registerJobs } from '../../lib/jobs/typed-jobs.ts';
import { signedFileRoute } from '../../lib/signed-file-route.ts';

const tags = ['exports'];
const security = [{ bearer: [] }];

/** Exports (docs/exports.md): a whole memorial for its owners, and one person's own data. */
export const exportRoutes =
  (deps: Pick<Deps, 'db' | 'config' | 'storage' | 'outbox' | 'queue'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = exportService(deps);

    registerJobs(deps.queue, service.jobs());

    app.get(
      apiPaths.memorialExport.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'De stand van de export van een gedenkpagina',
          description: 'Alleen eigenaren; de nieuwste export die de beller zelf aanvroeg.',
          params: idParamSchema,
          response: { 200: exportStateSchema, ...errorResponses },
        },
      },
      async (req) => service.memorialState(await req.caller(), req.params.id),
    );

    app.post(
      apiPaths.memorialExport.pattern,
      {
        config: { rateLimit: { max: 10, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'Een export van de hele gedenkpagina aanvragen',
          description:
            'Alleen eigenaren. Een achtergrondtaak maakt een zip (statische HTML-kopie, data.json, media op volle grootte) en mailt een link die 7 dagen werkt. Loopt er al een, dan komt die terug. Worden er al genoeg exports van de pagina of voor het account gemaakt: 429 JOB_LIMIT_REACHED.',
          params: idParamSchema,
          response: { 202: exportStateSchema, ...errorResponses },
        },
      },
      async (req, reply) =>
        reply.status(202).send(await service.requestMemorial(await req.caller(), req.params.id)),
    );

    app.get(
      apiPaths.personalExport.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'De stand van de download van je eigen gegevens',
          response: { 200: exportStateSchema, ...errorResponses },
        },
      },
      async (req) => service.personalState(await requireUser(req)),
    );

    app.post(
      apiPaths.personalExport.pattern,
      {
        config: { rateLimit: { max: 10, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'Al je gegevens downloaden (AVG)',
          description:
            'Een achtergrondtaak maakt een zip met je profiel, herinneringen, foto’s, kaarsjes, lidmaatschappen en de logregels over jou, en mailt een link die 7 dagen werkt. Worden er al genoeg exports voor je gemaakt: 429 JOB_LIMIT_REACHED.',
          response: { 202: exportStateSchema, ...errorResponses },
        },
      },
      async (req, reply) => reply.status(202).send(await service.requestPersonal(await requireUser(req))),
    );

    signedFileRoute(fastify, {
      pattern: apiPaths.exportDownload.pattern,
      idParam: 'exportId',
      params: exportDownloadParamsSchema,
      querystring: exportDownloadQuerySchema,
      tags,
      summary: 'Het zip-bestand van een export',
      description:
        'Met de ondertekende link uit de mail (`exp`, `sig`). Zonder inloggen te openen; wie ingelogd is als iemand anders dan de aanvrager krijgt 403. Een verlopen link geeft 403 EXPORT_LINK_EXPIRED.',
      contentType: 'application/zip',
      contentDescription: 'Het zip-bestand',
      open: (o) => service.download({ exportId: o.id, exp: o.exp, sig: o.sig, caller: o.caller }),
    });
  };
