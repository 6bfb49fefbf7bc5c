import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  CANDLE_RATE_LIMIT,
  candleCreateSchema,
  candleDeletedSchema,
  candlePageSchema,
  candleQuerySchema,
  candleSchema,
  idParamSchema,
  memorialIdParamSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { candleService } from './service.ts';

const tags = ['candles'];
/** Bearer optional: visitors of a public page need no account. */
const security: Record<string, string[]>[] = [{ bearer: [] }, {}];

export const candleRoutes =
  (deps: Pick<Deps, 'db'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = candleService({ db: deps.db });

    app.post(
      apiPaths.candleCreate.pattern,
      {
        config: {
          allowAnonymous: true,
          rateLimit: { max: CANDLE_RATE_LIMIT.max, timeWindow: `${CANDLE_RATE_LIMIT.windowMinutes} minutes` },
        },
        schema: {
          tags,
          security,
          summary: 'Kaarsje aansteken of bloem leggen',
          description: `Iedereen die de gedenkpagina mag zien (ook bezoekers van een openbare pagina, zonder inloggen). Maximaal ${CANDLE_RATE_LIMIT.max} per ${CANDLE_RATE_LIMIT.windowMinutes} minuten per adres (429).`,
          params: memorialIdParamSchema,
          body: candleCreateSchema,
          response: { 201: candleSchema, ...errorResponses },
        },
      },
      async (req, reply) =>
        reply
          .status(201)
          .send(await service.light(await req.caller(), req.params.memorialId, req.body, req.idempotency)),
    );

    app.get(
      apiPaths.candle.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags,
          security,
          summary: 'Eén kaarsje of bloem',
          params: idParamSchema,
          response: { 200: candleSchema, ...errorResponses },
        },
      },
      async (req) => service.get(await req.caller(), req.params.id),
    );

    app.post(
      apiPaths.candlesQuery.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags,
          security,
          summary: 'Kaarsjes en bloemen van een gedenkpagina',
          description: 'Nieuwste eerst, per pagina met een cursor, met de totalen per soort.',
          body: candleQuerySchema,
          response: { 200: candlePageSchema, ...errorResponses },
        },
      },
      async (req) => service.query(await req.caller(), req.body),
    );

    app.delete(
      apiPaths.candle.pattern,
      {
        schema: {
          tags,
          security: [{ bearer: [] }],
          summary: 'Kaarsje of bloem verwijderen',
          description: 'Redacteur of eigenaar, bijvoorbeeld bij een ongepast bericht.',
          params: idParamSchema,
          response: { 200: candleDeletedSchema, ...errorResponses },
        },
      },
      async (req) => service.remove(await req.caller(), req.params.id),
    );
  };
