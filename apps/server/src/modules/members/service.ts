import {
  memberRoleLabels,
  memberRoles,
  roleAtLeast,
  type Member,
  type MemberRole,
  type SelfRole,
  type memberQuerySchema,
} from '@aandenken/contract';
import type { z } from 'zod';
import type { Db, Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService, type MemorialAccess } from '../../shared/memorial-access.ts';
import { clampLimit, decodeCursor, isUuid, toPage } from '../../shared/pagination.ts';
import { endMemberGuestLinks } from '../guests/service.ts';
import { memberRepository, toMember, type MemberRow } from './repository.ts';
import { lockMemorial } from '../../shared/memorial-row.ts';
import type { ForgetPerson } from '../../shared/forget-person.ts';

/** Memberships that another feature writes inside its own transaction (an accepted invite). */
export { memberRepository as membershipsRepository };

export const memberNotFound = () =>
  new AppError(404, 'MEMBER_NOT_FOUND', 'Dit lid bestaat niet of je hebt er geen toegang toe.');
export const lastOwner = () =>
  new AppError(
    409,
    'LAST_OWNER',
    'Een gedenkpagina houdt altijd minstens één eigenaar. Maak eerst iemand anders eigenaar.',
  );

const selfId = (caller: Caller) => (caller.kind === 'user' ? caller.userId : null);

/**
 * Who may change or remove whom (docs/roles.md):
 * - an owner: every member, every role (also other owners);
 * - an editor: contributors and guests, and only to contributor or guest;
 * - anyone: remove themselves (leave).
 * A memorial always keeps at least one owner.
 */
export function mayChangeRole(actor: MemberRole, target: MemberRole, to: MemberRole): boolean {
  if (actor === 'owner') return true;
  if (actor === 'editor')
    return (target === 'contributor' || target === 'guest') && (to === 'contributor' || to === 'guest');
  return false;
}
export function mayRemove(actor: MemberRole, target: MemberRole, self: boolean): boolean {
  if (self) return true;
  if (actor === 'owner') return true;
  if (actor === 'editor') return target === 'contributor' || target === 'guest';
  return false;
}

/**
 * Ends a membership inside the caller's transaction, after the caller's rules allowed it: the row goes,
 * and so do the member's invitation links and the guest tokens issued for them; logged. Also for a
 * family's handover (companies/partner-service.ts), which removes the company's invitees it does not keep.
 */
export async function removeMembershipIn(
  tx: Queryable,
  actor: Caller,
  target: Pick<MemberRow, 'id' | 'memorial_id' | 'user_id' | 'name' | 'role'>,
  action: 'member.left' | 'member.removed',
  details: Record<string, unknown> = {},
) {
  await memberRepository(tx).remove(tx, target.id);
  await endMemberGuestLinks(tx, target.memorial_id, target.user_id);
  await recordAudit(tx, {
    memorialId: target.memorial_id,
    actor,
    action,
    targetType: 'member',
    targetId: target.id,
    details: { userId: target.user_id, name: target.name, role: target.role, ...details },
  });
}

/**
 * Ends the user's ownership of each memorial they alone own (account deletion): it goes to its named
 * successor first (`toSuccessor`, docs/roles.md), else to the next member (editor, contributor, guest; the
 * longest member first), or, with no member left, `orphan` archives it for removal. A successor's address
 * without an account gets an ownership invitation, and the page is kept meanwhile. Returns how many passed
 * on and the ids of those to be removed.
 */
export async function passOnOwnership(
  tx: Queryable,
  userId: string,
  o: {
    toSuccessor: (memorialId: string) => Promise<'owner' | 'invited' | null>;
    orphan: (memorialId: string) => Promise<void>;
  },
): Promise<{ passedOn: number; orphaned: string[] }> {
  const repo = memberRepository(tx);
  let passedOn = 0;
  const orphaned: string[] = [];
  for (const memorialId of await repo.ownedAlone(tx, userId)) {
    const handedOver = await o.toSuccessor(memorialId);
    if (handedOver === 'owner') {
      passedOn++;
      continue;
    }
    const successor = await repo.promoteNextOwner(tx, memorialId, userId);
    if (successor) {
      passedOn++;
      await recordAudit(tx, {
        memorialId,
        actor: null,
        action: 'member.owner_succeeded',
        targetType: 'member',
        targetId: successor.id,
        details: { userId: successor.user_id, reason: 'account_deleted' },
      });
    } else if (handedOver === 'invited') {
      // Kept for the successor, who was mailed an ownership invitation.
      passedOn++;
    } else {
      orphaned.push(memorialId);
      await o.orphan(memorialId);
    }
  }
  return { passedOn, orphaned };
}

/** A deleted account's memberships end. */
export const forgetPerson: ForgetPerson = async (tx, person) => {
  await memberRepository(tx).removeAllOf(tx, person.userId);
};

export function memberService({ db }: { db: Db }) {
  const repo = memberRepository(db);
  const access = memorialAccessService(db);

  /** Resolves a membership and the caller's access to its memorial; hidden exactly like a missing one. */
  async function locate(
    caller: Caller,
    memberId: string,
  ): Promise<{ memorialId: string; access: MemorialAccess }> {
    const memorialId = isUuid(memberId) ? await repo.memorialOf(memberId) : undefined;
    const acc = memorialId ? await access.resolve(caller, memorialId) : null;
    if (!memorialId || !acc?.role) throw memberNotFound();
    return { memorialId, access: acc };
  }

  return {
    async list(caller: Caller, input: z.output<typeof memberQuerySchema>) {
      await access.require(caller, input.memorialId, 'editor');
      const limit = clampLimit(input.limit);
      const after = decodeCursor(input.cursor, ['string', 'string']) as [string, string] | null;
      if (after && !isUuid(after[1])) throw memberNotFound();
      const rows = await repo.list({ memorialId: input.memorialId, role: input.role, after, limit });
      return toPage(
        rows,
        limit,
        (r) => toMember(r, selfId(caller)),
        (r) => [r.cursor_ts, r.id],
      );
    },

    /** One membership: for the memorial's owners and editors, and for the member themselves. */
    async get(caller: Caller, memberId: string): Promise<Member> {
      const { access: acc } = await locate(caller, memberId);
      const row = await repo.findById(db, memberId);
      if (!row) throw memberNotFound();
      if (!roleAtLeast(acc.role, 'editor') && row.user_id !== selfId(caller)) throw forbidden();
      return toMember(row, selfId(caller));
    },

    async selfRole(caller: Caller, memorialId: string): Promise<SelfRole> {
      const { role } = await access.require(caller, memorialId, 'visitor');
      const me = caller.kind === 'user' ? await repo.findByUser(db, memorialId, caller.userId) : undefined;
      return { memorialId, role: role!, memberId: me?.id ?? null };
    },

    async setRole(caller: Caller, memberId: string, role: MemberRole): Promise<Member> {
      const { memorialId } = await locate(caller, memberId);
      return db.transaction(async (tx) => {
        // Serialise membership changes per memorial, then decide on fresh rows.
        await lockMemorial(tx, memorialId);
        const acc = await memorialAccessService(tx).require(caller, memorialId, 'editor');
        const target = await repo.findById(tx, memberId, true);
        if (!target) throw memberNotFound();
        const actorRole = acc.role as MemberRole;
        if (!mayChangeRole(actorRole, target.role, role)) {
          throw forbidden(
            actorRole === 'editor'
              ? 'Als redacteur kun je alleen bijdragers en gasten een andere rol geven (bijdrager of gast).'
              : 'Je mag de rol van dit lid niet wijzigen.',
          );
        }
        if (target.role === role) return toMember(target, selfId(caller));
        if (target.role === 'owner' && (await repo.countOwners(tx, memorialId)) <= 1) throw lastOwner();
        await repo.setRole(tx, memberId, role);
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'member.role_changed',
          targetType: 'member',
          targetId: memberId,
          details: { userId: target.user_id, name: target.name, from: target.role, to: role },
        });
        return toMember((await repo.findById(tx, memberId))!, selfId(caller));
      });
    },

    async remove(caller: Caller, memberId: string): Promise<void> {
      const { memorialId } = await locate(caller, memberId);
      await db.transaction(async (tx) => {
        await lockMemorial(tx, memorialId);
        const acc = await memorialAccessService(tx).require(caller, memorialId, 'guest');
        const target = await repo.findById(tx, memberId, true);
        if (!target) throw memberNotFound();
        const self = target.user_id === selfId(caller);
        const actorRole = (memberRoles as readonly string[]).includes(acc.role!)
          ? (acc.role as MemberRole)
          : null;
        if (!self && (!actorRole || !mayRemove(actorRole, target.role, self))) {
          throw forbidden(
            actorRole === 'editor'
              ? `Als redacteur kun je geen ${memberRoleLabels[target.role].toLowerCase()} verwijderen.`
              : 'Je mag dit lid niet verwijderen.',
          );
        }
        if (target.role === 'owner' && (await repo.countOwners(tx, memorialId)) <= 1) throw lastOwner();
        await removeMembershipIn(tx, caller, target, self ? 'member.left' : 'member.removed');
      });
    },
  };
}
