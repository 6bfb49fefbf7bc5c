import * as z from 'zod/mini';

/** Every error the API returns has this shape; `code` is stable, `message` is Dutch and safe to show. */
export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  fields: z.optional(z.record(z.string(), z.string())),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const errorCodes = {
  validation: 'VALIDATION_ERROR',
  notFound: 'NOT_FOUND',
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  conflict: 'CONFLICT',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  rateLimited: 'RATE_LIMITED',
  internal: 'INTERNAL_ERROR',
  /** The identity provider (its discovery or keys) could not be reached; the token was not judged. */
  identityUnavailable: 'IDENTITY_UNAVAILABLE',
  memorialNotFound: 'MEMORIAL_NOT_FOUND',
  accessCodeInvalid: 'ACCESS_CODE_INVALID',
  /** Too many wrong codes from all addresses: solve the proof-of-work challenge in the answer first. */
  challengeRequired: 'CHALLENGE_REQUIRED',
  /** The database cannot be reached just now (refused, reset or ended connection): try again later. */
  databaseUnavailable: 'DATABASE_UNAVAILABLE',
  /** The server is too busy (event loop delay or memory above their limits): try again later. */
  overloaded: 'OVERLOADED',
  /** The server is stopping (a restart); try again in a moment. */
  shuttingDown: 'SHUTTING_DOWN',
  /** No room left to store the file (disk full); nothing was kept. */
  storageFull: 'STORAGE_FULL',
  /** The media store (disk or S3 bucket) cannot be reached or fails just now; try again later. */
  storageUnavailable: 'STORAGE_UNAVAILABLE',
  /** This Idempotency-Key came before with another request. */
  idempotencyKeyReused: 'IDEMPOTENCY_KEY_REUSED',
  /** The request with this Idempotency-Key is still being handled. */
  idempotencyInProgress: 'IDEMPOTENCY_IN_PROGRESS',
  /** Enough heavy work (video renders, exports, books) is already queued for the memorial or the account. */
  jobLimitReached: 'JOB_LIMIT_REACHED',
  /** The server has no ffmpeg: video and music uploads and the presentation's MP4 are switched off. */
  videoAndMusicOff: 'VIDEO_AND_MUSIC_OFF',
} as const;
export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];
