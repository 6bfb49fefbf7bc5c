import { createHash, randomBytes } from 'node:crypto';
import {
  INVITE_TTL_DAYS,
  memberRoles,
  routes,
  type Invite,
  type InvitePreview,
  type MemberRole,
  type inviteCreateSchema,
  type inviteQuerySchema,
} from '@aandenken/contract';
import type { z } from 'zod';
import type { Deps } from '../../lib/deps.ts';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import { AppError, forbidden, recipientMailLimitReached, unauthorized } from '../../lib/errors.ts';
import { recordAudit } from '../../shared/audit.ts';
import { guestService } from '../guests/service.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { clampLimit, decodeCursor, isUuid, toPage } from '../../shared/pagination.ts';
import { membershipsRepository } from '../members/service.ts';
import { inviteMail } from './mails.ts';
import { inviteRepository, removeInvitesTo, statusOf, toInvite, type InviteRow } from './repository.ts';
import { lockMemorial, memorialNames } from '../../shared/memorial-row.ts';
import type { ForgetPerson } from '../../shared/forget-person.ts';

export const inviteNotFound = () =>
  new AppError(404, 'INVITE_NOT_FOUND', 'Deze uitnodiging bestaat niet of is ingetrokken.');
const inviteExpired = () =>
  new AppError(
    410,
    'INVITE_EXPIRED',
    'Deze uitnodiging is verlopen. Vraag de afzender om een nieuwe uitnodiging.',
  );
const inviteUsed = () =>
  new AppError(410, 'INVITE_USED', 'Deze uitnodiging is al door iemand anders gebruikt.');

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');
/** 192 bits of randomness, URL-safe (32 characters). */
const newCode = () => randomBytes(24).toString('base64url');
const expiry = () => new Date(Date.now() + INVITE_TTL_DAYS * 24 * 3600_000);

/** A new invite code and the hash that is stored; for another feature's invite (a family's handover). */
export const newInviteCode = () => {
  const code = newCode();
  return { code, codeHash: sha256(code) };
};
export const inviteCodeHash = (code: string) => sha256(code);
export const inviteExpiry = expiry;
export { inviteExpired, inviteUsed };
/** Invites that another feature writes inside its own transaction (a family's handover). */
export { inviteRepository };

/** Owners invite editors, contributors and guests; editors invite contributors and guests. */
export const mayInvite = (actor: MemberRole | 'visitor', role: MemberRole) =>
  actor === 'owner'
    ? role !== 'owner'
    : actor === 'editor'
      ? role === 'contributor' || role === 'guest'
      : false;

export function inviteService(deps: Pick<Deps, 'db' | 'config' | 'outbox'>) {
  const { db, config, outbox } = deps;
  const repo = inviteRepository(db);
  const members = membershipsRepository(db);
  const access = memorialAccessService(db);
  const guests = guestService(deps);

  /** Locates an invite and checks the caller may manage it; hidden like a missing one otherwise. */
  async function locate(caller: Caller, inviteId: string) {
    const memorialId = isUuid(inviteId) ? await repo.memorialOf(inviteId) : undefined;
    const acc = memorialId ? await access.resolve(caller, memorialId) : null;
    if (!memorialId || !acc?.role) throw inviteNotFound();
    await access.require(caller, memorialId, 'editor');
    return { memorialId, role: acc.role };
  }

  const forbiddenRole = (role: MemberRole) =>
    forbidden(
      role === 'editor'
        ? 'Alleen een eigenaar kan redacteuren uitnodigen.'
        : 'Je mag voor deze rol niet uitnodigen.',
    );

  /** Writes the invite mail in the transaction that makes its code and one-time guest link. */
  async function queueMail(
    tx: Queryable,
    caller: Extract<Caller, { kind: 'user' }>,
    invite: { id: string; memorialId: string; email: string; name: string | null; role: MemberRole },
    code: string,
    guestLink: string | null,
    expiresAt: Date,
  ) {
    const memorial = (await memorialNames(tx, invite.memorialId))!;
    const queued = await outbox.enqueueLimited(
      tx,
      inviteMail({
        to: invite.email,
        inviteeName: invite.name,
        inviterName: caller.name ?? null,
        memorialName: `${memorial.first_name} ${memorial.last_name}`,
        role: invite.role,
        acceptUrl: `${config.APP_URL}${routes.invite(code)}`,
        guestUrl: guestLink
          ? `${config.APP_URL}${routes.memorial(invite.memorialId)}#gasttoken=${guestLink}`
          : null,
        expiresAt,
      }),
      'invitation',
    );
    // Thrown inside the transaction: the invite, its links and its audit row are not kept either.
    if (!queued) throw recipientMailLimitReached();
    await repo.markSent(tx, invite.id);
  }

  /** Revokes an open invite: its links stop working, and the guest tokens they were exchanged for. */
  async function revokeIn(tx: Queryable, caller: Caller, row: InviteRow, details = {}) {
    await repo.revoke(tx, row.id, caller.kind === 'user' ? caller.userId : null);
    await guests.endInviteLinks(tx, row.id);
    await recordAudit(tx, {
      memorialId: row.memorial_id,
      actor: caller,
      action: 'invite.revoked',
      targetType: 'invite',
      targetId: row.id,
      details: { email: row.email, role: row.role, ...details },
    });
  }

  return {
    async create(caller: Caller, memorialId: string, input: z.output<typeof inviteCreateSchema>) {
      const acc = await access.require(caller, memorialId, 'editor');
      if (caller.kind !== 'user') throw unauthorized();
      if (!mayInvite(acc.role!, input.role)) throw forbiddenRole(input.role);
      await guests.tokens.ready();
      const code = newCode();
      const id = await db.transaction(async (tx) => {
        const memorial = await lockMemorial(tx, memorialId);
        await memorialAccessService(tx).require(caller, memorialId, 'editor');
        if (await repo.memberWithEmail(tx, memorialId, input.email)) {
          throw new AppError(409, 'ALREADY_MEMBER', 'Deze persoon is al lid van deze gedenkpagina.', {
            email: 'Is al lid van deze pagina',
          });
        }
        const open = await repo.openForEmail(tx, memorialId, input.email);
        if (open && !open.expired) {
          throw new AppError(
            409,
            'INVITE_PENDING',
            'Er staat al een uitnodiging open voor dit e-mailadres. Verstuur die opnieuw of trek hem in.',
            {
              email: 'Er staat al een uitnodiging open',
            },
          );
        }
        if (open) await repo.revoke(tx, open.id, caller.userId);
        const expiresAt = expiry();
        const inviteId = await repo.insert(tx, {
          memorialId,
          email: input.email.toLowerCase(),
          name: input.name ?? null,
          role: input.role,
          codeHash: sha256(code),
          invitedBy: caller.userId,
          expiresAt,
        });
        // A guest link only makes sense once the page is reachable by guests.
        const guestLink =
          memorial!.status === 'active'
            ? await guests.createLinkToken(tx, {
                memorialId,
                purpose: 'invite',
                inviteId,
                guestName: input.name ?? null,
                createdBy: caller.userId,
                expiresAt,
              })
            : null;
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'invite.sent',
          targetType: 'invite',
          targetId: inviteId,
          details: { email: input.email.toLowerCase(), role: input.role },
        });
        await queueMail(
          tx,
          caller,
          {
            id: inviteId,
            memorialId,
            email: input.email.toLowerCase(),
            name: input.name ?? null,
            role: input.role,
          },
          code,
          guestLink,
          expiresAt,
        );
        return inviteId;
      });
      // The mail is queued with the invite; it goes out once the mail server takes it.
      return { ...toInvite((await repo.findById(db, id))!), mailSent: true };
    },

    async get(caller: Caller, inviteId: string): Promise<Invite> {
      await locate(caller, inviteId);
      const row = await repo.findById(db, inviteId);
      if (!row) throw inviteNotFound();
      return toInvite(row);
    },

    async list(caller: Caller, input: z.output<typeof inviteQuerySchema>) {
      await access.require(caller, input.memorialId, 'editor');
      const limit = clampLimit(input.limit);
      const after = decodeCursor(input.cursor, ['string', 'string']) as [string, string] | null;
      if (after && !isUuid(after[1])) throw inviteNotFound();
      const rows = await repo.list({ memorialId: input.memorialId, status: input.status, after, limit });
      return toPage(rows, limit, toInvite, (r) => [r.cursor_ts, r.id]);
    },

    /**
     * Revokes an open invite; its links stop working, and so do the guest tokens they were exchanged for.
     * Revoking twice is fine; an accepted invite stays.
     */
    async revoke(caller: Caller, inviteId: string): Promise<void> {
      const { role } = await locate(caller, inviteId);
      await db.transaction(async (tx) => {
        const row = await repo.findById(tx, inviteId, true);
        if (!row) throw inviteNotFound();
        if (!mayInvite(role, row.role)) throw forbiddenRole(row.role);
        if (row.accepted_at)
          throw new AppError(
            409,
            'INVITE_ACCEPTED',
            'Deze uitnodiging is al geaccepteerd. Pas de rol van het lid aan of verwijder het lid.',
          );
        if (row.revoked_at) return;
        await revokeIn(tx, caller, row);
      });
    },

    /**
     * Inside the caller's transaction, after its own checks: every invitation of the page that was not
     * accepted or revoked is revoked as `revoke` does (expired ones too, so they cannot be sent again),
     * except `exceptId`. Answers how many. A family's handover without the company (partner-service.ts).
     */
    async revokeOpenIn(tx: Queryable, caller: Caller, memorialId: string, exceptId: string, details = {}) {
      const open = await repo.openIds(tx, memorialId, exceptId);
      for (const id of open) await revokeIn(tx, caller, (await repo.findById(tx, id, true))!, details);
      return open.length;
    },

    /** Sends again with a new code and a new expiry; the earlier link stops working. */
    async resend(caller: Caller, inviteId: string) {
      const { memorialId, role } = await locate(caller, inviteId);
      if (caller.kind !== 'user') throw unauthorized();
      await guests.tokens.ready();
      const code = newCode();
      await db.transaction(async (tx) => {
        const memorial = await lockMemorial(tx, memorialId);
        const row = await repo.findById(tx, inviteId, true);
        if (!row) throw inviteNotFound();
        if (!mayInvite(role, row.role)) throw forbiddenRole(row.role);
        const status = statusOf(row);
        if (status === 'accepted' || status === 'revoked') {
          throw new AppError(
            409,
            status === 'accepted' ? 'INVITE_ACCEPTED' : 'INVITE_REVOKED',
            status === 'accepted'
              ? 'Deze uitnodiging is al geaccepteerd.'
              : 'Deze uitnodiging is ingetrokken. Maak een nieuwe uitnodiging.',
          );
        }
        const expiresAt = expiry();
        await repo.renewCode(tx, inviteId, sha256(code), expiresAt);
        await guests.expireInviteLinks(tx, inviteId);
        const guestLink =
          memorial!.status === 'active'
            ? await guests.createLinkToken(tx, {
                memorialId,
                purpose: 'invite',
                inviteId,
                guestName: row.name,
                createdBy: caller.userId,
                expiresAt,
              })
            : null;
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'invite.resent',
          targetType: 'invite',
          targetId: inviteId,
          details: { email: row.email },
        });
        await queueMail(
          tx,
          caller,
          { id: inviteId, memorialId, email: row.email, name: row.name, role: row.role },
          code,
          guestLink,
          expiresAt,
        );
      });
      return { ...toInvite((await repo.findById(db, inviteId))!), mailSent: true };
    },

    /** Anyone holding the code may see who invites them to which memorial. */
    async preview(code: string): Promise<InvitePreview> {
      const row = code.length >= 16 ? await repo.findByCodeHash(db, sha256(code)) : undefined;
      if (!row || row.revoked_at) throw inviteNotFound();
      const status = statusOf(row);
      return {
        memorialId: row.memorial_id,
        memorialName: `${row.first_name} ${row.last_name}`,
        inviterName: row.invited_by_name,
        inviteeName: row.name,
        role: row.role,
        status,
        expired: status === 'expired',
        expiresAt: new Date(row.expires_at).toISOString(),
      };
    },

    /** The signed-in user becomes a member with the invite's role; accepting again (or being a stronger member already) changes nothing. */
    async accept(caller: Caller, code: string) {
      if (caller.kind !== 'user') throw unauthorized('Log in om de uitnodiging aan te nemen.');
      if (code.length < 16) throw inviteNotFound();
      return db.transaction(async (tx) => {
        const row = await repo.findByCodeHash(tx, sha256(code), true);
        if (!row || row.revoked_at) throw inviteNotFound();
        // A family's invitation to take over a company's page has its own acceptance (the family's choices).
        if (await repo.isHandover(tx, row.id))
          throw new AppError(
            409,
            'HANDOVER_INVITE',
            'Deze uitnodiging is om een pagina over te nemen. Open de link uit de e-mail om dat te doen.',
          );
        if (row.accepted_at) {
          if (row.accepted_by !== caller.userId) throw inviteUsed();
          const me = await members.findByUser(tx, row.memorial_id, caller.userId);
          if (!me) throw inviteUsed();
          return { memorialId: row.memorial_id, memberId: me.id, role: me.role, alreadyMember: true };
        }
        if (row.expired) throw inviteExpired();
        await lockMemorial(tx, row.memorial_id);
        const m = await members.upsertAtLeast(tx, row.memorial_id, caller.userId, row.role, [...memberRoles]);
        await repo.accept(tx, row.id, caller.userId);
        // The invite's one-time guest link dies with it: the invitee now opens the page as a member.
        await guests.expireInviteLinks(tx, row.id);
        await recordAudit(tx, {
          memorialId: row.memorial_id,
          actor: caller,
          action: 'invite.accepted',
          targetType: 'invite',
          targetId: row.id,
          details: { role: m.role, invitedRole: row.role, previousRole: m.previous, memberId: m.id },
        });
        return { memorialId: row.memorial_id, memberId: m.id, role: m.role, alreadyMember: !m.created };
      });
    },
  };
}

/** Invitations to a deleted account's address go. */
export const forgetPerson: ForgetPerson = async (tx, person) => {
  if (person.email !== '') await removeInvitesTo(tx, person.email);
};
