import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import multipart from '@fastify/multipart';
import { MEDIA_ORPHANS_TASK, sweepMediaOrphans } from '../../lib/media/orphans.ts';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiErrorSchema,
  apiPaths,
  idParamSchema,
  mediaBytesParamsSchema,
  mediaBytesQuerySchema,
  mediaCaptionUpdateSchema,
  mediaDeletedSchema,
  mediaItemSchema,
  mediaListSchema,
  memorialMediaPageSchema,
  memorialMediaQuerySchema,
  memorialMediaReorderSchema,
  memorialMediaUploadFieldsSchema,
  memorialMediaUploadSchema,
  memoryMediaUploadFieldsSchema,
  memoryMediaUploadSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import {
  receiveUpload,
  sweepStaleUploads,
  uploadGate,
  uploadMultipartLimits,
} from '../../lib/media/upload.ts';
import { registerMediaJobs } from './jobs.ts';
import { mediaBytesService } from './bytes.ts';
import { mediaService } from './service.ts';

const security = [{ bearer: [] }];
const galleryTags = ['memorial-media'];
const memoryTags = ['memory-media'];

/**
 * Multipart bodies are read as a stream in the handler (the file never sits in memory), so the
 * body schema only documents the form; the text fields are validated by `receiveUpload`.
 */
function documentOnlyBody<T>(route: FastifyRouteSchemaDef<T>) {
  return route.httpPart === 'body'
    ? () => ({ value: undefined })
    : validatorCompiler(route as unknown as FastifyRouteSchemaDef<z.ZodType>);
}

const uploadDescription =
  'multipart/form-data met eerst de tekstvelden, dan het bestand `media`. Foto’s: het opgegeven type, de eerste bytes en een ' +
  'volledige decodering moeten overeenkomen; de foto wordt rechtop gezet, alle metadata (EXIF, GPS, XMP, ICC) verdwijnt, en er ' +
  'komen breedtes 320/640/1280/2048 (nooit breder dan het origineel) als WebP en JPEG. Het antwoord komt zodra het bestand en de ' +
  'WebP van webformaat er zijn (`status: processing`); de andere formaten maakt een achtergrondtaak (`status: ready`). Video’s ' +
  '(MP4, WebM) worden op de eerste bytes gecontroleerd en zonder hercodering in een nieuwe container gezet, zonder metadata ' +
  '(titel, locatie, toestel, datums); een video die daarbij niet te lezen is, wordt geweigerd (415). ' +
  '413 bij een te groot bestand (foto 20 MB, video 100 MB) of te veel pixels (50 MP), 415 bij een ander of onbekend type; ' +
  'dan wordt niets bewaard.';

export const mediaRoutes =
  (deps: Pick<Deps, 'db' | 'config' | 'storage' | 'queue' | 'signer'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { storage, queue, signer } = deps;
    const tmpDir = path.join(deps.config.DATA_DIR, 'tmp');
    registerMediaJobs(queue, { db: deps.db, storage, log: fastify.log });
    const service = mediaService({
      db: deps.db,
      storage,
      queue,
      signer,
      ffmpegPath: deps.config.ffmpegPath,
      trialDays: deps.config.TRIAL_DAYS,
    });
    const bytes = mediaBytesService({ db: deps.db, storage, signer });

    fastify.addHook('onReady', async () => sweepStaleUploads(tmpDir));
    // What a killed process left half-stored (local storage): see lib/media/orphans.ts.
    queue.every(MEDIA_ORPHANS_TASK, 'system', 3_600_000, async () => {
      const removed = await sweepMediaOrphans({
        db: deps.db,
        mediaRoot: path.join(deps.config.DATA_DIR, 'media'),
        tmpDir,
      });
      if (removed.folders + removed.tmpFiles > 0) fastify.log.info(removed, 'media orphans removed');
    });

    // Uploads: multipart only here, with tight limits.
    await app.register(async (uploads) => {
      await uploads.register(multipart, { limits: uploadMultipartLimits, throwFileSizeLimit: true });
      uploads.addHook('onRequest', uploadGate(deps.config.UPLOADS_PER_CALLER));
      const up = uploads.withTypeProvider<ZodTypeProvider>();

      up.post(
        apiPaths.galleryUpload.pattern,
        {
          validatorCompiler: documentOnlyBody,
          config: { rateLimit: { max: 120, timeWindow: '1 hour' } },
          schema: {
            tags: galleryTags,
            security,
            summary: 'Foto of video aan de galerij toevoegen',
            description: `Eigenaar, redacteur of bijdrager. ${uploadDescription}`,
            consumes: ['multipart/form-data'],
            body: memorialMediaUploadSchema,
            response: { 201: mediaItemSchema, ...errorResponses, 415: apiErrorSchema },
          },
        },
        async (req, reply) => {
          const caller = await req.caller();
          const upload = await receiveUpload(req, {
            tmpDir,
            fieldsSchema: memorialMediaUploadFieldsSchema,
            authorize: (f) => service.authorizeGalleryUpload(caller, f.memorialId),
          });
          try {
            return reply.status(201).send(await service.addToGallery(caller, upload.fields, upload.file));
          } finally {
            await upload.discard();
          }
        },
      );

      up.post(
        apiPaths.memoryMediaUpload.pattern,
        {
          validatorCompiler: documentOnlyBody,
          config: { rateLimit: { max: 120, timeWindow: '1 hour' } },
          schema: {
            tags: memoryTags,
            security,
            summary: 'Foto of video bij een herinnering',
            description: `De schrijver van de herinnering (ook een gast) of een redacteur/eigenaar; maximaal 10 per herinnering. Wijzigt een gast een gepubliceerde herinnering, dan wacht die weer op goedkeuring. ${uploadDescription}`,
            consumes: ['multipart/form-data'],
            body: memoryMediaUploadSchema,
            response: { 201: mediaItemSchema, ...errorResponses, 415: apiErrorSchema },
          },
        },
        async (req, reply) => {
          const caller = await req.caller();
          const upload = await receiveUpload(req, {
            tmpDir,
            fieldsSchema: memoryMediaUploadFieldsSchema,
            authorize: (f) => service.authorizeMemoryUpload(caller, f.memoryId),
          });
          try {
            return reply.status(201).send(await service.addToMemory(caller, upload.fields, upload.file));
          } finally {
            await upload.discard();
          }
        },
      );
    });

    app.get(
      apiPaths.galleryItem.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags: galleryTags,
          security,
          summary: 'Eén foto of video uit de galerij',
          description:
            'Voor wie de gedenkpagina mag zien. De URL’s zijn direct bruikbaar (besloten pagina: ondertekend, max. 1 uur geldig).',
          params: idParamSchema,
          response: { 200: mediaItemSchema, ...errorResponses },
        },
      },
      async (req) => service.getGalleryItem(await req.caller(), req.params.id),
    );

    app.get(
      apiPaths.gallery.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags: galleryTags,
          security,
          summary: 'De hele galerij van een gedenkpagina, in volgorde',
          description:
            'Het pad-id is het id van de gedenkpagina. Begrensd: een galerij heeft maximaal 500 items.',
          params: idParamSchema,
          response: { 200: mediaListSchema, ...errorResponses },
        },
      },
      async (req) => service.listAll(await req.caller(), req.params.id),
    );

    app.post(
      apiPaths.galleryQuery.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags: galleryTags,
          security,
          summary: 'Galerij per pagina, optioneel alleen foto’s of video’s',
          body: memorialMediaQuerySchema,
          response: { 200: memorialMediaPageSchema, ...errorResponses },
        },
      },
      async (req) => service.query(await req.caller(), req.body),
    );

    app.put(
      apiPaths.galleryReorder.pattern,
      {
        schema: {
          tags: galleryTags,
          security,
          summary: 'Volgorde van de galerij wijzigen',
          description:
            'Eigenaar of redacteur. `orderedIds` moet elk item van de galerij precies één keer bevatten, anders 400.',
          body: memorialMediaReorderSchema,
          response: { 200: mediaListSchema, ...errorResponses },
        },
      },
      async (req) => service.reorder(await req.caller(), req.body),
    );

    app.put(
      apiPaths.galleryItem.pattern,
      {
        schema: {
          tags: galleryTags,
          security,
          summary: 'Onderschrift wijzigen',
          description: 'Eigenaar of redacteur, of wie de foto plaatste.',
          params: idParamSchema,
          body: mediaCaptionUpdateSchema,
          response: { 200: mediaItemSchema, ...errorResponses },
        },
      },
      async (req) => service.updateCaption(await req.caller(), req.params.id, req.body.caption),
    );

    app.delete(
      apiPaths.galleryItem.pattern,
      {
        schema: {
          tags: galleryTags,
          security,
          summary: 'Foto of video uit de galerij verwijderen',
          description:
            'Eigenaar of redacteur, of wie de foto plaatste. De bestanden worden op de achtergrond verwijderd.',
          params: idParamSchema,
          response: { 200: mediaDeletedSchema, ...errorResponses },
        },
      },
      async (req) => service.remove(await req.caller(), req.params.id, 'gallery'),
    );

    app.get(
      apiPaths.memoryMedia.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags: memoryTags,
          security,
          summary: 'Eén foto of video van een herinnering',
          description: 'Voor wie de herinnering mag zien.',
          params: idParamSchema,
          response: { 200: mediaItemSchema, ...errorResponses },
        },
      },
      async (req) => service.getMemoryItem(await req.caller(), req.params.id),
    );

    app.delete(
      apiPaths.memoryMedia.pattern,
      {
        schema: {
          tags: memoryTags,
          security,
          summary: 'Foto of video van een herinnering verwijderen',
          description: 'De schrijver van de herinnering, wie de foto plaatste, of een redacteur/eigenaar.',
          params: idParamSchema,
          response: { 200: mediaDeletedSchema, ...errorResponses },
        },
      },
      async (req) => service.remove(await req.caller(), req.params.id, 'memory'),
    );

    const binary = z.string().meta({ format: 'binary' });
    // Untyped instance: the reply is a stream, which the typed reply does not model.
    fastify.get<{
      Params: z.infer<typeof mediaBytesParamsSchema>;
      Querystring: z.infer<typeof mediaBytesQuerySchema>;
    }>(
      apiPaths.mediaBytes.pattern,
      {
        config: { allowAnonymous: true, logSecrets: { query: ['sig'] } },
        schema: {
          tags: ['media'],
          security: [{ bearer: [] }, {}] as Record<string, string[]>[],
          summary: 'De bytes van een foto- of videovariant',
          description:
            'Met een geldige ondertekende link (`exp`, `sig` uit de JSON-antwoorden), of voor wie de pagina mag zien (bearer). ' +
            'Openbare, actieve pagina’s: `cache-control: public`; anders `private`. ETag/If-None-Match (304) en Range (206) ' +
            'worden ondersteund. Een verlopen handtekening geeft 403 MEDIA_LINK_EXPIRED; vraag de JSON opnieuw op voor verse links.',
          params: mediaBytesParamsSchema,
          querystring: mediaBytesQuerySchema,
          response: {
            200: {
              description: 'De bytes',
              content: {
                'image/webp': { schema: binary },
                'image/jpeg': { schema: binary },
                'video/mp4': { schema: binary },
                'video/webm': { schema: binary },
              },
            },
            206: {
              description: 'Een deel van de bytes (Range)',
              content: { 'video/mp4': { schema: binary }, 'video/webm': { schema: binary } },
            },
            304: {
              description: 'Niet gewijzigd (ETag)',
              content: { 'text/plain': { schema: z.string().max(0) } },
            },
            400: apiErrorSchema,
            401: apiErrorSchema,
            403: apiErrorSchema,
            404: apiErrorSchema,
            416: apiErrorSchema,
            429: apiErrorSchema,
            503: apiErrorSchema,
          },
        },
      },
      async (req, reply) => {
        const res = await bytes.serve({
          mediaId: req.params.mediaId,
          variant: req.params.variant,
          exp: req.query.exp,
          sig: req.query.sig,
          caller: () => req.caller(),
          ifNoneMatch: req.headers['if-none-match'],
          range: req.headers.range,
        });
        reply.headers(res.headers).status(res.status);
        return reply.send(res.body ?? undefined);
      },
    );
  };
