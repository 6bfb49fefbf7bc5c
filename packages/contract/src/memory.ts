import * as z from 'zod/mini';
import { mediaItemSchema } from './media.ts';
import { PAGE_LIMIT_DEFAULT, pageOf, pageRequestShape, uuidField } from './memorial.ts';

/**
 * A memory on a memorial's wall. It starts as a concept only its author sees; publishing makes it
 * 'published' when the author may publish (contributor, editor, owner) and 'pending' when the author
 * is a guest, until an editor or owner approves ('published') or rejects it ('rejected').
 */
export const memoryStatuses = ['concept', 'pending', 'published', 'rejected'] as const;
export type MemoryStatus = (typeof memoryStatuses)[number];
export const memoryStatusLabels: Record<MemoryStatus, string> = {
  concept: 'Concept',
  pending: 'Wacht op goedkeuring',
  published: 'Gepubliceerd',
  rejected: 'Afgewezen',
};
/** Statuses an editor or owner may set (moderation). */
export const memoryModerationStatuses = ['published', 'rejected'] as const;
/** Statuses shown to managers (concepts stay private to their author). */
export const memoryManagedStatuses = ['pending', 'published', 'rejected'] as const;

export const MEMORY_YEAR_LABEL_MAX = 40;
export const MEMORY_TEXT_MAX = 5000;
export const MEMORY_AUTHOR_NAME_MAX = 80;
export const MEMORY_WALL_LIMIT_MAX = 50;
/** How many initials of people who loved a memory come with it (the count is always complete). */
export const MEMORY_LOVED_BY_INITIALS_MAX = 5;

export const memoryErrorCodes = {
  memoryNotFound: 'MEMORY_NOT_FOUND',
  memoryInvalidTransition: 'MEMORY_INVALID_TRANSITION',
} as const;

const yearLabelField = z
  .string({ error: 'Jaar of periode is verplicht' })
  .check(
    z.trim(),
    z.minLength(1, 'Jaar of periode is verplicht'),
    z.maxLength(MEMORY_YEAR_LABEL_MAX, `Jaar of periode mag maximaal ${MEMORY_YEAR_LABEL_MAX} tekens zijn`),
    z.describe("Kort label, bijvoorbeeld '1987' of 'Zomer 1990'"),
  );

/** Plain text as people type it: line breaks normalised and kept, other control characters removed, trimmed. */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const controlCharacters = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

export function cleanPlainText(s: string): string {
  return s.replace(/\r\n?/g, '\n').replace(controlCharacters, '').trim();
}

/** Plain text (never HTML). */
const textField = z
  .pipe(
    z.pipe(z.string({ error: 'Tekst is verplicht' }), z.transform(cleanPlainText)),
    z
      .string()
      .check(
        z.minLength(1, 'Tekst is verplicht'),
        z.maxLength(MEMORY_TEXT_MAX, `De herinnering mag maximaal ${MEMORY_TEXT_MAX} tekens zijn`),
      ),
  )
  .check(z.describe(`Platte tekst, maximaal ${MEMORY_TEXT_MAX} tekens`));

const authorNameField = z
  .string({ error: 'Naam is ongeldig' })
  .check(
    z.trim(),
    z.minLength(1, 'Vul je naam in'),
    z.maxLength(MEMORY_AUTHOR_NAME_MAX, `Naam mag maximaal ${MEMORY_AUTHOR_NAME_MAX} tekens zijn`),
  );

/** POST /memories/concept: a draft. Guests (access code) must give the name shown with it. */
export const memoryCreateSchema = z.object({
  memorialId: uuidField('Gedenkpagina'),
  yearLabel: yearLabelField,
  text: textField,
  authorName: z
    .optional(authorNameField)
    .check(z.describe('Verplicht voor gasten met een toegangscode; anders de naam van het account')),
  membersOnly: z._default(z.boolean({ error: 'Kies of alleen leden dit mogen zien' }), false),
});
export type MemoryCreate = z.input<typeof memoryCreateSchema>;

/** PUT /memories: only the fields sent change. */
export const memoryUpdateSchema = z
  .object({
    id: uuidField('Herinnering'),
    yearLabel: z.optional(yearLabelField),
    text: z.optional(textField),
  })
  .check(
    z.refine((v) => v.yearLabel !== undefined || v.text !== undefined, {
      message: 'Wijzig het jaar of de tekst',
      path: ['text'],
    }),
  );
export type MemoryUpdate = z.input<typeof memoryUpdateSchema>;

export const memoryIdBodySchema = z.object({ id: uuidField('Herinnering') });

export const memoryStatusUpdateSchema = z.object({
  id: uuidField('Herinnering'),
  status: z.enum(memoryModerationStatuses, { error: "Kies 'published' of 'rejected'" }),
});

export const memoryPrivacyUpdateSchema = z.object({
  id: uuidField('Herinnering'),
  membersOnly: z.boolean({ error: 'Kies of alleen leden dit mogen zien' }),
});

/** POST /memories/query-memorial: the wall as the caller may see it, newest first. */
export const memoryWallQuerySchema = z.object({
  memorialId: uuidField('Gedenkpagina'),
  ...pageRequestShape,
  limit: z._default(
    z
      .number({ error: 'Aantal moet een getal zijn' })
      .check(
        z.int('Aantal moet een geheel getal zijn'),
        z.gte(1, 'Aantal moet minstens 1 zijn'),
        z.lte(MEMORY_WALL_LIMIT_MAX, `Aantal mag maximaal ${MEMORY_WALL_LIMIT_MAX} zijn`),
      ),
    PAGE_LIMIT_DEFAULT,
  ),
});
export type MemoryWallQuery = z.input<typeof memoryWallQuerySchema>;

/** POST /memories/query-manage: for editors and owners; all but concepts, or one status. */
export const memoryManageQuerySchema = z.object({
  memorialId: uuidField('Gedenkpagina'),
  status: z.optional(z.enum(memoryManagedStatuses, { error: "Kies 'pending', 'published' of 'rejected'" })),
  ...pageRequestShape,
});
export type MemoryManageQuery = z.input<typeof memoryManageQuerySchema>;

/** POST /memories/query-own: the caller's memories (all statuses), on one memorial or on all. */
export const memoryOwnQuerySchema = z.object({
  memorialId: z.optional(uuidField('Gedenkpagina')),
  ...pageRequestShape,
});
export type MemoryOwnQuery = z.input<typeof memoryOwnQuerySchema>;

export const lovedBySchema = z.object({
  count: z.int(),
  byMe: z.boolean().check(z.describe('De aanvrager vindt dit mooi')),
  initials: z.array(z.string()).check(z.describe(`Initialen van de eerste ${MEMORY_LOVED_BY_INITIALS_MAX}`)),
});
export type LovedBy = z.infer<typeof lovedBySchema>;

export const memorySchema = z.object({
  id: z.uuid(),
  memorialId: z.uuid(),
  yearLabel: z.string(),
  text: z.string().check(z.describe('Platte tekst; toon als tekst, nooit als HTML')),
  status: z.enum(memoryStatuses),
  membersOnly: z.boolean().check(z.describe('Alleen zichtbaar voor leden van de pagina (met een account)')),
  author: z.object({
    kind: z.enum(['user', 'guest']),
    name: z.string(),
    isYou: z.boolean(),
  }),
  media: z.array(mediaItemSchema),
  lovedBy: lovedBySchema,
  canEdit: z.boolean(),
  canDelete: z.boolean(),
  publishedAt: z.nullable(z.iso.datetime()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Memory = z.infer<typeof memorySchema>;

export const memoryPageSchema = pageOf(memorySchema);
export const memoryManagePageSchema = z.extend(pageOf(memorySchema), {
  counts: z.object({ pending: z.int(), published: z.int(), rejected: z.int() }),
});
export const memoryDeletedSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });
export const memoryLoveResultSchema = z.object({ id: z.uuid(), lovedBy: lovedBySchema });
