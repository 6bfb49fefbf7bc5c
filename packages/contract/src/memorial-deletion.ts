import * as z from 'zod/mini';

/** What an owner types to confirm deleting a memorial. */
export const MEMORIAL_DELETE_WORD = 'VERWIJDEREN';

/** Days a memorial an owner deleted can be restored before it is removed with its media. */
export const DELETED_MEMORIAL_DAYS = 30;

/** The anchor of the deleted-pages list on Mijn Pagina's (the owners' mail links to it). */
export const DELETED_PAGES_ANCHOR = 'verwijderd';

export const memorialDeleteSchema = z.object({
  confirmation: z
    .string({ error: `Typ ${MEMORIAL_DELETE_WORD} om te bevestigen` })
    .check(z.trim(), z.maxLength(100, 'Bevestiging mag maximaal 100 tekens zijn')),
});
export type MemorialDelete = z.infer<typeof memorialDeleteSchema>;

export const deletedMemorialSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  deletedAt: z.string(),
  /** From this moment it can no longer be restored. */
  removeAfter: z.string(),
});
export type DeletedMemorial = z.infer<typeof deletedMemorialSchema>;

export const deletedMemorialsSchema = z.object({ items: z.array(deletedMemorialSchema) });
export type DeletedMemorials = z.infer<typeof deletedMemorialsSchema>;

export const memorialDeleteResultSchema = z.object({
  deleted: z.literal(true),
  removeAfter: z.string(),
});
export type MemorialDeleteResult = z.infer<typeof memorialDeleteResultSchema>;

export const memorialRestoreResultSchema = z.object({ restored: z.literal(true), id: z.string() });
export type MemorialRestoreResult = z.infer<typeof memorialRestoreResultSchema>;
