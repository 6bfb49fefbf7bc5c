import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import multipart from '@fastify/multipart';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import * as zm from 'zod/mini';
import {
  apiErrorSchema,
  apiPaths,
  errorCodes,
  idParamSchema,
  PRESENTATION_MUSIC_MAX_BYTES,
  presentationFileParamsSchema,
  presentationFileQuerySchema,
  presentationInfoSchema,
  presentationMusicSchema,
  presentationMusicTypes,
  presentationSettingsSchema,
  presentationSettingsUpdateSchema,
  presentationVideoRequestSchema,
  presentationVideoStateSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { AppError } from '../../lib/errors.ts';
import { audioUnsupported } from '../../lib/media/audio.ts';
import { normaliseDeclaredType } from '../../lib/media/sniff.ts';
import { receiveUpload, uploadGate, uploadMultipartLimits } from '../../lib/media/upload.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { presentationService } from './service.ts';
import { registerJobs } from '../../lib/jobs/typed-jobs.ts';
import { signedFileRoute } from '../../lib/signed-file-route.ts';

const tags = ['presentation'];
const security = [{ bearer: [] }];
/** Declared types browsers give music files (the content decides in the end). */
const musicDeclared = new Set<string>([
  ...presentationMusicTypes,
  'audio/mp3',
  'audio/x-m4a',
  'audio/m4a',
  'audio/vorbis',
  'audio/opus',
  'application/ogg',
]);

function documentOnlyBody<T>(route: FastifyRouteSchemaDef<T>) {
  return route.httpPart === 'body'
    ? () => ({ value: undefined })
    : validatorCompiler(route as unknown as FastifyRouteSchemaDef<z.ZodType>);
}

/** The memory presentation (docs/keepsakes.md): music (every plan), the builder and the MP4 export (Premium). */
export const presentationRoutes =
  (deps: Pick<Deps, 'db' | 'config' | 'storage' | 'outbox' | 'queue'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tmpDir = path.join(deps.config.DATA_DIR, 'tmp');
    const service = presentationService({
      ...deps,
      ffmpegPath: deps.config.ffmpegPath,
      log: fastify.log,
    });

    registerJobs(deps.queue, service.jobs());

    app.get(
      apiPaths.presentation.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags,
          security,
          summary: 'De presentatie: muziek en (Premium) de gekozen dia’s',
          description:
            'Voor wie de gedenkpagina mag zien. De muziek-URL is bij een besloten pagina ondertekend (ongeveer een uur geldig). `settings` is alleen gevuld als het abonnement `advancedVideo` heeft.',
          params: idParamSchema,
          response: { 200: presentationInfoSchema, ...errorResponses },
        },
      },
      async (req) => service.info(await req.caller(), req.params.id),
    );

    await app.register(async (uploads) => {
      await uploads.register(multipart, { limits: uploadMultipartLimits, throwFileSizeLimit: true });
      uploads.addHook('onRequest', uploadGate(deps.config.UPLOADS_PER_CALLER));
      const up = uploads.withTypeProvider<ZodTypeProvider>();
      up.post(
        apiPaths.presentationMusic.pattern,
        {
          validatorCompiler: documentOnlyBody,
          config: { rateLimit: { max: 30, timeWindow: '1 hour' } },
          schema: {
            tags,
            security,
            summary: 'Muziek bij de presentatie zetten of vervangen (eigenaar, redacteur)',
            description: `multipart/form-data met het bestand \`media\`: MP3, AAC (ook M4A) of Ogg, maximaal ${PRESENTATION_MUSIC_MAX_BYTES / 1024 / 1024} MB en 30 minuten. De eerste bytes, de codec en een volledige decodering moeten kloppen; de muziek wordt zonder hercodering en zonder metadata (tags, hoesfoto) bewaard. 413 te groot of te lang, 415 ander of beschadigd bestand.`,
            consumes: ['multipart/form-data'],
            params: idParamSchema,
            body: z.object({ media: z.string().meta({ format: 'binary' }) }),
            response: { 200: presentationMusicSchema, ...errorResponses, 415: apiErrorSchema },
          },
        },
        async (req) => {
          const caller = await req.caller();
          const memorialId = (req.params as { id: string }).id;
          const upload = await receiveUpload(req, {
            tmpDir,
            fieldsSchema: zm.object({}),
            authorize: () => service.authorizeMusicUpload(caller, memorialId),
            accept: {
              accepts: (t) => musicDeclared.has(normaliseDeclaredType(t)),
              maxBytes: PRESENTATION_MUSIC_MAX_BYTES,
              tooLarge: () =>
                new AppError(
                  413,
                  errorCodes.payloadTooLarge,
                  `Dit muziekbestand is te groot (maximaal ${PRESENTATION_MUSIC_MAX_BYTES / 1024 / 1024} MB).`,
                  { media: 'Bestand te groot' },
                ),
              unsupported: audioUnsupported,
            },
          });
          try {
            return await service.setMusic(caller, memorialId, upload.file);
          } finally {
            await upload.discard();
          }
        },
      );
    });

    app.delete(
      apiPaths.presentationMusic.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'De muziek van de presentatie verwijderen (eigenaar, redacteur)',
          params: idParamSchema,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (req, reply) => {
        await service.removeMusic(await req.caller(), req.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      apiPaths.presentationMusicFile.pattern,
      {
        config: { allowAnonymous: true, logSecrets: { query: ['sig'] } },
        schema: {
          tags,
          security: [{ bearer: [] }, {}] as Record<string, string[]>[],
          summary: 'Het muziekbestand van een presentatie',
          description:
            'Met de ondertekende link uit de presentatie, of voor wie de pagina mag zien. Ondersteunt Range.',
          params: presentationFileParamsSchema,
          querystring: presentationFileQuerySchema,
          response: {
            200: {
              description: 'De muziek',
              content: { 'audio/mpeg': { schema: z.string().meta({ format: 'binary' }) } },
            },
            206: {
              description: 'Een deel van de muziek',
              content: { 'audio/mpeg': { schema: z.string().meta({ format: 'binary' }) } },
            },
            ...errorResponses,
            416: apiErrorSchema,
          },
        },
      },
      async (req, reply) => {
        const file = await service.musicFile({
          fileId: req.params.fileId,
          exp: req.query.exp,
          sig: req.query.sig,
          range: req.headers.range,
          caller: () => req.caller(),
        });
        reply.status(file.status).headers(file.headers);
        return reply.send(file.body as unknown as string);
      },
    );

    app.put(
      apiPaths.presentationSettings.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'De presentatie samenstellen (Premium; eigenaar, redacteur)',
          description:
            'Kies en orden de dia’s (foto’s uit de galerij, gepubliceerde herinneringen) met onderschriften, de tijd per dia, de titel en de slottekst. Zonder `advancedVideo` in het abonnement: 403 PLAN_FEATURE_UNAVAILABLE.',
          params: idParamSchema,
          body: presentationSettingsUpdateSchema,
          response: { 200: presentationSettingsSchema, ...errorResponses },
        },
      },
      async (req) => service.saveSettings(await req.caller(), req.params.id, req.body),
    );

    app.delete(
      apiPaths.presentationSettings.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Terug naar de automatische presentatie (Premium; eigenaar, redacteur)',
          params: idParamSchema,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (req, reply) => {
        await service.resetSettings(await req.caller(), req.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      apiPaths.presentationVideo.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'De stand van de video (MP4) van de presentatie (Premium; eigenaar, redacteur)',
          params: idParamSchema,
          response: { 200: presentationVideoStateSchema, ...errorResponses },
        },
      },
      async (req) => service.videoStateFor(await req.caller(), req.params.id),
    );

    app.post(
      apiPaths.presentationVideo.pattern,
      {
        config: { rateLimit: { max: 10, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'De presentatie als video (MP4) laten maken (Premium; eigenaar, redacteur)',
          description:
            'Een achtergrondtaak maakt een MP4 (H.264/AAC, 1080p of 720p) en mailt een downloadlink die 14 dagen werkt. Loopt er al een, dan komt die terug. Laat het account al genoeg video’s maken: 429 JOB_LIMIT_REACHED, en er wordt niets in de wachtrij gezet.',
          params: idParamSchema,
          body: presentationVideoRequestSchema,
          response: { 202: presentationVideoStateSchema, ...errorResponses, 503: apiErrorSchema },
        },
      },
      async (req, reply) =>
        reply
          .status(202)
          .send(await service.requestVideo(await req.caller(), req.params.id, req.body.resolution)),
    );

    signedFileRoute(fastify, {
      pattern: apiPaths.presentationVideoFile.pattern,
      idParam: 'fileId',
      params: presentationFileParamsSchema,
      querystring: presentationFileQuerySchema,
      tags,
      summary: 'Het MP4-bestand van de presentatie',
      description:
        'Met de ondertekende link uit de mail of het beheerscherm (`exp`, `sig`); zonder inloggen te openen. Wie ingelogd is maar geen eigenaar of redacteur van de pagina is, krijgt 403.',
      contentType: 'video/mp4',
      contentDescription: 'De video',
      open: (o) => service.videoFile({ fileId: o.id, exp: o.exp, sig: o.sig, caller: o.caller }),
    });
  };
