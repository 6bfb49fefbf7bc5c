import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import multipart from '@fastify/multipart';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiErrorSchema,
  apiPaths,
  companyProfileInputSchema,
  companyProfileSchema,
  directoryQuerySchema,
  directorySchema,
  idParamSchema,
  publicCompanySchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { receiveUpload, uploadGate, uploadMultipartLimits } from '../../lib/media/upload.ts';
import { companyProfileService } from './profile-service.ts';

const security = [{ bearer: [] }];
const tags = ['partner-portal'];
const publicTags = ['companies-public'];

/** Key of the response cache under which every company read is kept (migration 105 notifies it). */
export const COMPANIES_CACHE_KEY = 'companies';

/** Multipart bodies are read as a stream in the handler; the body schema only documents the form. */
function documentOnlyBody<T>(route: FastifyRouteSchemaDef<T>) {
  return route.httpPart === 'body'
    ? () => ({ value: undefined })
    : validatorCompiler(route as unknown as FastifyRouteSchemaDef<z.ZodType>);
}

export const companyProfileRoutes =
  (deps: Pick<Deps, 'db' | 'config' | 'storage' | 'responseCache'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = companyProfileService(deps);
    const tmpDir = path.join(deps.config.DATA_DIR, 'tmp');

    app.get(
      apiPaths.companyProfile.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Het profiel van het bedrijf (de eigen gebruikers; het team mag meelezen)',
          description:
            'Een gebruiker van een geschorst bedrijf krijgt 403 COMPANY_SUSPENDED; ieder ander 404.',
          params: idParamSchema,
          response: { 200: companyProfileSchema, ...errorResponses },
        },
      },
      async (req) => service.get(await req.caller(), req.params.id),
    );

    app.put(
      apiPaths.companyProfile.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Het profiel opslaan: gegevens, prijzen en werkgebied (de eigen gebruikers)',
          description:
            'Het hele profiel in één keer. Bedragen in hele centen; gemeenten uit de meegeleverde lijst van Nederlandse ' +
            'gemeenten; postcodegebieden van vier cijfers (van ≤ tot). Elke wijziging komt in het logboek van het bedrijf.',
          params: idParamSchema,
          body: companyProfileInputSchema,
          response: { 200: companyProfileSchema, ...errorResponses },
        },
      },
      async (req) => service.update(await req.caller(), req.params.id, req.body),
    );

    await app.register(async (uploads) => {
      await uploads.register(multipart, { limits: uploadMultipartLimits, throwFileSizeLimit: true });
      uploads.addHook('onRequest', uploadGate(deps.config.UPLOADS_PER_CALLER));
      uploads.withTypeProvider<ZodTypeProvider>().post(
        apiPaths.companyLogo.pattern,
        {
          validatorCompiler: documentOnlyBody,
          config: { rateLimit: { max: 60, timeWindow: '1 hour' } },
          schema: {
            tags,
            security,
            summary: 'Een nieuw logo (de eigen gebruikers)',
            description:
              'multipart/form-data met het bestand `media` (JPEG, PNG, WebP, AVIF of GIF, maximaal 20 MB). Type, eerste bytes ' +
              'en een volledige decodering moeten overeenkomen; het logo wordt als WebP bewaard in 160 en 320 pixels breed, ' +
              'zonder metadata. Openbaar zolang het bedrijf actief is.',
            consumes: ['multipart/form-data'],
            params: idParamSchema,
            body: z.object({ media: z.string().meta({ format: 'binary' }) }),
            response: { 200: companyProfileSchema, ...errorResponses, 415: apiErrorSchema },
          },
        },
        async (req) => {
          const caller = await req.caller();
          const upload = await receiveUpload(req, {
            tmpDir,
            fieldsSchema: z.object({}),
            authorize: () => service.authorizeLogo(caller, req.params.id),
          });
          try {
            return await service.setLogo(caller, req.params.id, upload.file);
          } finally {
            await upload.discard();
          }
        },
      );
    });

    app.delete(
      apiPaths.companyLogo.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Het logo verwijderen (de eigen gebruikers)',
          params: idParamSchema,
          response: { 200: companyProfileSchema, ...errorResponses },
        },
      },
      async (req) => service.removeLogo(await req.caller(), req.params.id),
    );

    app.get(
      apiPaths.publicCompany.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags: publicTags,
          summary: 'De openbare pagina van een bedrijf (alleen actieve bedrijven)',
          params: z.object({ slug: z.string().max(80) }),
          response: { 200: publicCompanySchema, ...errorResponses },
        },
      },
      async (req, reply) =>
        deps.responseCache.serve(
          req,
          reply,
          { memorialId: COMPANIES_CACHE_KEY, name: `company:${req.params.slug}` },
          () => service.publicCompany(req.params.slug),
        ),
    );

    app.get(
      apiPaths.companyDirectory.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags: publicTags,
          summary: 'Vind een uitvaartondernemer: zoeken op plaatsnaam of postcode',
          description:
            'Zonder `q` alle actieve bedrijven. Een postcode (1234 of 1234 AB) vindt de bedrijven waarvan een postcodegebied ' +
            'hem bevat of een gemeente waarin hij ligt (voor zover de meegeleverde lijst dat weet); een plaatsnaam de bedrijven ' +
            'die in de gemeente van die plaats werken.',
          querystring: directoryQuerySchema,
          response: { 200: directorySchema, ...errorResponses },
        },
      },
      async (req, reply) => {
        const q = (req.query.q ?? '').trim().replace(/\s+/g, ' ');
        return deps.responseCache.serve(
          req,
          reply,
          { memorialId: COMPANIES_CACHE_KEY, name: `directory:${q}` },
          () => service.directory(req.query.q),
        );
      },
    );

    // Untyped: the reply is a stream.
    fastify.get<{ Params: { logoId: string; variant: string } }>(
      apiPaths.publicCompanyLogo.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags: publicTags,
          summary: 'Het logo van een actief bedrijf (WebP)',
          description:
            'Zonder handtekening: een logo is openbaar zolang het bedrijf actief is (daarna 404). Een nieuw logo krijgt een ' +
            'nieuw adres, dus browsers mogen het een dag bewaren.',
          params: z.object({ logoId: z.string().max(40), variant: z.string().max(20) }),
          response: {
            200: {
              description: 'De bytes',
              content: { 'image/webp': { schema: z.string().meta({ format: 'binary' }) } },
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
        const stream = await service.logoFile(req.params.logoId, req.params.variant);
        return reply
          .type('image/webp')
          .header('cache-control', 'public, max-age=86400')
          .header('x-content-type-options', 'nosniff')
          .send(stream);
      },
    );
  };
