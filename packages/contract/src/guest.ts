import * as z from 'zod/mini';
import { personNameChecks } from './person-name.ts';
import { accessCodeSchema } from './access-code.ts';
import { apiErrorSchema } from './errors.ts';
import { uuidField } from './memorial.ts';

/** Guest access by access code. */
export const GUEST_TOKEN_TTL_HOURS = 12;
export const ACCESS_CODE_FAILURES_PER_MINUTE = 5;
export const ACCESS_CODE_FAILURES_PER_HOUR = 20;
/** Failures from all addresses together per hour (the default budget); above it a code is checked only with a solved proof-of-work challenge. */
export const ACCESS_CODE_GLOBAL_FAILURES_PER_HOUR = 1000;
/** Attempts that name a memorial: failures per memorial in 15 minutes before it is locked (15, 30, 60 ... minutes). */
export const ACCESS_CODE_MEMORIAL_FAILURES_PER_WINDOW = 10;
export const ACCESS_CODE_MEMORIAL_WINDOW_MINUTES = 15;
export const ACCESS_CODE_MEMORIAL_MAX_LOCK_HOURS = 24;
/** The owner is mailed once when this many wrong codes have named their memorial. */
export const ACCESS_CODE_MEMORIAL_OWNER_ALERT = 100;

export const ACCESS_CODE_INVALID_MESSAGE = 'Er is geen pagina gevonden met deze code.';
export const ACCESS_CODE_RATE_LIMITED_MESSAGE =
  'Te veel pogingen met een onjuiste code. Probeer het later opnieuw.';
export const ACCESS_CODE_CHALLENGE_MESSAGE =
  'Er worden nu veel onjuiste codes geprobeerd. Je browser lost eerst een korte rekenpuzzel op; daarna wordt je code gecontroleerd.';
export const ACCESS_CODE_CHALLENGE_INVALID_MESSAGE =
  'De rekenpuzzel is verlopen of al gebruikt. Je browser lost een nieuwe op; probeer het daarna opnieuw.';
export const ACCESS_CODE_MEMORIAL_LOCKED_MESSAGE =
  'Voor deze pagina is te vaak een onjuiste code geprobeerd. Probeer het later opnieuw, of gebruik de link uit je uitnodiging.';
export const LINK_TOKEN_INVALID_MESSAGE = 'Deze link is ongeldig, verlopen of al gebruikt.';

/** An ALTCHA (v1) challenge: find the number n with SHA-256(salt + n) = challenge, n ≤ maxnumber. */
export const accessCodeChallengeSchema = z.object({
  algorithm: z.string(),
  challenge: z.string(),
  maxnumber: z.optional(z.int()),
  salt: z.string(),
  signature: z.string(),
});
export type AccessCodeChallenge = z.infer<typeof accessCodeChallengeSchema>;

/** 429 of POST /guest/token: RATE_LIMITED, or CHALLENGE_REQUIRED with a challenge to solve first. */
export const accessCodeRefusedSchema = z.extend(apiErrorSchema, {
  challenge: z.optional(accessCodeChallengeSchema),
});
export type AccessCodeRefused = z.infer<typeof accessCodeRefusedSchema>;

export const guestTokenCreateSchema = z.object({
  accessCode: accessCodeSchema,
  memorialId: z
    .optional(uuidField('Gedenkpagina'))
    .check(
      z.describe(
        'De pagina die de link (uit een mail of van een kaartje) noemt: de code wordt alleen met die pagina vergeleken',
      ),
    ),
  pow: z
    .optional(
      z
        .string({ error: 'Oplossing is ongeldig' })
        .check(
          z.maxLength(2000, 'Oplossing is ongeldig'),
          z.regex(/^[A-Za-z0-9+/=]+$/, 'Oplossing is ongeldig'),
        ),
    )
    .check(
      z.describe('De opgeloste uitdaging (base64 JSON met algorithm, challenge, number, salt, signature)'),
    ),
});
export type GuestTokenCreate = z.infer<typeof guestTokenCreateSchema>;

export const guestTokenConsumeSchema = z.object({
  token: z
    .string({ error: 'Token is verplicht' })
    .check(z.minLength(16, 'Token is ongeldig'), z.maxLength(200, 'Token is ongeldig')),
});
export type GuestTokenConsume = z.infer<typeof guestTokenConsumeSchema>;

/** A bearer token scoped to one memorial with the guest role; send it when no user token is present. */
export const guestTokenSchema = z.object({
  token: z.string(),
  memorialId: z.uuid(),
  expiresAt: z.iso.datetime(),
  guestName: z.nullable(z.string()).check(z.describe('De naam uit de uitnodiging, als die bekend is')),
});
export type GuestToken = z.infer<typeof guestTokenSchema>;

/** POST /memorial/{id}/access-code/mail: an owner or editor mails the access code (and a one-time link) to someone. */
export const ACCESS_LINK_TTL_DAYS = 14;
export const accessCodeMailSchema = z.object({
  email: z
    .string({ error: 'E-mailadres is verplicht' })
    .check(
      z.trim(),
      z.minLength(1, 'E-mailadres is verplicht'),
      z.maxLength(254, 'E-mailadres is te lang'),
      z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Voer een geldig e-mailadres in'),
    ),
  name: z.nullish(
    z.pipe(
      z
        .string({ error: 'Naam is ongeldig' })
        .check(z.trim(), z.maxLength(100, 'Naam mag maximaal 100 tekens zijn'), ...personNameChecks()),
      z.transform((s: string) => (s === '' ? null : s)),
    ),
  ),
});
export const accessCodeMailedSchema = z.object({
  mailSent: z.boolean(),
  linkExpiresAt: z.iso.datetime(),
});
