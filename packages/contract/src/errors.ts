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
} as const;
export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];
