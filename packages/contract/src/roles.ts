/** Roles a person can have on one memorial, strongest first. */
export const memberRoles = ['owner', 'editor', 'contributor', 'guest'] as const;
export type MemberRole = (typeof memberRoles)[number];

export const memberRoleLabels: Record<MemberRole, string> = {
  owner: 'Eigenaar',
  editor: 'Redacteur',
  contributor: 'Bijdrager',
  guest: 'Gast',
};

export const memorialStatuses = ['concept', 'active', 'archived'] as const;
export type MemorialStatus = (typeof memorialStatuses)[number];
export const memorialVisibilities = ['private', 'public'] as const;
export type MemorialVisibility = (typeof memorialVisibilities)[number];

/**
 * How a caller relates to a memorial. `visitor` is anyone who may see a public memorial without being
 * a member; `guest` also covers a guest token issued for this memorial's access code.
 */
export type MemorialAccessRole = MemberRole | 'visitor';

const rank: Record<MemorialAccessRole, number> = {
  owner: 4,
  editor: 3,
  contributor: 2,
  guest: 1,
  visitor: 0,
};

/** True when `role` is at least `min`. */
export function roleAtLeast(role: MemorialAccessRole | null | undefined, min: MemorialAccessRole): boolean {
  return role != null && rank[role] >= rank[min];
}
