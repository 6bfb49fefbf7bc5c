import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accessCodeRegeneratedSchema,
  apiPaths,
  biographySchema,
  biographyUpdateSchema,
  idParamSchema,
  memorialConceptHeadersSchema,
  memorialConceptRequestSchema,
  memorialConceptResultSchema,
  memorialBySlugSchema,
  memorialIdParamSchema,
  memorialPartOfQuerySchema,
  memorialPartOfResultSchema,
  memorialQueryResultSchema,
  memorialQuerySchema,
  memorialSchema,
  memorialSlugParamSchema,
  memorialUpdateSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { requireUser } from '../../lib/auth.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { memorialService } from './service.ts';

const tags = ['memorials'];
const security = [{ bearer: [] }];

export const memorialRoutes =
  (deps: Pick<Deps, 'db' | 'responseCache' | 'config'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = memorialService(deps);

    app.post(
      apiPaths.memorialConcept.pattern,
      {
        // Its own idempotency key handling (since before lib/idempotency.ts), in the concept's transaction.
        config: { rateLimit: { max: 30, timeWindow: '1 hour' }, idempotency: 'own' },
        schema: {
          tags,
          security,
          summary: 'Gedenkpagina als concept aanmaken',
          description:
            'De ingelogde gebruiker wordt eigenaar. Met een `Idempotency-Key`-header geven dezelfde gebruiker en sleutel binnen 24 uur dezelfde pagina terug (header `Idempotent-Replayed: true`).',
          headers: memorialConceptHeadersSchema,
          body: memorialConceptRequestSchema,
          response: { 201: memorialConceptResultSchema, ...errorResponses },
        },
      },
      async (req, reply) => {
        const caller = await requireUser(req);
        const { id, replayed } = await service.createConcept(
          caller,
          req.body,
          req.headers['idempotency-key'],
        );
        if (replayed) reply.header('idempotent-replayed', 'true');
        return reply.status(201).send({ id });
      },
    );

    app.post(
      apiPaths.memorialQuery.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags,
          summary: 'Openbare, gepubliceerde gedenkpagina’s zoeken',
          description: 'Voor iedereen; zoekt op naam (elk woord moet voorkomen). Nieuwste eerst, per pagina.',
          body: memorialQuerySchema,
          response: { 200: memorialQueryResultSchema, ...errorResponses },
        },
      },
      async (req) => service.listPublic(req.body),
    );

    app.post(
      apiPaths.memorialPartOf.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Mijn gedenkpagina’s',
          description:
            'De pagina’s waarvan de ingelogde gebruiker lid is, met rol, status en tellers. Laatst toegetreden eerst.',
          body: memorialPartOfQuerySchema,
          response: { 200: memorialPartOfResultSchema, ...errorResponses },
        },
      },
      async (req) => service.listPartOf(await req.caller(), req.body),
    );

    app.get(
      apiPaths.biographyOf.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags,
          security,
          summary: 'Levensverhaal lezen',
          params: memorialIdParamSchema,
          response: { 200: biographySchema, ...errorResponses },
        },
      },
      async (req) => service.getBiography(await req.caller(), req.params.memorialId),
    );

    app.put(
      apiPaths.biography.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Levensverhaal opslaan (eigenaar, redacteur)',
          description:
            'HTML wordt op de server opgeschoond: alleen p, br, strong, em, u, s, h2, h3, ul, ol, li, blockquote en a (https/mailto, rel="noopener noreferrer").',
          body: biographyUpdateSchema,
          response: { 200: biographySchema, ...errorResponses },
        },
      },
      async (req) => service.setBiography(await req.caller(), req.body.memorialId, req.body.html),
    );

    app.put(
      apiPaths.memorials.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Gegevens, status of zichtbaarheid wijzigen (eigenaar, redacteur)',
          description:
            'Alleen de meegestuurde velden veranderen; null maakt een optioneel veld leeg. Status: concept → active (publiceren), active → archived, archived → active; anders 409.',
          body: memorialUpdateSchema,
          response: { 200: memorialSchema, ...errorResponses },
        },
      },
      async (req) => service.update(await req.caller(), req.body),
    );

    app.post(
      apiPaths.accessCodeRegenerate.pattern,
      {
        config: { rateLimit: { max: 20, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'Nieuwe toegangscode maken (eigenaar, redacteur)',
          description: 'Gasttokens die met een eerdere code zijn uitgegeven werken daarna niet meer.',
          params: idParamSchema,
          response: { 200: accessCodeRegeneratedSchema, ...errorResponses },
        },
      },
      async (req) => service.regenerateAccessCode(await req.caller(), req.params.id),
    );

    app.get(
      apiPaths.memorialBySlug.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags,
          security,
          summary: 'Gedenkpagina zoeken op haar leesbare adres',
          description:
            'Het id en het huidige adres van de pagina op /gedenkpagina/{slug}; ook een eerder adres (na een naamswijziging) vindt de pagina. Wie de pagina niet mag zien krijgt 404, net als bij een adres dat niet bestaat.',
          params: memorialSlugParamSchema,
          response: { 200: memorialBySlugSchema, ...errorResponses },
        },
      },
      async (req) => service.bySlug(await req.caller(), req.params.slug),
    );

    app.get(
      apiPaths.memorial.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags,
          security,
          summary: 'Gedenkpagina lezen',
          description:
            'Wat de aanvrager mag zien, met zijn rol; de toegangscode alleen voor eigenaren en redacteuren. Een besloten pagina zonder toegang antwoordt 404, net als een ontbrekende.',
          params: idParamSchema,
          response: { 200: memorialSchema, ...errorResponses },
        },
      },
      // Anonymous reads of a public memorial come from the response cache (ETag, 304); any change invalidates it.
      async (req, reply) =>
        deps.responseCache.serve(req, reply, { memorialId: req.params.id, name: 'memorial' }, async () =>
          service.get(await req.caller(), req.params.id),
        ),
    );
  };
