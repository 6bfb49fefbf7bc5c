import * as z from 'zod/mini';
import { emailSchema } from './company.ts';
import { MEMORY_AUTHOR_NAME_MAX, MEMORY_TEXT_MAX, MEMORY_YEAR_LABEL_MAX, cleanPlainText } from './memory.ts';
import { personNameChecks } from './person-name.ts';

/** How long the confirmation link in the mail to a visitor works. */
export const VISITOR_MEMORY_LINK_DAYS = 7;
/** Memories one connection may send in an hour (the address's own limit is the mail outbox's). */
export const VISITOR_MEMORY_RATE_LIMIT = { max: 5, windowMinutes: 60 } as const;

/**
 * POST /memorial/{memorialId}/visitor-memories: a visitor of a public page, without an account. Kept out of
 * sight until the address confirms it, then in the family's moderation queue. With one photo: the same fields
 * as multipart/form-data, then the file `media` (a photo only, as a member's: MEDIA_IMAGE_MAX_BYTES).
 */
export const visitorMemoryCreateSchema = z.object({
  name: z
    .string({ error: 'Vul je naam in' })
    .check(
      z.trim(),
      z.minLength(1, 'Vul je naam in'),
      z.maxLength(MEMORY_AUTHOR_NAME_MAX, `Je naam mag maximaal ${MEMORY_AUTHOR_NAME_MAX} tekens zijn`),
      ...personNameChecks(),
    ),
  email: emailSchema,
  yearLabel: z
    .string({ error: 'Jaar of periode is verplicht' })
    .check(
      z.trim(),
      z.minLength(1, 'Jaar of periode is verplicht'),
      z.maxLength(MEMORY_YEAR_LABEL_MAX, `Jaar of periode mag maximaal ${MEMORY_YEAR_LABEL_MAX} tekens zijn`),
    ),
  text: z.pipe(
    z.pipe(z.string({ error: 'Schrijf je herinnering' }), z.transform(cleanPlainText)),
    z
      .string()
      .check(
        z.minLength(1, 'Schrijf je herinnering'),
        z.maxLength(MEMORY_TEXT_MAX, `Je herinnering mag maximaal ${MEMORY_TEXT_MAX} tekens zijn`),
      ),
  ),
});
export type VisitorMemoryCreate = z.input<typeof visitorMemoryCreateSchema>;

export const visitorMemoryResultSchema = z.object({
  pending: z
    .literal(true)
    .check(z.describe('Er is een mail met een bevestigingslink naar het adres gestuurd')),
});
