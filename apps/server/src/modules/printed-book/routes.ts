import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  idParamSchema,
  printedBookFileParamsSchema,
  printedBookFileQuerySchema,
  printedBookRequestSchema,
  printedBookStateSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { printedBookService } from './service.ts';
import { registerJobs } from '../../lib/jobs/typed-jobs.ts';
import { signedFileRoute } from '../../lib/signed-file-route.ts';

const tags = ['keepsakes'];
const security = [{ bearer: [] }];

/** The printed book (Premium; docs/keepsakes.md 'Printed book'). */
export const printedBookRoutes =
  (deps: Pick<Deps, 'db' | 'config' | 'storage' | 'outbox' | 'queue' | 'clock'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = printedBookService(deps);

    // The files lane runs one job at a time per worker, so one book is rendered at a time per worker.
    registerJobs(deps.queue, service.jobs());

    app.get(
      apiPaths.printedBook.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Het gedrukte boek: de stand (eigenaar, redacteur)',
          description:
            '`available` zegt of het abonnement van de pagina het boek heeft (Premium en de proefperiode). Klaar: links (1 uur geldig) om het te bekijken en te downloaden.',
          params: idParamSchema,
          response: { 200: printedBookStateSchema, ...errorResponses },
        },
      },
      async (req) => service.state(await req.caller(), req.params.id),
    );

    app.post(
      apiPaths.printedBook.pattern,
      {
        config: { rateLimit: { max: 20, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'Het gedrukte boek maken (Premium)',
          description:
            'Eigenaar of redacteur. Een achtergrondtaak maakt een drukklare A5-pdf (omslag, levensverhaal, herinneringen met foto’s, kaarsjes en bloemen), optioneel met afloop en snijtekens, en mailt wie het vroeg. Een nieuw boek vervangt het vorige; loopt er al een, dan komt die terug. Basis: 403 PLAN_FEATURE. Laat het account al genoeg boeken maken: 429 JOB_LIMIT_REACHED.',
          params: idParamSchema,
          body: printedBookRequestSchema,
          response: { 202: printedBookStateSchema, ...errorResponses },
        },
      },
      async (req, reply) =>
        reply.status(202).send(await service.request(await req.caller(), req.params.id, req.body)),
    );

    signedFileRoute(fastify, {
      pattern: apiPaths.printedBookFile.pattern,
      idParam: 'bookId',
      params: printedBookFileParamsSchema,
      querystring: printedBookFileQuerySchema,
      tags,
      summary: 'De pdf van het gedrukte boek',
      description:
        'Met de ondertekende link uit de stand (`exp`, `sig`, 1 uur geldig); `download=1` geeft hem als bijlage, anders om in de browser te bekijken.',
      contentType: 'application/pdf',
      contentDescription: 'De pdf',
      inline: true,
      open: (o) => service.file({ bookId: o.id, exp: o.exp, sig: o.sig, caller: o.caller }),
    });
  };
