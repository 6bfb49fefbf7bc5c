import * as z from 'zod/mini';
import { companyResponseSchema, companyTypeSchema, emailSchema } from './company.ts';

/** A company the team approved: active, or suspended by the team (its users lose partner rights). */
export const companyStates = ['active', 'suspended'] as const;
export const companyStateSchema = z.enum(companyStates);
export type CompanyState = z.infer<typeof companyStateSchema>;
export const companyStateLabels: Record<CompanyState, string> = {
  active: 'Actief',
  suspended: 'Geschorst',
};

/** The pending applications, oldest first (at most 200). */
export const teamApplicationsSchema = z.object({ items: z.array(companyResponseSchema) });

/** The team's reason for a rejection; it is mailed to the applicant. */
export const rejectApplicationSchema = z.object({
  reason: z
    .string({ error: 'Reden is verplicht' })
    .check(
      z.trim(),
      z.minLength(1, 'Geef een reden op'),
      z.maxLength(1000, 'Reden mag maximaal 1000 tekens zijn'),
    ),
});

export const teamCompanySchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  name: z.string(),
  companyType: companyTypeSchema,
  email: z.string(),
  state: companyStateSchema,
  /** The company's partner users (0 until the applicant has signed in with a verified address). */
  users: z.number(),
  createdAt: z.string(),
});
export type TeamCompany = z.infer<typeof teamCompanySchema>;
export const teamCompaniesSchema = z.object({ items: z.array(teamCompanySchema) });

/** What the signed-in user is besides a memorial's member: a team member, a company's partner user. */
export const accountRolesSchema = z.object({
  team: z.boolean(),
  companies: z.array(
    z.object({
      id: z.uuid(),
      slug: z.string(),
      name: z.string(),
      state: companyStateSchema,
      isAdmin: z.boolean(),
    }),
  ),
});
export type AccountRoles = z.infer<typeof accountRolesSchema>;

/** The team: the addresses in ADMIN_EMAILS (configuration) and those the team granted the role to. */
export const teamMembersSchema = z.object({
  items: z.array(
    z.object({
      email: z.string(),
      source: z.enum(['config', 'granted']),
      createdAt: z.nullable(z.string()),
    }),
  ),
});
export type TeamMembers = z.infer<typeof teamMembersSchema>;
export const grantTeamSchema = z.object({ email: emailSchema });
