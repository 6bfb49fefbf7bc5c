import * as z from 'zod/mini';

/**
 * The memory presentation (docs/keepsakes.md). Every plan: the browser slideshow with optional
 * music the family uploads. Premium (`advancedVideo`): the slides chosen and ordered with captions, the
 * time per slide, a title and closing slide, and an MP4 export rendered by a background job.
 */
export const PRESENTATION_MUSIC_MAX_BYTES = 20 * 1024 * 1024;
/** The longest music accepted (a presentation loops it). */
export const PRESENTATION_MUSIC_MAX_SECONDS = 30 * 60;
export const presentationMusicTypes = ['audio/mpeg', 'audio/mp4', 'audio/aac', 'audio/ogg'] as const;
export const PRESENTATION_SLIDES_MAX = 200;
export const PRESENTATION_CAPTION_MAX_CHARS = 200;
export const PRESENTATION_TITLE_MAX_CHARS = 120;
export const PRESENTATION_SECONDS_MIN = 3;
export const PRESENTATION_SECONDS_MAX = 30;
export const PRESENTATION_SECONDS_DEFAULT = 7;
/** How long a mailed video link (and the video) stays valid. */
export const PRESENTATION_VIDEO_TTL_DAYS = 14;
export const presentationResolutions = ['1080p', '720p'] as const;
export type PresentationResolution = (typeof presentationResolutions)[number];

export const presentationErrorCodes = {
  /** A Premium part (the builder, the MP4 export) asked for on a page without `advancedVideo`. */
  premiumOnly: 'PLAN_FEATURE_UNAVAILABLE',
  /** An export is already being rendered for this page. */
  videoBusy: 'PRESENTATION_VIDEO_BUSY',
  videoLinkInvalid: 'PRESENTATION_VIDEO_LINK_INVALID',
  videoLinkExpired: 'PRESENTATION_VIDEO_LINK_EXPIRED',
  /** Signed in as someone who does not manage the page. */
  videoNotYours: 'PRESENTATION_VIDEO_NOT_YOURS',
} as const;

export const presentationMusicSchema = z.object({
  id: z.uuid(),
  /** Signed for a private page (about an hour); reload the presentation for a new one. */
  url: z.string(),
  contentType: z.string(),
  fileName: z.nullable(z.string()),
  durationMs: z.number(),
  sizeBytes: z.number(),
});
export type PresentationMusic = z.infer<typeof presentationMusicSchema>;

export const presentationSlideKinds = ['photo', 'memory'] as const;
export const presentationSlideSchema = z.object({
  kind: z.enum(presentationSlideKinds, { error: 'Soort dia is ongeldig' }),
  id: z.uuid({ error: 'Dia verwijst niet naar een foto of herinnering' }),
  caption: z._default(
    z.nullable(
      z
        .string({ error: 'Onderschrift is ongeldig' })
        .check(
          z.maxLength(
            PRESENTATION_CAPTION_MAX_CHARS,
            `Een onderschrift mag maximaal ${PRESENTATION_CAPTION_MAX_CHARS} tekens zijn`,
          ),
        ),
    ),
    null,
  ),
});
export type PresentationSlide = z.infer<typeof presentationSlideSchema>;

const shortText = (label: string) =>
  z._default(
    z.nullable(
      z
        .string({ error: `${label} is ongeldig` })
        .check(
          z.maxLength(
            PRESENTATION_TITLE_MAX_CHARS,
            `${label} mag maximaal ${PRESENTATION_TITLE_MAX_CHARS} tekens zijn`,
          ),
        ),
    ),
    null,
  );

/** The Premium builder's choices, saved per page (PUT replaces them). */
export const presentationSettingsUpdateSchema = z.object({
  slides: z
    .array(presentationSlideSchema, { error: 'Kies de dia’s' })
    .check(
      z.minLength(1, 'Kies minstens één dia'),
      z.maxLength(PRESENTATION_SLIDES_MAX, `Maximaal ${PRESENTATION_SLIDES_MAX} dia’s`),
    ),
  secondsPerSlide: z
    .int({ error: 'Tijd per dia moet een heel aantal seconden zijn' })
    .check(
      z.gte(PRESENTATION_SECONDS_MIN, `Een dia staat minstens ${PRESENTATION_SECONDS_MIN} seconden`),
      z.lte(PRESENTATION_SECONDS_MAX, `Een dia staat hoogstens ${PRESENTATION_SECONDS_MAX} seconden`),
    ),
  /** The title slide's heading; null: the name. */
  titleText: shortText('De titel'),
  /** The closing slide's line above the name; null: 'In liefdevolle herinnering aan'. */
  closingText: shortText('De slottekst'),
});
export type PresentationSettingsUpdate = z.infer<typeof presentationSettingsUpdateSchema>;

export const presentationSettingsSchema = z.object({
  slides: z.array(presentationSlideSchema),
  secondsPerSlide: z.number(),
  titleText: z.nullable(z.string()),
  closingText: z.nullable(z.string()),
  updatedAt: z.string(),
});
export type PresentationSettings = z.infer<typeof presentationSettingsSchema>;

/** What the slideshow and the builder need: the music, the Premium choices (when the plan has them). */
export const presentationInfoSchema = z.object({
  memorialId: z.uuid(),
  music: z.nullable(presentationMusicSchema),
  /** Null when none were saved, or when the page's plan has no `advancedVideo` (then the automatic order). */
  settings: z.nullable(presentationSettingsSchema),
  advancedVideo: z
    .boolean()
    .check(z.describe('Of het abonnement de uitgebreide presentatie en de video heeft')),
  canEdit: z.boolean().check(z.describe('Eigenaar of redacteur')),
  videoAndMusic: z
    .boolean()
    .check(
      z.describe('Of deze server muziek en de video (MP4) kan verwerken (ffmpeg); anders staan die uit'),
    ),
});
export type PresentationInfo = z.infer<typeof presentationInfoSchema>;

export const presentationVideoStatuses = ['none', 'queued', 'rendering', 'ready', 'failed'] as const;
export const presentationVideoStateSchema = z.object({
  status: z.enum(presentationVideoStatuses),
  resolution: z.nullable(z.enum(presentationResolutions)),
  /** 0..1 while rendering. */
  progress: z.number(),
  requestedAt: z.nullable(z.string()),
  downloadUrl: z.nullable(z.string()),
  expiresAt: z.nullable(z.string()),
  sizeBytes: z.nullable(z.number()),
  durationMs: z.nullable(z.number()),
  /** Dutch, when `status` is 'failed'. */
  error: z.nullable(z.string()),
});
export type PresentationVideoState = z.infer<typeof presentationVideoStateSchema>;

export const presentationVideoRequestSchema = z.object({
  resolution: z._default(
    z.enum(presentationResolutions, { error: 'Kies 1080p of 720p' }),
    '1080p' as PresentationResolution,
  ),
});

export const presentationFileParamsSchema = z.object({
  fileId: z.string().check(z.maxLength(100), z.describe('UUID van het bestand')),
});
export const presentationFileQuerySchema = z.object({
  exp: z.optional(z.string().check(z.maxLength(20))).check(z.describe('Vervaltijd (Unix-seconden)')),
  sig: z.optional(z.string().check(z.maxLength(100))).check(z.describe('Handtekening van de link')),
});
