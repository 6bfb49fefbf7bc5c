import * as z from 'zod/mini';
import { personNameChecks } from './person-name.ts';
import { accessCodeSchema } from './access-code.ts';

/** Guest access by access code (spec §3 guestTokenCreateDto). */
export const GUEST_TOKEN_TTL_HOURS = 12;
export const ACCESS_CODE_FAILURES_PER_MINUTE = 5;
export const ACCESS_CODE_FAILURES_PER_HOUR = 20;
/** Failures from all addresses together per hour; above it, every address that already failed is limited. */
export const ACCESS_CODE_GLOBAL_FAILURES_PER_HOUR = 1000;

export const ACCESS_CODE_INVALID_MESSAGE = 'Er is geen pagina gevonden met deze code.';
export const ACCESS_CODE_RATE_LIMITED_MESSAGE =
  'Te veel pogingen met een onjuiste code. Probeer het later opnieuw.';
export const LINK_TOKEN_INVALID_MESSAGE = 'Deze link is ongeldig, verlopen of al gebruikt.';

export const guestTokenCreateSchema = z.object({ accessCode: accessCodeSchema });
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
