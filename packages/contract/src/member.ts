import * as z from 'zod/mini';
import { memorialAccessRoleSchema, pageOf, pageRequestShape, uuidField } from './memorial.ts';
import { memberRoles } from './roles.ts';

export const memberRoleSchema = z.enum(memberRoles, { error: 'Kies een geldige rol' });

/** A person's membership of one memorial. E-mail is shown to the memorial's managers and to the member. */
export const memberSchema = z.object({
  id: z.uuid(),
  memorialId: z.uuid(),
  userId: z.string(),
  name: z.nullable(z.string()),
  email: z.nullable(z.string()),
  role: memberRoleSchema,
  isSelf: z.boolean().check(z.describe('Of dit lidmaatschap van de aanvrager zelf is')),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Member = z.infer<typeof memberSchema>;

/** POST /memorial/users/query: the members of one memorial, first joined first. */
export const memberQuerySchema = z.object({
  memorialId: uuidField('Gedenkpagina'),
  role: z.optional(memberRoleSchema),
  ...pageRequestShape,
});
export const memberQueryResultSchema = pageOf(memberSchema);

/** PUT /memorial/users/role. */
export const memberRoleUpdateSchema = z.object({
  memberId: uuidField('Lid'),
  role: memberRoleSchema,
});

/**
 * GET /memorial/users/self/role/{memorialId}: the caller's role ('visitor' on a public page, 'guest' with a guest
 * token). It needs a caller: an anonymous one gets 401.
 */
export const selfRoleSchema = z.object({
  memorialId: z.uuid(),
  role: memorialAccessRoleSchema,
  memberId: z
    .nullable(z.uuid())
    .check(z.describe('Het lidmaatschap; null voor een bezoeker of een gast met toegangscode')),
});
export type SelfRole = z.infer<typeof selfRoleSchema>;
