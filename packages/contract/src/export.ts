import * as z from 'zod/mini';

/** How long a mailed export link (and the prepared zip) stays valid. */
export const EXPORT_LINK_TTL_DAYS = 7;

export const exportStatuses = ['none', 'preparing', 'ready', 'failed'] as const;

/** The state of the newest export of a memorial (owners) or of one's own data. */
export const exportStateSchema = z.object({
  status: z.enum(exportStatuses),
  requestedAt: z.nullable(z.string()),
  /** Set when `status` is 'ready': a signed link that works until `expiresAt`. */
  downloadUrl: z.nullable(z.string()),
  expiresAt: z.nullable(z.string()),
  sizeBytes: z.nullable(z.number()),
});
export type ExportState = z.infer<typeof exportStateSchema>;

export const exportDownloadParamsSchema = z.object({
  exportId: z.string().check(z.maxLength(100), z.describe('UUID van de export')),
});
export const exportDownloadQuerySchema = z.object({
  exp: z
    .optional(z.string().check(z.maxLength(20)))
    .check(z.describe('Vervaltijd (Unix-seconden) van de ondertekende link')),
  sig: z.optional(z.string().check(z.maxLength(100))).check(z.describe('Handtekening van de link')),
});
