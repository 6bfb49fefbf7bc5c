import {
  roleAtLeast,
  type MemorialAccessRole,
  type MemorialStatus,
  type MemorialVisibility,
} from '@aandenken/contract';
import type { Queryable } from '../db/client.ts';
import type { Caller } from '../lib/auth.ts';
import { AppError, forbidden } from '../lib/errors.ts';
import { isUuid } from './pagination.ts';

export interface MemorialAccess {
  memorialId: string;
  status: MemorialStatus;
  visibility: MemorialVisibility;
  /** The caller's role; null when they may not see the memorial at all. */
  role: MemorialAccessRole | null;
}

/** A private memorial answers exactly like a missing one to those who may not see it. */
export const memorialNotFound = () =>
  new AppError(404, 'MEMORIAL_NOT_FOUND', 'Deze gedenkpagina bestaat niet of je hebt er geen toegang toe.');

/** What deciding access needs from the memorial's row (see `memorialAccessSql`). */
export type MemorialAccessRow = {
  status: MemorialStatus;
  visibility: MemorialVisibility;
  member_role: MemorialAccessRole | null;
};

/**
 * A memorial its owner deleted (migration 107) is shown to nobody, members included: it answers as missing
 * until an owner restores it (modules/memorials, the deleted-pages list).
 *
 * The memorial's row and the caller's membership, for `accessFromRow`: `$memorialId` and `$userId` are
 * the parameter references (e.g. `$1`, `$2::text`). Reads may embed it in their own statement so access
 * and data come in one round trip.
 */
export const memorialAccessSql = (memorialId: string, userId: string) =>
  `SELECT m.status, m.visibility,
          CASE WHEN mm.role IN ('owner', 'editor') THEN mm.role
               ELSE COALESCE((${partnerRoleSql('m.id', userId)}), mm.role) END AS member_role
     FROM memorials m
     LEFT JOIN memorial_members mm ON mm.memorial_id = m.id AND mm.user_id = ${userId}
    WHERE m.id = ${memorialId} AND m.deleted_at IS NULL`;

/**
 * The partner role (docs/roles.md): a user of the **active** company that made the memorial
 * for a family manages it as an editor while the family has not taken it over, and afterwards only while
 * the family allows it. Worked out on every call, so removing a colleague, suspending the company or the
 * family's withdrawal takes effect at once. 'editor' or NULL.
 */
export const partnerRoleSql = (memorialId: string, userId: string) =>
  `SELECT 'editor'::text FROM memorial_care mc
     JOIN companies co ON co.id = mc.company_id AND co.state = 'active'
     JOIN company_users cu ON cu.company_id = mc.company_id AND cu.user_id = ${userId}
    WHERE mc.memorial_id = ${memorialId} AND (mc.state = 'waiting' OR mc.partner_role_allowed)`;

/** The caller's access from the memorial's row (undefined: no such memorial). */
export function accessFromRow(
  caller: Caller,
  memorialId: string,
  row: MemorialAccessRow | undefined,
): MemorialAccess | null {
  if (!row) return null;
  let role: MemorialAccessRole | null = row.member_role;
  if (!role && caller.kind === 'guest' && caller.memorialId === memorialId) role = 'guest';
  // A concept or archived page is seen by its members only; an active public page by everyone.
  if (!role && row.visibility === 'public' && row.status === 'active') role = 'visitor';
  return { memorialId, status: row.status, visibility: row.visibility, role };
}

/** 404 (indistinguishable from missing) when the caller may not see it, 403 when their role is below `min`. */
export function requireAccess(access: MemorialAccess | null, min: MemorialAccessRole = 'visitor') {
  if (!access || !access.role) throw memorialNotFound();
  if (!roleAtLeast(access.role, min)) throw forbidden();
  return access;
}

/**
 * The one place that decides who may do what on a memorial. Every service method starts here:
 * `await access.require(caller, memorialId, 'editor')`.
 */
export function memorialAccessService(db: Queryable) {
  async function resolve(caller: Caller, memorialId: string): Promise<MemorialAccess | null> {
    if (!isUuid(memorialId)) return null;
    const { rows } = await db.query<MemorialAccessRow>(memorialAccessSql('$1', '$2'), [
      memorialId,
      caller.kind === 'user' ? caller.userId : null,
    ]);
    return accessFromRow(caller, memorialId, rows[0]);
  }

  return {
    resolve,
    /**
     * Returns the caller's access, or throws: 404 (indistinguishable from missing) when they may not
     * see the memorial, 403 when they may see it but their role is too weak for `min`.
     */
    async require(
      caller: Caller,
      memorialId: string,
      min: MemorialAccessRole = 'visitor',
    ): Promise<MemorialAccess> {
      return requireAccess(await resolve(caller, memorialId), min);
    },
  };
}
export type MemorialAccessService = ReturnType<typeof memorialAccessService>;
