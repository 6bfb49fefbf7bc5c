import * as z from 'zod/mini';
import { personNameChecks } from './person-name.ts';
import { emailSchema } from './company.ts';
import { pageOf, pageRequestShape, uuidField } from './memorial.ts';
import { memberRoles } from './roles.ts';

export const INVITE_TTL_DAYS = 14;
/** Roles one can be invited with; owners are made by an owner through a role change. */
export const inviteRoles = ['editor', 'contributor', 'guest'] as const;
export const inviteRoleSchema = z.enum(inviteRoles, { error: 'Kies redacteur, bijdrager of gast' });
export const inviteStatuses = ['pending', 'accepted', 'revoked', 'expired'] as const;
export const inviteStatusSchema = z.enum(inviteStatuses);
export type InviteStatus = z.infer<typeof inviteStatusSchema>;
export const inviteStatusLabels: Record<(typeof inviteStatuses)[number], string> = {
  pending: 'Verstuurd',
  accepted: 'Geaccepteerd',
  revoked: 'Ingetrokken',
  expired: 'Verlopen',
};

/** POST /guest-invite/{memorialId}. */
export const inviteCreateSchema = z.object({
  email: emailSchema,
  role: z._default(inviteRoleSchema, 'guest'),
  name: z.nullish(
    z.pipe(
      z
        .string({ error: 'Naam is ongeldig' })
        .check(z.trim(), z.maxLength(100, 'Naam mag maximaal 100 tekens zijn'), ...personNameChecks()),
      z.transform((s: string) => (s === '' ? null : s)),
    ),
  ),
});
export type InviteCreate = z.input<typeof inviteCreateSchema>;

/** An invite as the memorial's owners and editors see it. */
export const inviteSchema = z.object({
  id: z.uuid(),
  memorialId: z.uuid(),
  email: z.string(),
  name: z.nullable(z.string()),
  role: z.enum(memberRoles),
  status: inviteStatusSchema,
  invitedByName: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  lastSentAt: z.nullable(z.iso.datetime()),
  sendCount: z.int(),
  acceptedAt: z.nullable(z.iso.datetime()),
  revokedAt: z.nullable(z.iso.datetime()),
});
export type Invite = z.infer<typeof inviteSchema>;

export const inviteSentSchema = z.extend(inviteSchema, {
  mailSent: z
    .boolean()
    .check(
      z.describe(
        'true: de e-mail staat in de wachtrij en wordt op de achtergrond verstuurd, met nieuwe pogingen als de mailserver even niet antwoordt',
      ),
    ),
});

/** GET /guest-invite/invite-code/{inviteCode}: what the person holding the link may know. */
export const invitePreviewSchema = z.object({
  memorialId: z.uuid(),
  memorialName: z.string(),
  inviterName: z.nullable(z.string()),
  inviteeName: z.nullable(z.string()),
  role: z.enum(memberRoles),
  status: inviteStatusSchema,
  expired: z.boolean(),
  expiresAt: z.iso.datetime(),
});
export type InvitePreview = z.infer<typeof invitePreviewSchema>;

export const inviteCodeParamSchema = z.object({ inviteCode: z.string().check(z.maxLength(200)) });
export const inviteAcceptParamSchema = z.object({ code: z.string().check(z.maxLength(200)) });

/** POST /guest-invite/accept/{code}: the signed-in user is now a member (or already was, with an equal or stronger role). */
export const inviteAcceptedSchema = z.object({
  memorialId: z.uuid(),
  memberId: z.uuid(),
  role: z.enum(memberRoles),
  alreadyMember: z.boolean(),
});

/** POST /guest-invite/query. */
export const inviteQuerySchema = z.object({
  memorialId: uuidField('Gedenkpagina'),
  status: z.optional(inviteStatusSchema),
  ...pageRequestShape,
});
export const inviteQueryResultSchema = pageOf(inviteSchema);
