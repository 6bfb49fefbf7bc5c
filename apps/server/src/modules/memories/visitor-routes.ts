import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import multipart from '@fastify/multipart';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiErrorSchema,
  apiPaths,
  errorCodes,
  MEDIA_IMAGE_MAX_BYTES,
  MEMORY_TEXT_MAX,
  mediaImageTypes,
  memorialIdParamSchema,
  routes,
  VISITOR_MEMORY_RATE_LIMIT,
  visitorMemoryCreateSchema,
  visitorMemoryResultSchema,
} from '@aandenken/contract';
import { AppError, badRequest } from '../../lib/errors.ts';
import { imageTooLarge, receiveUpload, type UploadAcceptance } from '../../lib/media/upload.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { visitorConfirmPage } from './visitor-page.ts';
import { visitorMemoryService, type VisitorMemoryDeps } from './visitor-service.ts';

/** A photo only (no video, no music), as large as a member's photo. */
const photoOnly: UploadAcceptance = {
  accepts: (t) => (mediaImageTypes as readonly string[]).includes(t),
  maxBytes: MEDIA_IMAGE_MAX_BYTES,
  tooLarge: imageTooLarge,
  unsupported: () =>
    new AppError(
      415,
      errorCodes.unsupportedMediaType,
      'Dit bestand kunnen we niet gebruiken. Kies een foto (JPEG, PNG, WebP, AVIF of GIF); een foto van een iPhone (HEIC) kun je bij het delen als ‘Meest compatibel’ bewaren.',
      { media: 'Alleen een foto (JPEG, PNG, WebP, AVIF of GIF)' },
    ),
};
/** The four text fields (the memory's text up to 4 bytes a character) and one photo. */
const photoMultipartLimits = {
  fileSize: MEDIA_IMAGE_MAX_BYTES + 1,
  files: 1,
  fields: 4,
  fieldSize: MEMORY_TEXT_MAX * 4,
  fieldNameSize: 50,
  parts: 5,
  headerPairs: 50,
};
const PHOTO_MAX_DECLARED_BYTES = MEDIA_IMAGE_MAX_BYTES + photoMultipartLimits.fieldSize + 64 * 1024;

/** JSON is checked by the schema; a multipart body (with a photo) is read and checked in the handler. */
function jsonOrMultipart<T>(route: FastifyRouteSchemaDef<T>) {
  const zod = validatorCompiler(route as unknown as FastifyRouteSchemaDef<z.ZodType>);
  return route.httpPart === 'body' ? (data: unknown) => (data == null ? { value: data } : zod(data)) : zod;
}

/** The API: a visitor of a public page leaves a memory (below the API prefix, with the other routes). */
export const visitorMemoryRoutes =
  (deps: VisitorMemoryDeps): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = visitorMemoryService(deps);
    const tmpDir = path.join(deps.config.DATA_DIR, 'tmp');
    // Multipart only in this plugin: the same route takes the memory with a photo.
    await app.register(multipart, { limits: photoMultipartLimits, throwFileSizeLimit: true });
    app.post(
      apiPaths.visitorMemory.pattern,
      {
        validatorCompiler: jsonOrMultipart,
        // A declared body larger than a photo and the text is refused before any of it is read.
        onRequest: async (req) => {
          if (Number(req.headers['content-length']) > PHOTO_MAX_DECLARED_BYTES) throw imageTooLarge();
        },
        config: {
          allowAnonymous: true,
          rateLimit: {
            max: VISITOR_MEMORY_RATE_LIMIT.max,
            timeWindow: `${VISITOR_MEMORY_RATE_LIMIT.windowMinutes} minutes`,
          },
        },
        schema: {
          tags: ['memories'],
          summary: 'Herinnering van een bezoeker (openbare pagina, zonder account)',
          description:
            'Alleen op een openbare pagina waar de familie het aanzette (anders 403 VISITOR_MEMORIES_OFF; een besloten pagina: 404). ' +
            'Er gaat een mail met een bevestigingslink (7 dagen, één keer) naar het adres; pas na bevestiging komt de herinnering ' +
            'in de wachtrij van de familie. Het adres is nooit openbaar. ' +
            `Per adres ${VISITOR_MEMORY_RATE_LIMIT.max} per uur (429), en een beperkt aantal mails per e-mailadres per dag (429). ` +
            'Met één foto: multipart/form-data met eerst dezelfde tekstvelden, dan het bestand `media` (JPEG, PNG, WebP, AVIF of GIF, ' +
            'tot 20 MB en 50 MP). Het opgegeven type, de eerste bytes en een volledige decodering moeten overeenkomen; de foto krijgt ' +
            'dezelfde formaten als de foto’s van leden, zonder metadata, en is voor niemand te zien voordat de familie de herinnering ' +
            'goedkeurt (wel voor de familie in de wachtrij). 413 bij een te grote foto, 415 bij iets anders dan een foto; dan wordt ' +
            'niets bewaard, ook de herinnering niet.',
          consumes: ['application/json', 'multipart/form-data'],
          params: memorialIdParamSchema,
          body: visitorMemoryCreateSchema,
          response: { 201: visitorMemoryResultSchema, ...errorResponses, 415: apiErrorSchema },
        },
      },
      async (req, reply) => {
        const { memorialId } = req.params;
        if (!req.isMultipart()) {
          if (req.body == null) throw badRequest('De inhoud ontbreekt of is geen JSON-object.');
          return reply.status(201).send(await service.submit(memorialId, req.body));
        }
        const upload = await receiveUpload(req, {
          tmpDir,
          fieldsSchema: visitorMemoryCreateSchema,
          authorize: () => service.authorizePhoto(memorialId),
          accept: photoOnly,
        });
        try {
          return reply.status(201).send(await service.submit(memorialId, upload.fields, upload.file));
        } finally {
          await upload.discard();
        }
      },
    );
  };

/** The page the link in the mail opens: plain HTML from the server, no script needed. */
export const visitorMemoryConfirmRoute =
  (deps: VisitorMemoryDeps): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = visitorMemoryService(deps);
    app.get(
      routes.visitorMemoryConfirm,
      {
        config: { logSecrets: { query: ['sig'] }, rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          hide: true,
          querystring: z.object({
            id: z.string().max(100).optional(),
            exp: z.string().max(20).optional(),
            sig: z.string().max(100).optional(),
          }),
        },
      },
      async (req, reply) => {
        const result = await service.confirm(req.query.id ?? '', req.query.exp, req.query.sig);
        const { status, html } = visitorConfirmPage(result);
        return reply
          .status(status)
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('x-robots-tag', 'noindex')
          .send(html);
      },
    );
  };
