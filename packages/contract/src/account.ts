import * as z from 'zod/mini';

/** What a person types to confirm deleting their account: their e-mail address, or this word. */
export const ACCOUNT_DELETE_WORD = 'VERWIJDEREN';

/** How a deleted member is shown on what they left behind (memories, candles, the audit log). */
export const FORMER_MEMBER_NAME = 'een voormalig lid';

/** Days a memorial whose only member deleted their account stays (archived, read-only) before it is removed. */
export const ORPHANED_MEMORIAL_DAYS = 30;

export const accountDeleteSchema = z.object({
  confirmation: z
    .string({ error: `Typ je e-mailadres of ${ACCOUNT_DELETE_WORD}` })
    .check(z.trim(), z.maxLength(320, 'Bevestiging mag maximaal 320 tekens zijn')),
});
export type AccountDelete = z.infer<typeof accountDeleteSchema>;

export const accountDeleteResultSchema = z.object({
  deleted: z.literal(true),
  /** Memorials that passed to another member, and memorials kept read-only until they are removed. */
  memorialsPassedOn: z.number(),
  memorialsToBeRemoved: z.number(),
});
export type AccountDeleteResult = z.infer<typeof accountDeleteResultSchema>;

/** GET /core/account/sign-in-methods: the ways to sign in besides an e-mail address, for the buttons to show. */
export const signInMethodsSchema = z.object({
  google: z
    .boolean()
    .check(
      z.describe(
        'Inloggen met Google kan (de ingebouwde inlogdienst met GOOGLE_CLIENT_ID en GOOGLE_CLIENT_SECRET, of een externe)',
      ),
    ),
});
export type SignInMethods = z.infer<typeof signInMethodsSchema>;
