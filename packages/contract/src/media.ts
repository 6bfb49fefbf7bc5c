import { z } from 'zod';
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

const captionField = z
  .string({ error: 'Onderschrift is ongeldig' })
  .trim()
  .max(MEDIA_CAPTION_MAX, `Onderschrift mag maximaal ${MEDIA_CAPTION_MAX} tekens zijn`)
  .transform((s) => (s === '' ? null : s));

const fileField = z
  .file()
  .describe(
    `Foto (JPEG, PNG, WebP, AVIF of GIF; max ${MEDIA_IMAGE_MAX_BYTES / 1024 / 1024} MB en ${MEDIA_MAX_PIXELS / 1_000_000} megapixel) ` +
      `of video (MP4 of WebM; max ${MEDIA_VIDEO_MAX_BYTES / 1024 / 1024} MB). Het opgegeven type, de inhoud en de decodering moeten overeenkomen.`,
  );

/** POST /memorial-media (multipart/form-data). Send the text fields before the file. */
export const memorialMediaUploadSchema = z.object({
  memorialId: uuidField('Gedenkpagina'),
  caption: captionField.optional(),
  media: fileField,
});
export const memorialMediaUploadFieldsSchema = memorialMediaUploadSchema.omit({ media: true });

/** POST /memory/medias (multipart/form-data). Send the text field before the file. */
export const memoryMediaUploadSchema = z.object({
  memoryId: uuidField('Herinnering'),
  media: fileField,
});
export const memoryMediaUploadFieldsSchema = memoryMediaUploadSchema.omit({ media: true });

export const mediaVariantSchema = z.object({
  name: z.string().describe("'w640.webp', 'w640.jpg', … of 'original' (video)"),
  contentType: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  sizeBytes: z.number().int(),
  url: z.string().describe('Direct bruikbaar in <img src> of <video src>, zonder headers'),
});
export type MediaVariant = z.infer<typeof mediaVariantSchema>;

export const mediaItemSchema = z.object({
  id: z.uuid(),
  memorialId: z.uuid(),
  memoryId: z.uuid().nullable().describe('Gezet bij media van een herinnering; null in de galerij'),
  kind: z.enum(mediaKinds),
  status: z.enum(mediaStatuses),
  contentType: z.string().describe('Type van het geüploade bestand'),
  caption: z.string().nullable(),
  position: z.number().int().describe('Volgorde in de galerij of bij de herinnering (oplopend)'),
  width: z.number().int().nullable().describe('Breedte na rechtop zetten; null bij video'),
  height: z.number().int().nullable(),
  sizeBytes: z.number().int().describe('Grootte van het geüploade bestand'),
  url: z.string().describe('Standaardweergave: de WebP van webformaat, of de video zelf'),
  fallbackUrl: z.string().nullable().describe('JPEG-variant van url voor oudere browsers (zodra die er is)'),
  srcSet: z
    .object({ webp: z.string(), jpeg: z.string() })
    .nullable()
    .describe('Voor <picture>/<img srcset>: alle beschikbare breedtes; null bij video'),
  variants: z.array(mediaVariantSchema),
  urlsExpireAt: z.iso
    .datetime()
    .nullable()
    .describe('Wanneer de ondertekende links verlopen (besloten pagina); null als ze niet verlopen'),
  ownUpload: z.boolean().describe('Door de aanvrager geüpload'),
  createdAt: z.iso.datetime(),
});
export type MediaItem = z.infer<typeof mediaItemSchema>;

export const mediaListSchema = z.object({ items: z.array(mediaItemSchema) });

/** POST /memorial-media/query: the gallery in its order, optionally only photos or only videos. */
export const memorialMediaQuerySchema = z.object({
  memorialId: uuidField('Gedenkpagina'),
  type: z.enum(mediaKinds, { error: "Kies 'image' of 'video'" }).optional(),
  ...pageRequestShape,
});
export type MemorialMediaQuery = z.input<typeof memorialMediaQuerySchema>;
export const memorialMediaPageSchema = pageOf(mediaItemSchema);

/** PUT /memorial-media/reorder: every gallery item of the memorial exactly once, in the new order. */
export const memorialMediaReorderSchema = z.object({
  memorialId: uuidField('Gedenkpagina'),
  orderedIds: z
    .array(uuidField('Media'), { error: 'Geef de nieuwe volgorde op' })
    .min(1, 'Geef de nieuwe volgorde op')
    .max(MEDIA_GALLERY_MAX, `Maximaal ${MEDIA_GALLERY_MAX} items`),
});
export type MemorialMediaReorder = z.input<typeof memorialMediaReorderSchema>;

/** PUT /memorial-media/{id}: the caption; null or empty removes it. */
export const mediaCaptionUpdateSchema = z.object({ caption: captionField.nullable() });

export const mediaDeletedSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });

/** GET /media/{mediaId}/{variant}: `exp` and `sig` come with the URLs in the JSON answers. */
export const mediaBytesParamsSchema = z.object({
  mediaId: z.string().max(100).describe('UUID'),
  variant: z.string().max(40).describe("'w640.webp', 'w640.jpg', … of 'original'"),
});
export const mediaBytesQuerySchema = z.object({
  exp: z.string().max(20).optional().describe('Vervaltijd (Unix-seconden) van een ondertekende link'),
  sig: z.string().max(100).optional().describe('Handtekening van een ondertekende link'),
});
