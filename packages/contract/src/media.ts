import * as z from 'zod/mini';
import { pageOf, pageRequestShape, uuidField } from './memorial.ts';

/**
 * Photos and short videos on a memorial (its gallery) and on a memory. Images are decoded, turned
 * upright, stripped of all metadata and re-encoded by the server; videos are kept as uploaded
 * (there is no transcoder), after their container has been checked.
 */
export const MEDIA_IMAGE_MAX_BYTES = 20 * 1024 * 1024;
export const MEDIA_VIDEO_MAX_BYTES = 100 * 1024 * 1024;
export const MEDIA_MAX_PIXELS = 50_000_000;
/** Widths the server renders (never wider than the original), each as WebP and as a JPEG fallback. */
export const MEDIA_IMAGE_WIDTHS = [320, 640, 1280, 2048] as const;
/** The width made while the upload waits; the others follow in the background. */
export const MEDIA_WEB_WIDTH = 1280;
export const MEDIA_CAPTION_MAX = 500;
/** Bounds that keep every list of media finite. */
export const MEDIA_GALLERY_MAX = 500;
export const MEDIA_PER_MEMORY_MAX = 10;

export const mediaImageTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;
export const mediaVideoTypes = ['video/mp4', 'video/webm'] as const;
export const mediaAcceptedTypes = [...mediaImageTypes, ...mediaVideoTypes] as const;
/** For `<input type="file" accept>`. */
export const mediaAcceptAttribute = mediaAcceptedTypes.join(',');
/** The same for a server without ffmpeg (video and music switched off): photos only. */
export const mediaImageAcceptAttribute = mediaImageTypes.join(',');
/** What the server answers, and the screens say, when video and music are switched off (no ffmpeg). */
export const videoAndMusicOffMessage =
  'Video’s en muziek uploaden kan nu niet: deze server heeft geen ffmpeg. Foto’s uploaden kan wel.';

export const mediaKinds = ['image', 'video'] as const;
export type MediaKind = (typeof mediaKinds)[number];
export const mediaKindLabels: Record<MediaKind, string> = { image: 'Foto', video: 'Video' };

/** processing: the web-sized image exists, other sizes are being made; failed: they could not be made. */
export const mediaStatuses = ['processing', 'ready', 'failed'] as const;
export type MediaStatus = (typeof mediaStatuses)[number];

export const mediaErrorCodes = {
  mediaNotFound: 'MEDIA_NOT_FOUND',
  mediaLimitReached: 'MEDIA_LIMIT_REACHED',
  mediaLinkExpired: 'MEDIA_LINK_EXPIRED',
  mediaRangeNotSatisfiable: 'RANGE_NOT_SATISFIABLE',
  memorialArchived: 'MEMORIAL_ARCHIVED',
} as const;

const captionField = z.pipe(
  z
    .string({ error: 'Onderschrift is ongeldig' })
    .check(
      z.trim(),
      z.maxLength(MEDIA_CAPTION_MAX, `Onderschrift mag maximaal ${MEDIA_CAPTION_MAX} tekens zijn`),
    ),
  z.transform((s: string) => (s === '' ? null : s)),
);

const fileField = z
  .file()
  .check(
    z.describe(
      `Foto (JPEG, PNG, WebP, AVIF of GIF; max ${MEDIA_IMAGE_MAX_BYTES / 1024 / 1024} MB en ${MEDIA_MAX_PIXELS / 1_000_000} megapixel) ` +
        `of video (MP4 of WebM; max ${MEDIA_VIDEO_MAX_BYTES / 1024 / 1024} MB). Het opgegeven type, de inhoud en de decodering moeten overeenkomen.`,
    ),
  );

/** POST /memorial-media (multipart/form-data). Send the text fields before the file. */
export const memorialMediaUploadSchema = z.object({
  memorialId: uuidField('Gedenkpagina'),
  caption: z.optional(captionField),
  media: fileField,
});
export const memorialMediaUploadFieldsSchema = z.omit(memorialMediaUploadSchema, { media: true });

/** POST /memory/medias (multipart/form-data). Send the text field before the file. */
export const memoryMediaUploadSchema = z.object({
  memoryId: uuidField('Herinnering'),
  media: fileField,
});
export const memoryMediaUploadFieldsSchema = z.omit(memoryMediaUploadSchema, { media: true });

export const mediaVariantSchema = z.object({
  name: z.string().check(z.describe("'w640.webp', 'w640.jpg', … of 'original' (video)")),
  contentType: z.string(),
  width: z.nullable(z.int()),
  height: z.nullable(z.int()),
  sizeBytes: z.int(),
  url: z.string().check(z.describe('Direct bruikbaar in <img src> of <video src>, zonder headers')),
});
export type MediaVariant = z.infer<typeof mediaVariantSchema>;

export const mediaItemSchema = z.object({
  id: z.uuid(),
  memorialId: z.uuid(),
  memoryId: z.nullable(z.uuid()).check(z.describe('Gezet bij media van een herinnering; null in de galerij')),
  kind: z.enum(mediaKinds),
  status: z.enum(mediaStatuses),
  contentType: z.string().check(z.describe('Type van het geüploade bestand')),
  caption: z.nullable(z.string()),
  position: z.int().check(z.describe('Volgorde in de galerij of bij de herinnering (oplopend)')),
  width: z.nullable(z.int()).check(z.describe('Breedte na rechtop zetten; null bij video')),
  height: z.nullable(z.int()),
  sizeBytes: z.int().check(z.describe('Grootte van het geüploade bestand')),
  url: z.string().check(z.describe('Standaardweergave: de WebP van webformaat, of de video zelf')),
  fallbackUrl: z
    .nullable(z.string())
    .check(z.describe('JPEG-variant van url voor oudere browsers (zodra die er is)')),
  srcSet: z
    .nullable(z.object({ webp: z.string(), jpeg: z.string() }))
    .check(z.describe('Voor <picture>/<img srcset>: alle beschikbare breedtes; null bij video')),
  variants: z.array(mediaVariantSchema),
  urlsExpireAt: z
    .nullable(z.iso.datetime())
    .check(z.describe('Wanneer de ondertekende links verlopen (besloten pagina); null als ze niet verlopen')),
  ownUpload: z.boolean().check(z.describe('Door de aanvrager geüpload')),
  createdAt: z.iso.datetime(),
});
export type MediaItem = z.infer<typeof mediaItemSchema>;

export const mediaListSchema = z.object({ items: z.array(mediaItemSchema) });

/** POST /memorial-media/query: the gallery in its order, optionally only photos or only videos. */
export const memorialMediaQuerySchema = z.object({
  memorialId: uuidField('Gedenkpagina'),
  type: z.optional(z.enum(mediaKinds, { error: "Kies 'image' of 'video'" })),
  ...pageRequestShape,
});
export type MemorialMediaQuery = z.input<typeof memorialMediaQuerySchema>;
export const memorialMediaPageSchema = pageOf(mediaItemSchema);

/** PUT /memorial-media/reorder: every gallery item of the memorial exactly once, in the new order. */
export const memorialMediaReorderSchema = z.object({
  memorialId: uuidField('Gedenkpagina'),
  orderedIds: z
    .array(uuidField('Media'), { error: 'Geef de nieuwe volgorde op' })
    .check(
      z.minLength(1, 'Geef de nieuwe volgorde op'),
      z.maxLength(MEDIA_GALLERY_MAX, `Maximaal ${MEDIA_GALLERY_MAX} items`),
    ),
});
export type MemorialMediaReorder = z.input<typeof memorialMediaReorderSchema>;

/** PUT /memorial-media/{id}: the caption; null or empty removes it. */
export const mediaCaptionUpdateSchema = z.object({ caption: z.nullable(captionField) });

export const mediaDeletedSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });

/** GET /media/{mediaId}/{variant}: `exp` and `sig` come with the URLs in the JSON answers. */
export const mediaBytesParamsSchema = z.object({
  mediaId: z.string().check(z.maxLength(100), z.describe('UUID')),
  variant: z.string().check(z.maxLength(40), z.describe("'w640.webp', 'w640.jpg', … of 'original'")),
});
export const mediaBytesQuerySchema = z.object({
  exp: z
    .optional(z.string().check(z.maxLength(20)))
    .check(z.describe('Vervaltijd (Unix-seconden) van een ondertekende link')),
  sig: z
    .optional(z.string().check(z.maxLength(100)))
    .check(z.describe('Handtekening van een ondertekende link')),
});
