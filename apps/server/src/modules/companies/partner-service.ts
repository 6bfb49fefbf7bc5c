import {
  COMPANY_INVITATION_TTL_DAYS,
  memberRoles,
  routes,
  type CarePage,
  type HandoverAccept,
  type HandoverAccepted,
  type HandoverMembers,
  type HandoverPreview,
  type MemorialCare,
  type carePageCreateSchema,
  type memorialCareUpdateSchema,
} from '@aandenken/contract';
import type { z } from 'zod';
import type { Deps } from '../../lib/deps.ts';
import type { Caller } from '../../lib/auth.ts';
import type { Queryable } from '../../db/client.ts';
import {
  AppError,
  conflict,
  forbidden,
  notFound,
  recipientMailLimitReached,
  unauthorized,
} from '../../lib/errors.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { isUuid } from '../../shared/pagination.ts';
import { guestService } from '../guests/service.ts';
import {
  inviteRepository,
  inviteService,
  inviteCodeHash,
  inviteExpired,
  inviteExpiry,
  inviteNotFound,
  inviteUsed,
  newInviteCode,
} from '../invites/service.ts';
import { membershipsRepository, removeMembershipIn } from '../members/service.ts';
import { memorialService } from '../memorials/service.ts';
import { colleagueInviteMail, handoverMail } from './partner-mails.ts';
import { partnerRepository, toMemorialCare } from './partner-repository.ts';
import { companyRepository } from './repository.ts';
import { hasVerifiedAddress } from '../../shared/team.ts';
import { iso } from '../../shared/time.ts';

type CallerUser = Extract<Caller, { kind: 'user' }>;

const companyMissing = () => notFound('Dit bedrijf bestaat niet.');
const adminOnly = () => forbidden('Alleen een beheerder van het bedrijf kan dit doen.');
const lastAdmin = () =>
  new AppError(
    409,
    'LAST_ADMIN',
    'Een bedrijf houdt altijd minstens één beheerder. Maak eerst een collega beheerder.',
  );
const pageMissing = () => notFound('Deze pagina bestaat niet of is niet door dit bedrijf gemaakt.');
const notCared = () => notFound('Deze pagina is niet door een uitvaartondernemer gemaakt.');

/**
 * The partner portal: a company's colleagues, the pages it makes for families and their
 * handover. Partner rights need the company active and the caller one of its users, checked first in
 * every method; to anyone else the company is 404 (anonymous 401), as `GET /companies/{id}`.
 */
export function partnerService(deps: Pick<Deps, 'db' | 'outbox' | 'config'>) {
  const { db, outbox, config } = deps;
  const repo = partnerRepository(db);
  const access = memorialAccessService(db);
  const memorials = memorialService({ db });
  const guests = guestService(deps);
  const inviteRevocation = inviteService(deps);

  async function requireUser(caller: Caller, companyId: string) {
    if (caller.kind !== 'user') throw unauthorized();
    const m = isUuid(companyId) ? await repo.membership(companyId, caller.userId) : undefined;
    if (!m) throw companyMissing();
    return { user: caller, isAdmin: m.isAdmin };
  }
  async function requireAdmin(caller: Caller, companyId: string) {
    const r = await requireUser(caller, companyId);
    if (!r.isAdmin) throw adminOnly();
    return r;
  }
  /** The caller who may act on a handover link: signed in, with a verified address. */
  async function requireFamily(caller: Caller, code: string): Promise<CallerUser> {
    if (caller.kind !== 'user') throw unauthorized('Log in om de pagina over te nemen.');
    if (code.length < 16) throw inviteNotFound();
    if (!(await hasVerifiedAddress({ db, config }, caller)))
      throw new AppError(
        403,
        'EMAIL_NOT_VERIFIED',
        'Bevestig eerst je e-mailadres via de link in de e-mail die we je stuurden. Daarna kun je de pagina overnemen.',
      );
    return caller;
  }
  /**
   * The handover invitation of this code for this family: unknown or revoked 404; accepted by someone
   * else 410; expired 410; a user of the company itself 409. Accepted by the caller: answered as is.
   */
  async function openHandover(q: Queryable, user: CallerUser, code: string, lock: boolean) {
    const row = await inviteRepository(q).findByCodeHash(q, inviteCodeHash(code), lock);
    const care = row && !row.revoked_at ? await partnerRepository(q).careByInvite(row.id) : undefined;
    if (!row || !care) throw inviteNotFound();
    if (row.accepted_at) {
      if (row.accepted_by !== user.userId) throw inviteUsed();
      return { row, care };
    }
    if (row.expired) throw inviteExpired();
    if (await partnerRepository(q).isCompanyUser(care.company_id, user.userId))
      throw conflict(
        'Je hoort bij de uitvaartonderneming die deze pagina maakte. De familie neemt de pagina zelf over.',
      );
    return { row, care };
  }
  /**
   * At a handover without the partner role: the page's open invitations end (the company sent them),
   * and of the members the company invited only those the family keeps stay.
   */
  async function shutCompanyOut(
    tx: Queryable,
    family: CallerUser,
    page: { memorialId: string; companyId: string; inviteId: string },
    choices: HandoverAccept,
  ) {
    const ended = { reason: 'handover' };
    const revokedInvitations = await inviteRevocation.revokeOpenIn(
      tx,
      family,
      page.memorialId,
      page.inviteId,
      ended,
    );
    const listed = await partnerRepository(tx).handoverMembers(
      page.memorialId,
      page.companyId,
      family.userId,
      true,
    );
    // Left out of the request: the screen's default, everyone but the company's own users stays.
    const keep = new Set(choices.keepMemberIds ?? listed.filter((x) => !x.company_user).map((x) => x.id));
    let removedMembers = 0;
    for (const member of listed) {
      if (keep.has(member.id)) continue;
      await removeMembershipIn(tx, family, member, 'member.removed', ended);
      removedMembers++;
    }
    return { revokedInvitations, removedMembers, keptMembers: listed.length - removedMembers };
  }
  async function colleagues(companyId: string, selfId: string, isAdmin: boolean) {
    return {
      users: await repo.users(companyId, selfId),
      invitations: isAdmin ? await repo.invitations(companyId) : [],
    };
  }

  return {
    async colleagues(caller: Caller, companyId: string) {
      const { user, isAdmin } = await requireUser(caller, companyId);
      return colleagues(companyId, user.userId, isAdmin);
    },

    /**
     * An administrator invites an address; whoever signs in with it, verified, joins (claimed on
     * `GET /account/roles`, as the first user). The mail counts against the unproven address.
     */
    async invite(caller: Caller, companyId: string, rawEmail: string) {
      const { user } = await requireAdmin(caller, companyId);
      const email = rawEmail.trim().toLowerCase();
      await db.transaction(async (tx) => {
        const r = partnerRepository(tx);
        await r.lockCompany(companyId);
        if (await r.hasUserWithEmail(companyId, email))
          throw new AppError(409, 'ALREADY_COLLEAGUE', 'Deze persoon hoort al bij het bedrijf.', {
            email: 'Hoort al bij het bedrijf',
          });
        const open = await r.invitationFor(companyId, email);
        if (open && !open.expired)
          throw new AppError(409, 'INVITE_PENDING', 'Dit adres is al uitgenodigd.', {
            email: 'Er staat al een uitnodiging open',
          });
        if (open) await r.deleteInvitation(companyId, open.id);
        const expiresAt = new Date(Date.now() + COMPANY_INVITATION_TTL_DAYS * 24 * 3600_000);
        const id = await r.insertInvitation(companyId, email, user.userId, expiresAt);
        await companyRepository(tx).audit({
          companyId,
          actor: caller,
          action: 'company.user_invited',
          details: { email, invitationId: id },
        });
        const partnerUrl = `${config.APP_URL}${routes.partnerPortal}?login_hint=${encodeURIComponent(email)}`;
        const mail = colleagueInviteMail({
          to: email,
          companyName: await r.companyName(companyId),
          inviterName: user.name ?? null,
          partnerUrl,
          expiresAt,
        });
        if (!(await outbox.enqueueLimited(tx, mail, 'invitation'))) throw recipientMailLimitReached();
      });
      return colleagues(companyId, user.userId, true);
    },

    async revokeInvitation(caller: Caller, companyId: string, invitationId: string) {
      await requireAdmin(caller, companyId);
      if (!isUuid(invitationId)) throw notFound('Deze uitnodiging bestaat niet.');
      await db.transaction(async (tx) => {
        const email = await partnerRepository(tx).deleteInvitation(companyId, invitationId);
        if (!email) throw notFound('Deze uitnodiging bestaat niet.');
        await companyRepository(tx).audit({
          companyId,
          actor: caller,
          action: 'company.invitation_revoked',
          details: { email, invitationId },
        });
      });
    },

    /**
     * An administrator removes a colleague, or a user leaves. Their partner rights end with the row (the
     * partner role is worked out on every call). The last administrator stays.
     */
    async removeUser(caller: Caller, companyId: string, userId: string) {
      const { user, isAdmin } = await requireUser(caller, companyId);
      const self = userId === user.userId;
      if (!self && !isAdmin) throw adminOnly();
      await db.transaction(async (tx) => {
        const r = partnerRepository(tx);
        await r.lockCompany(companyId);
        const target = userId.length <= 100 ? await r.user(companyId, userId) : undefined;
        if (!target) throw notFound('Deze collega hoort niet bij het bedrijf.');
        if (target.is_admin && (await r.countAdmins(companyId)) <= 1) throw lastAdmin();
        await r.removeUser(companyId, userId);
        await companyRepository(tx).audit({
          companyId,
          actor: caller,
          action: self ? 'company.user_left' : 'company.user_removed',
          details: { userId, wasAdmin: target.is_admin },
        });
      });
    },

    async setAdmin(caller: Caller, companyId: string, userId: string, isAdmin: boolean) {
      const { user } = await requireAdmin(caller, companyId);
      await db.transaction(async (tx) => {
        const r = partnerRepository(tx);
        await r.lockCompany(companyId);
        const target = userId.length <= 100 ? await r.user(companyId, userId) : undefined;
        if (!target) throw notFound('Deze collega hoort niet bij het bedrijf.');
        if (target.is_admin === isAdmin) return;
        if (!isAdmin && (await r.countAdmins(companyId)) <= 1) throw lastAdmin();
        await r.setAdmin(companyId, userId, isAdmin);
        await companyRepository(tx).audit({
          companyId,
          actor: caller,
          action: isAdmin ? 'company.admin_granted' : 'company.admin_revoked',
          details: { userId },
        });
      });
      const stillAdmin = (await repo.membership(companyId, user.userId))?.isAdmin ?? false;
      return colleagues(companyId, user.userId, stillAdmin);
    },

    async pages(caller: Caller, companyId: string) {
      await requireUser(caller, companyId);
      return { items: await repo.pages(companyId) };
    },

    /**
     * A page for a family: a concept with the family's rules (memorialService.insertConceptIn), no owner
     * yet, the company caring for it, and an owner invitation mailed to the family, all in one transaction.
     */
    async createPage(
      caller: Caller,
      companyId: string,
      input: z.output<typeof carePageCreateSchema>,
    ): Promise<CarePage> {
      const { user } = await requireUser(caller, companyId);
      const familyEmail = input.familyEmail.trim().toLowerCase();
      const candidates = await memorials.prepareCodes();
      const { code, codeHash } = newInviteCode();
      const memorialId = await db.transaction(async (tx) => {
        const memorialId = await memorials.insertConceptIn(tx, candidates, {
          firstName: input.firstName,
          lastName: input.lastName,
          birthDate: input.birthDate ?? null,
          deathDate: input.deathDate ?? null,
          createdBy: user.userId,
        });
        const expiresAt = inviteExpiry();
        const inviteId = await inviteRepository(tx).insert(tx, {
          memorialId,
          email: familyEmail,
          name: null,
          role: 'owner',
          codeHash,
          invitedBy: user.userId,
          expiresAt,
        });
        await partnerRepository(tx).insertCare({
          memorialId,
          companyId,
          createdBy: user.userId,
          familyEmail,
          inviteId,
        });
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'memorial.created',
          details: { status: 'concept', companyId },
        });
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'invite.sent',
          targetType: 'invite',
          targetId: inviteId,
          details: { email: familyEmail, role: 'owner' },
        });
        await companyRepository(tx).audit({
          companyId,
          actor: caller,
          action: 'care.page_created',
          details: { memorialId },
        });
        await mailFamily(tx, companyId, memorialId, inviteId, familyEmail, code, expiresAt);
        return memorialId;
      });
      return (await repo.pages(companyId, memorialId))[0]!;
    },

    /** Sends the family's invitation again with a new code and expiry; the earlier link stops working. */
    async resend(caller: Caller, companyId: string, memorialId: string): Promise<CarePage> {
      await requireUser(caller, companyId);
      if (!isUuid(memorialId)) throw pageMissing();
      const { code, codeHash } = newInviteCode();
      await db.transaction(async (tx) => {
        const care = await partnerRepository(tx).care(memorialId, true);
        if (!care || care.company_id !== companyId) throw pageMissing();
        if (care.state !== 'waiting' || !care.invite_id)
          throw conflict('De familie heeft deze pagina al overgenomen.');
        const expiresAt = inviteExpiry();
        await inviteRepository(tx).renewCode(tx, care.invite_id, codeHash, expiresAt);
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'invite.resent',
          targetType: 'invite',
          targetId: care.invite_id,
          details: { email: care.family_email },
        });
        await mailFamily(tx, companyId, memorialId, care.invite_id, care.family_email, code, expiresAt);
      });
      return (await repo.pages(companyId, memorialId))[0]!;
    },

    /** For whoever holds the link: which page, from which company, and whether it can still be taken over. */
    async preview(code: string): Promise<HandoverPreview> {
      const row =
        code.length >= 16 ? await inviteRepository(db).findByCodeHash(db, inviteCodeHash(code)) : undefined;
      const care = row && !row.revoked_at ? await repo.careByInvite(row.id) : undefined;
      if (!row || !care) throw inviteNotFound();
      return {
        memorialId: row.memorial_id,
        memorialName: `${row.first_name} ${row.last_name}`,
        companyName: care.company_name,
        status: row.accepted_at ? 'accepted' : row.expired ? 'expired' : 'pending',
        expiresAt: new Date(row.expires_at).toISOString(),
      };
    },

    /**
     * Who the company invited, for the family to keep or remove when it takes the page over without
     * the company: the same caller and link as the acceptance, before it.
     */
    async members(caller: Caller, code: string): Promise<HandoverMembers> {
      const user = await requireFamily(caller, code);
      const { row, care } = await openHandover(db, user, code, false);
      if (row.accepted_at) throw conflict('Je hebt deze pagina al overgenomen.');
      const rows = await repo.handoverMembers(row.memorial_id, care.company_id, user.userId);
      return {
        items: rows.map((m) => ({
          memberId: m.id,
          name: m.name,
          email: m.email,
          role: m.role,
          invitedByName: m.invited_by_name,
          companyUser: m.company_user,
          joinedAt: iso(m.created_at),
        })),
        openInvitations: await repo.openInvitationCount(row.memorial_id, row.id),
      };
    },

    /**
     * The family takes the page over: the signed-in holder of the link, with a verified address (not one
     * of the company's own users), becomes owner and makes the two choices about the company. Without
     * the partner role the company is shut out in the same transaction: its open invitations end, the
     * members it invited that the family does not keep are removed, and the page gets a new access code
     * (ending the guest tokens of the old one) unless the family keeps it.
     */
    async accept(caller: Caller, code: string, choices: HandoverAccept): Promise<HandoverAccepted> {
      const user = await requireFamily(caller, code);
      const shutOut = !choices.partnerRoleAllowed;
      // Prepared before the transaction: the keys may need loading, and PGlite has one connection.
      const candidates = shutOut && !choices.keepAccessCode ? await memorials.prepareCodes() : null;
      return db.transaction(async (tx) => {
        const { row, care } = await openHandover(tx, user, code, true);
        if (row.accepted_at) return { memorialId: row.memorial_id, newAccessCode: null };
        const memorialId = row.memorial_id;
        const { inviteOnly } = await partnerRepository(tx).lockMemorial(memorialId);
        const m = await membershipsRepository(tx).upsertAtLeast(tx, memorialId, user.userId, 'owner', [
          ...memberRoles,
        ]);
        await inviteRepository(tx).accept(tx, row.id, user.userId);
        await guests.expireInviteLinks(tx, row.id);
        await partnerRepository(tx).handOver(memorialId, user.userId, {
          partner: choices.partnerRoleAllowed,
          shown: choices.shownPublicly,
        });
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'invite.accepted',
          targetType: 'invite',
          targetId: row.id,
          details: { role: 'owner', invitedRole: 'owner', previousRole: m.previous, memberId: m.id },
        });
        const shutOutDetails = shutOut
          ? await shutCompanyOut(
              tx,
              user,
              { memorialId, companyId: care.company_id, inviteId: row.id },
              choices,
            )
          : null;
        const renewed = candidates
          ? await memorials.replaceAccessCodeIn(tx, user, memorialId, candidates, { reason: 'handover' })
          : null;
        const details = {
          companyId: care.company_id,
          partnerRoleAllowed: choices.partnerRoleAllowed,
          shownPublicly: choices.shownPublicly,
          ...(shutOutDetails ? { ...shutOutDetails, accessCodeRenewed: renewed !== null } : {}),
        };
        await recordAudit(tx, { memorialId, actor: caller, action: 'care.handed_over', details });
        await companyRepository(tx).audit({
          companyId: care.company_id,
          actor: caller,
          action: 'care.handed_over',
          details: { memorialId, ...details },
        });
        // An invite-only page has no code that works, so none is shown (as on the page's settings).
        return { memorialId, newAccessCode: renewed && !inviteOnly ? renewed.accessCode : null };
      });
    },

    /** The page's managers see who made it and what the family decided; a page nobody made for a family is 404. */
    async care(caller: Caller, memorialId: string): Promise<MemorialCare> {
      await access.require(caller, memorialId, 'editor');
      const care = await repo.care(memorialId);
      if (!care) throw notCared();
      return toMemorialCare(care);
    },

    /** The family (an owner) grants or withdraws the partner role, shows or hides "Verzorgd door". */
    async updateCare(
      caller: Caller,
      memorialId: string,
      patch: z.output<typeof memorialCareUpdateSchema>,
    ): Promise<MemorialCare> {
      await access.require(caller, memorialId, 'owner');
      return db.transaction(async (tx) => {
        await memorialAccessService(tx).require(caller, memorialId, 'owner');
        const r = partnerRepository(tx);
        const care = await r.care(memorialId, true);
        if (!care) throw notCared();
        if (care.state !== 'handed_over')
          throw conflict('De familie heeft deze pagina nog niet overgenomen.');
        const partner = patch.partnerRoleAllowed ?? care.partner_role_allowed;
        const shown = patch.shownPublicly ?? care.shown_publicly;
        const changes: [string, boolean][] = [];
        if (partner !== care.partner_role_allowed)
          changes.push([partner ? 'care.partner_role_granted' : 'care.partner_role_withdrawn', partner]);
        if (shown !== care.shown_publicly) changes.push([shown ? 'care.shown' : 'care.hidden', shown]);
        if (changes.length === 0) return toMemorialCare(care);
        await r.setChoices(memorialId, partner, shown);
        for (const [action] of changes) {
          await recordAudit(tx, {
            memorialId,
            actor: caller,
            action,
            details: { companyId: care.company_id },
          });
          await companyRepository(tx).audit({
            companyId: care.company_id,
            actor: caller,
            action,
            details: { memorialId },
          });
        }
        return toMemorialCare((await r.care(memorialId))!);
      });
    },
  };

  async function mailFamily(
    tx: Parameters<Parameters<typeof db.transaction>[0]>[0],
    companyId: string,
    memorialId: string,
    inviteId: string,
    to: string,
    code: string,
    expiresAt: Date,
  ) {
    const r = partnerRepository(tx);
    const page = (await r.pages(companyId, memorialId))[0]!;
    const queued = await outbox.enqueueLimited(
      tx,
      handoverMail({
        to,
        companyName: await r.companyName(companyId),
        memorialName: `${page.firstName} ${page.lastName}`,
        acceptUrl: `${config.APP_URL}${routes.handover(code)}`,
        expiresAt,
      }),
      'invitation',
    );
    // Thrown inside the transaction: nothing of the page or invitation is kept either.
    if (!queued) throw recipientMailLimitReached();
    await inviteRepository(tx).markSent(tx, inviteId);
  }
}
