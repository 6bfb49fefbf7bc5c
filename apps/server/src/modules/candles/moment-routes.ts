import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  apiPaths,
  candleMomentDeletedSchema,
  candleMomentInputSchema,
  candleMomentParamsSchema,
  candleMomentSchema,
  idParamSchema,
  remembranceSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { personKey } from '../../lib/live-streams.ts';
import { amsterdamDate } from '../../shared/amsterdam-time.ts';
import { createCandleLive } from './moment-live.ts';
import { candleMomentService } from './moment-service.ts';

const tags = ['candle-moments'];
/** Bearer optional: visitors of a public page need no account. */
const optional: Record<string, string[]>[] = [{ bearer: [] }, {}];
const bearer: Record<string, string[]>[] = [{ bearer: [] }];

/** Remembrance days and the kaarsjesmoment (docs/funeral-day.md, 'Samen herdenken'). */
export const candleMomentRoutes =
  (deps: Pick<Deps, 'db' | 'clock' | 'responseCache' | 'liveStreams'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = candleMomentService(deps);
    // Read on every call: tests move the app's clock.
    const live = createCandleLive({ db: deps.db, clock: () => deps.clock, log: fastify.log });
    // Streams end before the server waits for its connections to close.
    fastify.addHook('preClose', async () => live.close());

    app.get(
      apiPaths.candleMoments.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags,
          security: optional,
          summary: 'Kaarsjesmomenten en herdenkingsdagen van een gedenkpagina',
          description:
            'Iedereen die de pagina mag zien: de momenten die vandaag of later eindigen en de volgende herdenkingsdagen (Allerzielen; Wereldlichtjesdag alleen op de pagina van een kind; verjaardag en sterfdag).',
          params: idParamSchema,
          response: { 200: remembranceSchema, ...errorResponses },
        },
      },
      // Anonymous reads come from the response cache, one entry per Amsterdam day; a change of the
      // moments or of the page's dates invalidates it.
      async (req, reply) =>
        deps.responseCache.serve(
          req,
          reply,
          { memorialId: req.params.id, name: `remembrance-${amsterdamDate(deps.clock.now())}` },
          async () => service.remembrance(await req.caller(), req.params.id),
        ),
    );

    app.post(
      apiPaths.candleMoments.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Kaarsjesmoment plannen (eigenaar, redacteur)',
          params: idParamSchema,
          body: candleMomentInputSchema,
          response: { 201: candleMomentSchema, ...errorResponses },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await service.create(await req.caller(), req.params.id, req.body)),
    );

    app.put(
      apiPaths.candleMoment.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Kaarsjesmoment wijzigen (eigenaar, redacteur)',
          params: candleMomentParamsSchema,
          body: candleMomentInputSchema,
          response: { 200: candleMomentSchema, ...errorResponses },
        },
      },
      async (req) => service.update(await req.caller(), req.params.id, req.params.momentId, req.body),
    );

    app.delete(
      apiPaths.candleMoment.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Kaarsjesmoment afzeggen (eigenaar, redacteur)',
          params: candleMomentParamsSchema,
          response: { 200: candleMomentDeletedSchema, ...errorResponses },
        },
      },
      async (req) => service.remove(await req.caller(), req.params.id, req.params.momentId),
    );

    app.get(
      apiPaths.candleMomentLive.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags,
          security: optional,
          summary: 'Live tijdens een kaarsjesmoment (server-sent events)',
          description:
            "text/event-stream, alleen terwijl een moment bezig is (anders 409 CANDLE_MOMENT_NOT_LIVE). Eerst 'state' (het moment, de kaarsjes van dit moment tot nu, hoeveel mensen er zijn), daarna 'candle' voor elk nieuw kaarsje, 'together' als het aantal verandert en 'ended' als het moment voorbij is. Iedereen die de pagina mag zien; de stream stopt als die toegang vervalt of het token verloopt. `client`: een willekeurige id per paginabezoek, zodat bezoekers zonder account als mensen worden geteld en niet als verbindingen.",
          params: idParamSchema,
          querystring: z.object({ client: z.optional(z.uuid()) }),
          response: { 200: z.string(), ...errorResponses },
        },
      },
      async (req, reply) => {
        const caller = await req.caller();
        const moment = await service.live(caller, req.params.id);
        const slot = deps.liveStreams.admit(caller, req.ip, reply);
        reply.hijack();
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(reply.getHeaders()))
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
        await live
          .open(reply.raw, headers, moment, {
            person: personKey(caller, req.ip, req.query.client),
            slot,
            // The same access check, with the token verified again (a regenerated code ends a guest's).
            check: async () => service.watch(await req.callerAgain(), req.params.id),
          })
          .catch((err: unknown) => {
            slot.release();
            req.log.warn({ err }, 'candle moment: stream failed');
            reply.raw.destroy();
          });
      },
    );
  };
