import * as z from 'zod/mini';

/**
 * The printed book (Premium; docs/keepsakes.md 'Printed book'): a print-ready A5 PDF rendered
 * in the background. 'none' when no book was asked for yet.
 */
export const printedBookStatuses = ['none', 'queued', 'rendering', 'ready', 'failed'] as const;
export type PrintedBookStatus = (typeof printedBookStatuses)[number];

/** The resolution photos are prepared for; a photo whose original is smaller gets a warning. */
export const PRINTED_BOOK_DPI = 300;

export const printedBookRequestSchema = z.object({
  bleed: z._default(z.boolean({ error: 'Afloop moet waar of onwaar zijn' }), false),
  cropMarks: z._default(z.boolean({ error: 'Snijtekens moet waar of onwaar zijn' }), false),
});
export type PrintedBookRequest = z.infer<typeof printedBookRequestSchema>;

export const printedBookWarningSchema = z.object({
  mediaId: z.string(),
  /** Where the photo is: 'Omslag', or the memory's year label and author. */
  where: z.string(),
  widthPx: z.number(),
  heightPx: z.number(),
  /** The resolution the photo reaches at its printed size. */
  dpi: z.number(),
  message: z.string(),
});
export type PrintedBookWarning = z.infer<typeof printedBookWarningSchema>;

export const printedBookStateSchema = z.object({
  memorialId: z.string(),
  /** Whether the page's plan includes the printed book (Premium and the trial). */
  available: z.boolean(),
  status: z.enum(printedBookStatuses),
  /** 0–100 while rendering. */
  progress: z.number(),
  bleed: z.boolean(),
  cropMarks: z.boolean(),
  requestedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
  pageCount: z.nullable(z.number()),
  sizeBytes: z.nullable(z.number()),
  warnings: z.array(printedBookWarningSchema),
  /** When ready: a signed link (1 hour) to the PDF, shown inline (preview). */
  previewUrl: z.nullable(z.string()),
  /** The same as an attachment. */
  downloadUrl: z.nullable(z.string()),
});
export type PrintedBookState = z.infer<typeof printedBookStateSchema>;

export const printedBookFileParamsSchema = z.object({
  bookId: z.string().check(z.maxLength(100), z.describe('UUID van het boek')),
});
export const printedBookFileQuerySchema = z.object({
  exp: z.optional(z.string().check(z.maxLength(20))),
  sig: z.optional(z.string().check(z.maxLength(100))),
  download: z.optional(z.enum(['1'])).check(z.describe('1: als bijlage in plaats van in de browser')),
});
