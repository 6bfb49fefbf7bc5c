import * as z from 'zod/mini';
import { emailSchema } from './company.ts';
import { cleanPlainText } from './memory.ts';

/**
 * Future messages (docs/funeral-day.md): the family writes now and that go on a
 * chosen moment to everyone connected to the page, and anniversary reminders anyone connected may ask for.
 */
export const FUTURE_MESSAGE_SUBJECT_MAX = 150;
export const FUTURE_MESSAGE_BODY_MAX = 5000;
/** Future messages one page may have waiting, whatever the plan (Basis: one, see plan.ts). */
export const FUTURE_MESSAGES_MAX = 50;
/** How far ahead a message may be planned. */
export const FUTURE_MESSAGE_MAX_YEARS = 25;
/** Sign-ups per client address, across memorials. */
export const SUBSCRIBE_RATE_LIMIT = { max: 5, windowMinutes: 10 } as const;
/** Days the confirmation link of a sign-up works. */
export const SUBSCRIBE_CONFIRM_DAYS = 7;

/**
 * The kinds of mail from one page a person can agree to: 'messages' (the family's future messages),
 * 'birthday' and 'deathday' (a reminder on the anniversary), 'remembrance' (remembrance days such as
 * Allerzielen; sent by the candle moment).
 */
export const subscriptionKinds = ['messages', 'birthday', 'deathday', 'remembrance'] as const;
export type SubscriptionKind = (typeof subscriptionKinds)[number];
export const subscriptionKindLabels: Record<SubscriptionKind, string> = {
  messages: 'Berichten van de familie',
  birthday: 'Herinnering op de verjaardag',
  deathday: 'Herinnering op de sterfdag',
  remembrance: 'Herinnering op herdenkingsdagen',
};

export const futureMessageStatuses = ['scheduled', 'sent', 'cancelled'] as const;
export type FutureMessageStatus = (typeof futureMessageStatuses)[number];
export const futureMessageStatusLabels: Record<FutureMessageStatus, string> = {
  scheduled: 'Gepland',
  sent: 'Verstuurd',
  cancelled: 'Geannuleerd',
};

export const futureMailErrorCodes = {
  messageNotFound: 'FUTURE_MESSAGE_NOT_FOUND',
  messageNotEditable: 'FUTURE_MESSAGE_NOT_EDITABLE',
  sendAtInPast: 'FUTURE_MESSAGE_IN_PAST',
  tooMany: 'TOO_MANY_FUTURE_MESSAGES',
  tokenInvalid: 'MAIL_TOKEN_INVALID',
  subscriptionNotFound: 'SUBSCRIPTION_NOT_FOUND',
} as const;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** POST and PUT /memorial/{id}/future-messages[/{messageId}]: the moment is a date and time in Amsterdam. */
export const futureMessageInputSchema = z.object({
  subject: z
    .string({ error: 'Onderwerp is verplicht' })
    .check(
      z.trim(),
      z.minLength(1, 'Onderwerp is verplicht'),
      z.maxLength(
        FUTURE_MESSAGE_SUBJECT_MAX,
        `Onderwerp mag maximaal ${FUTURE_MESSAGE_SUBJECT_MAX} tekens zijn`,
      ),
    ),
  body: z.pipe(
    z.pipe(z.string({ error: 'Bericht is verplicht' }), z.transform(cleanPlainText)),
    z
      .string()
      .check(
        z.minLength(1, 'Bericht is verplicht'),
        z.maxLength(FUTURE_MESSAGE_BODY_MAX, `Bericht mag maximaal ${FUTURE_MESSAGE_BODY_MAX} tekens zijn`),
      ),
  ),
  sendDate: z
    .string({ error: 'Datum is verplicht' })
    .check(
      z.regex(isoDate, 'Datum moet de vorm JJJJ-MM-DD hebben'),
      z.refine(isRealDate, 'Datum bestaat niet'),
    ),
  sendTime: z
    .string({ error: 'Tijd is verplicht' })
    .check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Tijd moet de vorm UU:MM hebben')),
});
export type FutureMessageInput = z.input<typeof futureMessageInputSchema>;

export const futureMessageParamsSchema = z.object({
  id: z.string().check(z.maxLength(100), z.describe('UUID van de gedenkpagina')),
  messageId: z.string().check(z.maxLength(100), z.describe('UUID van het bericht')),
});

export const futureMessageSchema = z.object({
  id: z.uuid(),
  memorialId: z.uuid(),
  subject: z.string(),
  body: z.string(),
  /** The moment as an instant; sendDate and sendTime as the family chose it (Europe/Amsterdam). */
  sendAt: z.iso.datetime({ offset: true }),
  sendDate: z.string(),
  sendTime: z.string(),
  status: z.enum(futureMessageStatuses),
  /** How many addresses it went to (once sent). */
  recipientCount: z.nullable(z.int()),
  /** Sign-ups it was not sent to because their access to the page had ended (once sent). */
  skippedCount: z.nullable(z.int()),
  sentAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type FutureMessage = z.infer<typeof futureMessageSchema>;

export const futureMessageListSchema = z.object({
  messages: z.array(futureMessageSchema),
  /** The plan's limit on messages (scheduled and sent count); null = unlimited. */
  limit: z.nullable(z.int()),
  used: z.int(),
  /** Addresses a message would go to now (members with an address and confirmed sign-ups). */
  recipients: z.int(),
});
export type FutureMessageList = z.infer<typeof futureMessageListSchema>;

/** POST /memorial/{id}/subscriptions: anyone who may see the page; a confirmation mail follows. */
export const subscriptionCreateSchema = z.object({
  email: emailSchema,
  kinds: z
    .array(z.enum(subscriptionKinds, { error: 'Onbekende soort bericht' }))
    .check(z.minLength(1, 'Kies minstens één soort bericht'), z.maxLength(subscriptionKinds.length)),
  consent: z.literal(true, { error: 'Geef toestemming om e-mail te ontvangen' }),
});
export type SubscriptionCreate = z.input<typeof subscriptionCreateSchema>;
export const subscriptionPendingSchema = z.object({ pending: z.literal(true) });

/** POST /subscriptions/confirm and POST /mail/unsubscribe: the token from the mail's link. */
export const mailTokenSchema = z.object({
  token: z
    .string({ error: 'De link is ongeldig' })
    .check(z.minLength(10, 'De link is ongeldig'), z.maxLength(600)),
});
export const mailTokenQuerySchema = z.object({
  t: z
    .string({ error: 'De link is ongeldig' })
    .check(z.minLength(10, 'De link is ongeldig'), z.maxLength(600)),
});
export const subscriptionConfirmedSchema = z.object({
  memorialId: z.uuid(),
  memorialName: z.string(),
  kinds: z.array(z.enum(subscriptionKinds)),
});
export const unsubscribedSchema = z.object({
  memorialId: z.uuid(),
  memorialName: z.string(),
  kind: z.enum(subscriptionKinds),
  unsubscribed: z.literal(true),
});

/**
 * How a sign-up reached the page, which decides how long it may receive mail: 'public' while the page is
 * public, 'member' while a member, 'code' and 'link' (a guest token from the access code or a one-time link)
 * while that code is not regenerated and the page not invite-only.
 */
export const subscriptionAccessVias = ['public', 'member', 'code', 'link'] as const;
export type SubscriptionAccessVia = (typeof subscriptionAccessVias)[number];
export const subscriptionAccessViaLabels: Record<SubscriptionAccessVia, string> = {
  public: 'Via de openbare pagina',
  member: 'Als lid van de pagina',
  code: 'Met de toegangscode',
  link: 'Met een persoonlijke link',
};

/** GET /memorial/{id}/subscriptions (owners, editors): who signed up for mail from the page, confirmed. */
export const subscriptionSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.nullable(z.string()),
  via: z.enum(subscriptionAccessVias),
  kinds: z.array(z.enum(subscriptionKinds)),
  createdAt: z.string(),
  confirmedAt: z.string(),
  /** Whether mail from the page still reaches this sign-up now (false: its access has ended). */
  hasAccess: z.boolean(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;
export const subscriptionListSchema = z.object({ subscriptions: z.array(subscriptionSchema) });
export type SubscriptionList = z.infer<typeof subscriptionListSchema>;

export const subscriptionParamsSchema = z.object({
  id: z.string().check(z.maxLength(100), z.describe('UUID van de gedenkpagina')),
  subscriptionId: z.string().check(z.maxLength(100), z.describe('UUID van de aanmelding')),
});
export const subscriptionRemovedSchema = z.object({ id: z.uuid(), removed: z.literal(true) });
