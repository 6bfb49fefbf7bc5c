import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  idParamSchema,
  memoryCreateSchema,
  memoryDeletedSchema,
  memoryIdBodySchema,
  memoryLoveResultSchema,
  memoryManagePageSchema,
  memoryManageQuerySchema,
  memoryOwnQuerySchema,
  memoryPageSchema,
  memoryPrivacyUpdateSchema,
  memorySchema,
  memoryStatusUpdateSchema,
  memoryUpdateSchema,
  memoryWallQuerySchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses, plainJsonSerializer } from '../../lib/schemas.ts';
import { memoryService } from './service.ts';

const tags = ['memories'];
const security = [{ bearer: [] }];

export const memoryRoutes =
  (deps: Pick<Deps, 'db' | 'signer' | 'responseCache' | 'config'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = memoryService({
      db: deps.db,
      signer: deps.signer,
      log: fastify.log,
      trialDays: deps.config.TRIAL_DAYS,
    });

    app.post(
      apiPaths.memoryConcept.pattern,
      {
        config: { rateLimit: { max: 60, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'Herinnering als concept schrijven',
          description:
            'Bijdrager, redacteur, eigenaar of gast (ook met een gasttoken van de toegangscode; dan is `authorName` verplicht). ' +
            'Alleen de schrijver ziet het concept tot het gepubliceerd wordt.',
          body: memoryCreateSchema,
          response: { 201: memorySchema, ...errorResponses },
        },
      },
      async (req, reply) => reply.status(201).send(await service.createConcept(await req.caller(), req.body)),
    );

    app.put(
      apiPaths.memories.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Herinnering wijzigen',
          description:
            'De schrijver, of een redacteur/eigenaar. Wijzigt een gast een gepubliceerde herinnering, dan wacht die weer op goedkeuring.',
          body: memoryUpdateSchema,
          response: { 200: memorySchema, ...errorResponses },
        },
      },
      async (req) => service.update(await req.caller(), req.body),
    );

    app.post(
      apiPaths.memoryPublish.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Concept publiceren (of een afgewezen herinnering opnieuw indienen)',
          description:
            "Alleen de schrijver. Bijdragers, redacteuren en eigenaren publiceren direct ('published'); gasten komen in de wachtrij ('pending') tot een redacteur of eigenaar beslist.",
          body: memoryIdBodySchema,
          response: { 200: memorySchema, ...errorResponses },
        },
      },
      async (req) => service.publish(await req.caller(), req.body.id),
    );

    app.put(
      apiPaths.memoryStatus.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Herinnering goedkeuren of afwijzen',
          description:
            "Redacteur of eigenaar. 'published' keurt goed (of zet een afgewezen herinnering terug), 'rejected' wijst af of haalt offline.",
          body: memoryStatusUpdateSchema,
          response: { 200: memorySchema, ...errorResponses },
        },
      },
      async (req) => service.moderate(await req.caller(), req.body),
    );

    app.put(
      apiPaths.memoryPrivacy.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Alleen voor leden aan of uit',
          description:
            'De schrijver, of een redacteur/eigenaar. Leden zijn ingelogde mensen met een rol op de pagina.',
          body: memoryPrivacyUpdateSchema,
          response: { 200: memorySchema, ...errorResponses },
        },
      },
      async (req) => service.setPrivacy(await req.caller(), req.body),
    );

    app.delete(
      apiPaths.memory.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Herinnering verwijderen',
          description:
            'De schrijver, of een redacteur/eigenaar. Foto’s en video’s van de herinnering gaan mee.',
          params: idParamSchema,
          response: { 200: memoryDeletedSchema, ...errorResponses },
        },
      },
      async (req) => service.remove(await req.caller(), req.params.id),
    );

    app.get(
      apiPaths.memory.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags,
          security,
          summary: 'Eén herinnering',
          description:
            'Voor wie de herinnering mag zien; anders 404, net als een herinnering die niet bestaat.',
          params: idParamSchema,
          response: { 200: memorySchema, ...errorResponses },
        },
      },
      async (req) => service.get(await req.caller(), req.params.id),
    );

    app.post(
      apiPaths.memoryWall.pattern,
      {
        config: { allowAnonymous: true },
        serializerCompiler: plainJsonSerializer,
        schema: {
          tags,
          security,
          summary: 'De muur: herinneringen die de aanvrager mag zien',
          description:
            'Gepubliceerd; ‘alleen voor leden’ alleen voor leden. Nieuwste eerst, per pagina met een cursor (max. 50). ' +
            'Met schrijver, foto’s (direct bruikbare URL’s) en wie het mooi vindt. Een vast aantal databasequery’s per pagina.',
          body: memoryWallQuerySchema,
          response: { 200: memoryPageSchema, ...errorResponses },
        },
      },
      // The first page for anonymous visitors comes from the response cache; any change invalidates it.
      async (req, reply) =>
        req.body.cursor
          ? service.wall(await req.caller(), req.body)
          : deps.responseCache.serve(
              req,
              reply,
              { memorialId: req.body.memorialId, name: `wall-${req.body.limit}` },
              async () => service.wall(await req.caller(), req.body),
            ),
    );

    app.post(
      apiPaths.memoryManageQuery.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Herinneringen beheren (wachtrij en alle)',
          description:
            'Redacteur of eigenaar: wachtend, gepubliceerd en afgewezen (of één status), nieuwste eerst, met aantallen per status.',
          body: memoryManageQuerySchema,
          response: { 200: memoryManagePageSchema, ...errorResponses },
        },
      },
      async (req) => service.manage(await req.caller(), req.body),
    );

    app.post(
      apiPaths.memoryOwnQuery.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Mijn herinneringen',
          description:
            'Alle statussen, nieuwste eerst. Met `memorialId` op één pagina; zonder op alle pagina’s waarvan je lid bent. Een gast ziet wat hij met dit gasttoken schreef.',
          body: memoryOwnQuerySchema,
          response: { 200: memoryPageSchema, ...errorResponses },
        },
      },
      async (req) => service.own(await req.caller(), req.body),
    );

    app.post(
      apiPaths.memoryLove.pattern,
      {
        config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
        schema: {
          tags,
          security,
          summary: 'Herinnering mooi vinden',
          description:
            'Leden en gasten, voor een gepubliceerde herinnering die ze mogen zien. Nogmaals aanroepen verandert niets.',
          params: idParamSchema,
          response: { 200: memoryLoveResultSchema, ...errorResponses },
        },
      },
      async (req) => service.love(await req.caller(), req.params.id, true),
    );

    app.delete(
      apiPaths.memoryLove.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Niet meer mooi vinden',
          params: idParamSchema,
          response: { 200: memoryLoveResultSchema, ...errorResponses },
        },
      },
      async (req) => service.love(await req.caller(), req.params.id, false),
    );
  };
