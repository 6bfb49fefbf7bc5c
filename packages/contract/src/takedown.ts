import * as z from 'zod/mini';
import { emailSchema } from './company.ts';

/** Why someone reports a memory or a photo ('Melden'). */
export const takedownReasons = ['privacy', 'offensive', 'incorrect', 'copyright', 'other'] as const;
export type TakedownReason = (typeof takedownReasons)[number];
export const takedownReasonLabels: Record<TakedownReason, string> = {
  privacy: 'Het schendt iemands privacy',
  offensive: 'Het is kwetsend of ongepast',
  incorrect: 'Het klopt niet',
  copyright: 'Het is van iemand anders (auteursrecht)',
  other: 'Iets anders',
};

export const takedownItemTypes = ['memory', 'media'] as const;
export type TakedownItemType = (typeof takedownItemTypes)[number];

/** POST /takedown/report: anyone who can see the item, signed in or not. */
export const takedownReportSchema = z.object({
  itemType: z.enum(takedownItemTypes, { error: 'Kies wat je meldt' }),
  itemId: z.uuid({ error: 'Dit onderdeel is ongeldig' }),
  reason: z.enum(takedownReasons, { error: 'Kies een reden' }),
  details: z.optional(
    z
      .string({ error: 'Toelichting moet tekst zijn' })
      .check(z.trim(), z.maxLength(2000, 'Toelichting mag maximaal 2000 tekens zijn')),
  ),
});
export type TakedownReport = z.infer<typeof takedownReportSchema>;
export const takedownReportResultSchema = z.object({ received: z.literal(true) });

/** Why an item is hidden: the team's or an owner's own words, shown to the page's owners. */
export const takedownHideSchema = z.object({
  reason: z
    .string({ error: 'Reden is verplicht' })
    .check(
      z.trim(),
      z.minLength(1, 'Geef een reden op'),
      z.maxLength(1000, 'Reden mag maximaal 1000 tekens zijn'),
    ),
});

/** Path parameters; an unknown type or an id that is not a UUID answers 404, like a missing item. */
export const takedownItemParamsSchema = z.object({
  itemType: z.string(),
  itemId: z.string(),
});

export const takedownHiddenSchema = z.object({
  by: z.enum(['team', 'owner']),
  reason: z.string(),
  at: z.string(),
});

/** An item that was reported or hidden, for the team's list and the owners' list. */
export const takedownItemSchema = z.object({
  itemType: z.enum(takedownItemTypes),
  itemId: z.uuid(),
  memorialId: z.uuid(),
  memorialName: z.string(),
  /** A memory's year and first words, or a photo's caption: enough to recognise it. */
  preview: z.string(),
  hidden: z.nullable(takedownHiddenSchema),
  reports: z.array(
    z.object({
      id: z.uuid(),
      reason: z.enum(takedownReasons),
      details: z.nullable(z.string()),
      status: z.enum(['open', 'handled']),
      createdAt: z.string(),
    }),
  ),
  lastReportedAt: z.nullable(z.string()),
});
export type TakedownItem = z.infer<typeof takedownItemSchema>;
export const takedownItemsSchema = z.object({ items: z.array(takedownItemSchema) });
export type TakedownItems = z.infer<typeof takedownItemsSchema>;

// ── Successors ────────────────────────────────────────────────────────────────────────────────

/** Days without signing in before the first reminder; days between the reminders and the hand-over. */
export const SUCCESSOR_INACTIVE_DAYS = 365;
export const SUCCESSOR_REMINDER_INTERVAL_DAYS = 14;

/** PUT /memorial/{id}/successor: a member of the page, or an e-mail address. */
export const successorSetSchema = z.union([
  z.object({ userId: z.string().check(z.minLength(1, 'Kies een lid')) }),
  z.object({ email: emailSchema }),
]);
export type SuccessorSet = z.infer<typeof successorSetSchema>;

export const successorSchema = z.object({
  successor: z.nullable(
    z.object({
      /** The member's user id, or null for an address that is not (yet) a member. */
      userId: z.nullable(z.string()),
      name: z.nullable(z.string()),
      email: z.nullable(z.string()),
      createdAt: z.string(),
    }),
  ),
});
export type Successor = z.infer<typeof successorSchema>;

/** POST /team/memorials/{id}/hand-over: the team gives a page to a family member on request. */
export const teamHandOverSchema = z.object({
  email: emailSchema,
  reason: z
    .string({ error: 'Reden is verplicht' })
    .check(
      z.trim(),
      z.minLength(1, 'Geef een reden op'),
      z.maxLength(1000, 'Reden mag maximaal 1000 tekens zijn'),
    ),
});
export type TeamHandOver = z.infer<typeof teamHandOverSchema>;
export const teamHandOverResultSchema = z.object({
  /** 'owner': the address has an account and is owner now; 'invited': an ownership invitation was mailed. */
  outcome: z.enum(['owner', 'invited']),
  memorialId: z.uuid(),
});
