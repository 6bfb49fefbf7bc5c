import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiErrorSchema,
  apiPaths,
  idParamSchema,
  printedBookFileParamsSchema,
  printedBookFileQuerySchema,
  printedBookRequestSchema,
  printedBookStateSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { PRINTED_BOOK_JOB, printedBookService } from './service.ts';
import { downloadHeaders } from '../../lib/signed-download.ts';

const tags = ['keepsakes'];
const security = [{ bearer: [] }];
const isUuid = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f-]{36}$/i.test(v);

/** The printed book (Premium; docs/keepsakes.md 'Printed book'). */
export const printedBookRoutes =
  (deps: Pick<Deps, 'db' | 'config' | 'storage' | 'outbox' | 'queue' | 'clock'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = printedBookService(deps);

    // The job queue runs one job at a time per process, so one book is rendered at a time per process.
    deps.queue.register(PRINTED_BOOK_JOB, 'files', async (payload, job) => {
      if (isUuid(payload.bookId))
        await service.render(payload.bookId, { last: job.attempt >= job.maxAttempts });
    });

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

    app.get(
      apiPaths.printedBookFile.pattern,
      {
        config: { allowAnonymous: true, logSecrets: { query: ['sig'] } },
        schema: {
          tags,
          security: [{ bearer: [] }, {}] as Record<string, string[]>[],
          summary: 'De pdf van het gedrukte boek',
          description:
            'Met de ondertekende link uit de stand (`exp`, `sig`, 1 uur geldig); `download=1` geeft hem als bijlage, anders om in de browser te bekijken.',
          params: printedBookFileParamsSchema,
          querystring: printedBookFileQuerySchema,
          response: {
            200: {
              description: 'De pdf',
              content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } },
            },
            400: apiErrorSchema,
            401: apiErrorSchema,
            403: apiErrorSchema,
            404: apiErrorSchema,
            429: apiErrorSchema,
            503: apiErrorSchema,
          },
        },
      },
      async (req, reply) => {
        const file = await service.file({
          bookId: req.params.bookId,
          exp: req.query.exp,
          sig: req.query.sig,
          caller: () => req.caller(),
        });
        return downloadHeaders(reply, file, {
          type: 'application/pdf',
          inline: req.query.download !== '1',
        }).send(file.body as unknown as string);
      },
    );
  };
