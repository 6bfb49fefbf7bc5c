import * as z from 'zod/mini';
import { cleanPlainText } from './memory.ts';

/**
 * The digital guestbook (condoleanceregister) of the funeral or memorial service
 * (docs/funeral-day.md). A Premium feature; visitors sign through a short link without an account.
 */
export const GUESTBOOK_NAME_MAX = 80;
export const GUESTBOOK_ADDRESS_MAX = 200;
export const GUESTBOOK_MESSAGE_MAX = 1000;
/** Signatures per client address, across guestbooks. */
export const GUESTBOOK_RATE_LIMIT = { max: 10, windowMinutes: 10 } as const;

export const guestbookErrorCodes = {
  notFound: 'GUESTBOOK_NOT_FOUND',
  closed: 'GUESTBOOK_CLOSED',
  entryNotFound: 'GUESTBOOK_ENTRY_NOT_FOUND',
  /** The page's plan does not include the guestbook (Basis; Premium and the trial do). */
  premiumOnly: 'PLAN_FEATURE',
} as const;

/** The short link's path on the app host. */
export const guestbookPath = (token: string) => `/g/${token}`;
export const GUESTBOOK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is verplicht` })
    .check(
      z.trim(),
      z.minLength(1, `${label} is verplicht`),
      z.maxLength(max, `${label} mag maximaal ${max} tekens zijn`),
    );

const optionalText = (label: string, max: number) =>
  z.nullish(
    z.pipe(
      z.pipe(
        z.pipe(z.string({ error: `${label} is ongeldig` }), z.transform(cleanPlainText)),
        z.string().check(z.maxLength(max, `${label} mag maximaal ${max} tekens zijn`)),
      ),
      z.transform((s: string) => (s === '' ? null : s)),
    ),
  );

/** POST /guestbook/{token}/entries: no account, no access code. */
export const guestbookSignSchema = z.object({
  name: requiredText('Naam', GUESTBOOK_NAME_MAX),
  address: optionalText('Adres', GUESTBOOK_ADDRESS_MAX),
  message: optionalText('Bericht', GUESTBOOK_MESSAGE_MAX),
});
export type GuestbookSign = z.input<typeof guestbookSignSchema>;
export const guestbookSignedSchema = z.object({ id: z.uuid() });

export const guestbookTokenParamsSchema = z.object({
  token: z.string().check(z.maxLength(100), z.describe('De code uit de korte link')),
});
export const guestbookEntryParamsSchema = z.object({
  id: z.string().check(z.maxLength(100), z.describe('UUID van de gedenkpagina')),
  entryId: z.string().check(z.maxLength(100), z.describe('UUID van de inschrijving')),
});

/** What the signing page shows: whose guestbook it is and whether it is open. */
export const guestbookPublicSchema = z.object({
  name: z.string(),
  dates: z.nullable(z.string()),
  open: z.boolean(),
});
export type GuestbookPublic = z.infer<typeof guestbookPublicSchema>;

export const guestbookEntrySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  address: z.nullable(z.string()),
  message: z.nullable(z.string()),
  hidden: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type GuestbookEntry = z.infer<typeof guestbookEntrySchema>;

/** GET /memorial/{id}/guestbook (owners, editors). */
export const guestbookSchema = z.object({
  /** Whether the page's plan includes the guestbook. */
  allowed: z.boolean(),
  /** Null until the family first opens it. */
  guestbook: z.nullable(
    z.object({
      open: z.boolean(),
      token: z.string(),
      /** The short link on the app host. */
      url: z.string(),
      entries: z.array(guestbookEntrySchema),
    }),
  ),
});
export type Guestbook = z.infer<typeof guestbookSchema>;

/** PUT /memorial/{id}/guestbook: open (made on first opening) or close it. */
export const guestbookStateSchema = z.object({
  open: z.boolean({ error: 'Kies open of dicht' }),
});
/** PUT /memorial/{id}/guestbook/entries/{entryId}: hide an entry or show it again. */
export const guestbookEntryUpdateSchema = z.object({
  hidden: z.boolean({ error: 'Kies verbergen of tonen' }),
});
