import * as z from 'zod/mini';
import { emailSchema } from './company.ts';
import { deceasedNamesSchema } from './memorial-concept.ts';
import { dateField, memorialStatusSchema } from './memorial.ts';
import { memberRoleSchema } from './member.ts';

/** The partner portal: a company's colleagues and the pages it made for families. */

/** A colleague invitation is valid this long; the administrator can invite the address again after. */
export const COMPANY_INVITATION_TTL_DAYS = 14;

export const colleagueSchema = z.object({
  userId: z.string(),
  name: z.nullable(z.string()),
  email: z.nullable(z.string()),
  isAdmin: z.boolean(),
  isSelf: z.boolean(),
  createdAt: z.string(),
});
export type Colleague = z.infer<typeof colleagueSchema>;

export const colleagueInvitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});
export type ColleagueInvitation = z.infer<typeof colleagueInvitationSchema>;

/** GET /companies/{id}/users: the company's users and the open invitations (those only for administrators). */
export const colleaguesSchema = z.object({
  users: z.array(colleagueSchema),
  invitations: z.array(colleagueInvitationSchema),
});
export type Colleagues = z.infer<typeof colleaguesSchema>;

export const inviteColleagueSchema = z.object({ email: emailSchema });
export const setColleagueAdminSchema = z.object({
  isAdmin: z.boolean({ error: 'Beheerder is ja of nee' }),
});
export const colleagueParamsSchema = z.object({
  id: z.string().check(z.maxLength(100), z.describe('UUID van het bedrijf')),
  userId: z.string().check(z.maxLength(100), z.describe('Id van de gebruiker')),
});
export const companyInvitationParamsSchema = z.object({
  id: z.string().check(z.maxLength(100), z.describe('UUID van het bedrijf')),
  invitationId: z.string().check(z.maxLength(100), z.describe('UUID van de uitnodiging')),
});

/** POST /companies/{id}/pages: the deceased's names and dates, and the family's e-mail address. */
export const carePageCreateSchema = z
  .object({
    ...deceasedNamesSchema.shape,
    birthDate: z.optional(dateField('Geboortedatum')),
    deathDate: z.optional(dateField('Overlijdensdatum')),
    familyEmail: emailSchema,
  })
  .check(
    z.refine((v) => !(v.birthDate && v.deathDate && v.birthDate > v.deathDate), {
      message: 'Overlijdensdatum ligt voor de geboortedatum',
      path: ['deathDate'],
    }),
  );
export type CarePageCreate = z.input<typeof carePageCreateSchema>;

export const careStates = ['waiting', 'handed_over'] as const;
export const careStateSchema = z.enum(careStates);
export type CareState = z.infer<typeof careStateSchema>;
export const careStateLabels: Record<CareState, string> = {
  waiting: 'Wacht op de familie',
  handed_over: 'Overgedragen',
};

/** A page the company made, with its state and counters (docs/partners.md defines them). */
export const carePageSchema = z.object({
  memorialId: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  birthDate: z.nullable(z.string()),
  deathDate: z.nullable(z.string()),
  status: memorialStatusSchema,
  state: careStateSchema,
  /** Whether the company's users manage the page now (always while waiting; after, as the family decides). */
  partnerRole: z.boolean(),
  shownPublicly: z.boolean(),
  familyEmail: z.string(),
  createdAt: z.string(),
  acceptedAt: z.nullable(z.string()),
  counts: z.object({
    visitors: z.int().check(z.describe('Leden van de pagina plus gebruikte eenmalige gastlinks')),
    memories: z.int(),
    candles: z.int(),
  }),
  /** Premium on the company's account: the family never sees a payment screen. */
  paidByCompany: z.boolean(),
  /** The company paid what it owed for this page (docs/plans.md); false while it is owed. */
  settledByCompany: z.boolean(),
});
export type CarePage = z.infer<typeof carePageSchema>;
export const carePagesSchema = z.object({ items: z.array(carePageSchema) });

export const carePageParamsSchema = z.object({
  id: z.string().check(z.maxLength(100), z.describe('UUID van het bedrijf')),
  memorialId: z.string().check(z.maxLength(100), z.describe('UUID van de gedenkpagina')),
});

export const handoverCodeParamSchema = z.object({
  code: z.string().check(z.maxLength(200), z.describe('De code uit de link in de e-mail')),
});

/** GET /handover/{code}: for whoever holds the link. */
export const handoverPreviewSchema = z.object({
  memorialId: z.uuid(),
  memorialName: z.string(),
  companyName: z.string(),
  status: z.enum(['pending', 'accepted', 'expired']),
  expiresAt: z.string(),
});
export type HandoverPreview = z.infer<typeof handoverPreviewSchema>;

/** At most this many members of a page are listed at the handover (and kept by id in the acceptance). */
export const HANDOVER_MEMBERS_MAX = 500;

/**
 * GET /handover/{code}/members: who is on the page before the family takes it over. Until then only the
 * company's users can invite (with an editor's rights), so each of them is someone the company invited.
 */
export const handoverMemberSchema = z.object({
  memberId: z.uuid(),
  name: z.nullable(z.string()),
  email: z.nullable(z.string()),
  role: memberRoleSchema,
  /** Who of the company sent the invitation that was accepted (null: unknown, or the account is gone). */
  invitedByName: z.nullable(z.string()),
  /** The member is one of the company's own users. */
  companyUser: z.boolean(),
  joinedAt: z.string(),
});
export type HandoverMember = z.infer<typeof handoverMemberSchema>;
export const handoverMembersSchema = z.object({
  items: z.array(handoverMemberSchema),
  /** Invitations for the page that were not accepted yet; they end when the company may not keep helping. */
  openInvitations: z.int(),
});
export type HandoverMembers = z.infer<typeof handoverMembersSchema>;

/**
 * POST /handover/{code}/accept: the family's two choices and, when the company may not keep helping,
 * who of the company's invitees stays and whether the page keeps its access code.
 */
export const handoverAcceptSchema = z.object({
  partnerRoleAllowed: z.boolean({ error: 'Kies of de uitvaartondernemer mag blijven meebeheren' }),
  shownPublicly: z.boolean({ error: 'Kies of "Verzorgd door" op de pagina mag staan' }),
  /**
   * Without the partner role: the listed members who stay; every other one is removed. Left out: all
   * stay except the company's own users.
   */
  keepMemberIds: z.optional(
    z
      .array(z.uuid({ error: 'Kies de mensen uit de lijst' }))
      .check(z.maxLength(HANDOVER_MEMBERS_MAX, 'Te veel mensen gekozen')),
  ),
  /** Without the partner role the page gets a new access code, unless this is true. */
  keepAccessCode: z.optional(z.boolean({ error: 'Kies of de toegangscode mag blijven' })),
});
export type HandoverAccept = z.infer<typeof handoverAcceptSchema>;
export const handoverAcceptedSchema = z.object({
  memorialId: z.uuid(),
  /** The page's new access code when the handover made one (shown once to the family here); else null. */
  newAccessCode: z.nullable(z.string()),
});
export type HandoverAccepted = z.infer<typeof handoverAcceptedSchema>;

/** GET/PUT /memorial/{id}/care: the family's decisions about the company that made the page. */
export const memorialCareSchema = z.object({
  companyName: z.string(),
  companySlug: z.string(),
  state: careStateSchema,
  partnerRoleAllowed: z.boolean(),
  shownPublicly: z.boolean(),
  acceptedAt: z.nullable(z.string()),
});
export type MemorialCare = z.infer<typeof memorialCareSchema>;
export const memorialCareUpdateSchema = z.object({
  partnerRoleAllowed: z.optional(z.boolean({ error: 'Meebeheren is ja of nee' })),
  shownPublicly: z.optional(z.boolean({ error: 'Tonen is ja of nee' })),
});
